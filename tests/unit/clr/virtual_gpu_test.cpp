// tests/unit/clr/virtual_gpu_test.cpp - the kernarg ring and signal pool inside a stream,
// on the whole stack: every dispatch reads its own arguments however often the ring
// wraps, a full ring waits for the GPU, the trace shows reuse instead of allocation.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "clr/device.h"
#include "clr/signal_pool.h"
#include "clr/virtual_gpu.h"
#include "common/kernel_abi.h"
#include "common/trace.h"

namespace {

using rocref::clr::Device;
using rocref::clr::KernelDispatch;
using rocref::clr::VirtualGpu;
namespace kernel_abi = rocref::kernel_abi;
namespace trace = rocref::trace;

struct Args {
  uint32_t index;
  uint32_t value;
  uint32_t* out;
  std::atomic<bool>* gate;  // non-null: wait for it before writing (holds the GPU up)
};

void record_body(const void* kernarg) {
  const auto& a = *static_cast<const Args*>(kernarg);
  if (a.gate) {
    while (!a.gate->load(std::memory_order_acquire)) std::this_thread::yield();
  }
  std::atomic_ref<uint32_t>(a.out[a.index]).store(a.value, std::memory_order_release);  // the test polls some
}

uint32_t seen(const std::vector<uint32_t>& out, size_t i) {
  return std::atomic_ref<const uint32_t>(out[i]).load(std::memory_order_acquire);
}

// Writes the address its kernarg segment was given.
void address_body(const void* kernarg) {
  **static_cast<uintptr_t* const*>(kernarg) = reinterpret_cast<uintptr_t>(kernarg);
}

struct Big {
  uint32_t* out;
  uint32_t words[62];  // 256 bytes in all
};
void big_body(const void* kernarg) {
  const auto& b = *static_cast<const Big*>(kernarg);
  uint32_t sum = 0;
  for (uint32_t w : b.words) sum += w;
  *b.out = sum;
}

uint64_t record_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("clr_test_record", record_body);
  return id;
}
uint64_t address_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("clr_test_address", address_body);
  return id;
}
uint64_t big_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("clr_test_big", big_body);
  return id;
}

template <typename T>
KernelDispatch dispatch_of(uint64_t kernel, const T& args, size_t align = alignof(T)) {
  KernelDispatch d;
  d.kernel_id = kernel;
  d.name = "clr_test";
  d.args = &args;
  d.args_size = sizeof(T);
  d.args_align = align;
  return d;
}

class VirtualGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
  }
  std::unique_ptr<VirtualGpu> make(size_t ring_bytes) {
    auto made = VirtualGpu::create(*device, VirtualGpu::Options{ring_bytes});
    const hsa_status_t status = made ? HSA_STATUS_SUCCESS : made.error();
    auto gpu = std::move(made).value_or(nullptr);
    EXPECT_EQ(status, HSA_STATUS_SUCCESS);
    return gpu;
  }
  Device* device = nullptr;
};

// A launch gives the previous one's slice back before taking its own and its signal after
// its doorbell, so launch -> synchronize rounds use one slice and two signals in turn.
TEST_F(VirtualGpuTest, LaunchesReuseOneSliceAndTwoSignals) {
  auto gpu = make(VirtualGpu::kDefaultKernargRingBytes);
  ASSERT_TRUE(gpu);
  std::vector<uint32_t> out(50, 0);
  ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{0, 1, out.data(), nullptr})), HSA_STATUS_SUCCESS);
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  const uint64_t created_before = device->signal_pool().created();
  for (uint32_t i = 1; i < out.size(); ++i) {
    ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, i + 1, out.data(), nullptr})), HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  }
  for (uint32_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i + 1) << i;
  const auto stats = gpu->kernarg_stats();
  EXPECT_EQ(stats.slices, out.size());
  EXPECT_EQ(stats.reused, out.size() - 1) << "each launch after the first reuses the completed one's slice";
  EXPECT_EQ(stats.one_offs, 0u);
  EXPECT_EQ(stats.live_slices, 0u);
  EXPECT_LE(device->signal_pool().created(), created_before + 1)
      << "every completion signal but one came from the pool";
}

// Batches of launches, then a synchronize: a launch with several commands in flight looks for
// completed ones only now and then, but the pool still stops growing once it holds a batch.
TEST_F(VirtualGpuTest, BatchesStopMakingSignalsOnceThePoolHoldsABatch) {
  auto gpu = make(VirtualGpu::kDefaultKernargRingBytes);
  ASSERT_TRUE(gpu);
  constexpr uint32_t kBatch = 64, kBatches = 20;
  std::vector<uint32_t> out(kBatch, 0);
  auto batch = [&](uint32_t round) {
    for (uint32_t i = 0; i < kBatch; ++i) {
      ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, round * kBatch + i, out.data(), nullptr})),
                HSA_STATUS_SUCCESS);
    }
    ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    for (uint32_t i = 0; i < kBatch; ++i) ASSERT_EQ(out[i], round * kBatch + i) << "round " << round;
  };
  batch(0);
  batch(1);
  const uint64_t created_before = device->signal_pool().created();
  for (uint32_t r = 2; r < 2 + kBatches; ++r) batch(r);
  EXPECT_LE(device->signal_pool().created() - created_before, kBatch)
      << "signals made and destroyed again batch after batch";
  EXPECT_EQ(gpu->kernarg_stats().live_slices, 0u);
}

TEST_F(VirtualGpuTest, RingWrapsPastCompletedSlicesOnly) {
  auto gpu = make(256);  // eight 32-byte slices
  ASSERT_TRUE(gpu);
  std::vector<uint32_t> out(9, 0);
  std::atomic<bool> first{false}, third{false};
  // Dispatch 0 holds the GPU while 0..7 fill the ring to its end, so nothing is reclaimed early.
  for (uint32_t i = 0; i < 8; ++i) {
    std::atomic<bool>* gate = i == 0 ? &first : i == 2 ? &third : nullptr;
    ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, i + 1, out.data(), gate})), HSA_STATUS_SUCCESS);
  }
  EXPECT_EQ(gpu->kernarg_stats().live_slices, 8u);
  // Then 0 and 1 complete and dispatch 2 holds the GPU; idle() reclaims what completed.
  first.store(true, std::memory_order_release);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!gpu->idle() && gpu->kernarg_stats().live_slices > 6 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  ASSERT_EQ(gpu->kernarg_stats().live_slices, 6u);
  ASSERT_EQ(seen(out, 1), 2u);
  // The ninth goes where dispatch 0 was, without waiting: its slice is free, 2's is not.
  ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{8, 9, out.data(), nullptr})), HSA_STATUS_SUCCESS);
  auto stats = gpu->kernarg_stats();
  EXPECT_EQ(stats.wraps, 1u);
  EXPECT_EQ(stats.full_waits, 0u);
  EXPECT_EQ(stats.live_slices, 7u);
  third.store(true, std::memory_order_release);
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], i + 1) << i;
}

TEST_F(VirtualGpuTest, ManyLaunchesThroughATinyRingKeepTheirArguments) {
  auto gpu = make(256);
  ASSERT_TRUE(gpu);
  std::vector<uint32_t> out(500, 0);
  for (uint32_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, 3 * i + 1, out.data(), nullptr})), HSA_STATUS_SUCCESS);
  }
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 3 * i + 1) << "dispatch " << i << " read another's slice";
  const auto stats = gpu->kernarg_stats();
  EXPECT_EQ(stats.slices, out.size());
  EXPECT_GT(stats.reused, 0u);
  EXPECT_EQ(stats.live_slices, 0u);
}

// Two host threads on one stream (run under TSan by scripts/sanitize): slices, signals and
// the pending list are shared; each dispatch must still read its own arguments.
TEST_F(VirtualGpuTest, ThreadsSharingAStreamKeepTheirArguments) {
  auto gpu = make(256);
  ASSERT_TRUE(gpu);
  constexpr uint32_t kPerThread = 150;
  std::vector<uint32_t> out(2 * kPerThread, 0);
  auto worker = [&](uint32_t first) {
    for (uint32_t i = first; i < first + kPerThread; ++i) {
      ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, 5 * i + 2, out.data(), nullptr})), HSA_STATUS_SUCCESS);
      if (i % 40 == 0) {
        ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
      }
    }
  };
  std::thread a(worker, 0), b(worker, kPerThread);
  a.join();
  b.join();
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 5 * i + 2) << i;
  EXPECT_EQ(gpu->kernarg_stats().live_slices, 0u);
}

TEST_F(VirtualGpuTest, FullRingWaitsForTheGpuToFreeASlice) {
  auto gpu = make(256);
  ASSERT_TRUE(gpu);
  constexpr uint32_t kLaunches = 40;
  std::vector<uint32_t> out(kLaunches, 0);
  std::atomic<bool> gate{false};
  std::atomic<uint32_t> submitted{0};
  std::thread launcher([&] {
    for (uint32_t i = 0; i < kLaunches; ++i) {
      const Args args{i, i + 100, out.data(), i == 0 ? &gate : nullptr};
      ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), args)), HSA_STATUS_SUCCESS);
      submitted.fetch_add(1);
    }
  });
  // The first dispatch holds the GPU: eight slices fill the ring, the ninth launch waits.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (gpu->kernarg_stats().full_waits == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_GT(gpu->kernarg_stats().full_waits, 0u);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(submitted.load(), 8u) << "a launch went ahead with the ring full";
  EXPECT_EQ(seen(out, 0), 0u);
  gate.store(true, std::memory_order_release);
  launcher.join();
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < kLaunches; ++i) EXPECT_EQ(out[i], i + 100) << i;
}

TEST_F(VirtualGpuTest, ArgumentsLargerThanTheRingGetAOneOffAllocation) {
  auto gpu = make(128);
  ASSERT_TRUE(gpu);
  uint32_t sum = 0;
  Big big{&sum, {}};
  for (uint32_t i = 0; i < 62; ++i) big.words[i] = i;
  ASSERT_EQ(gpu->launch(dispatch_of(big_kernel(), big)), HSA_STATUS_SUCCESS);
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(sum, 61u * 62u / 2u);
  EXPECT_EQ(gpu->kernarg_stats().one_offs, 1u);
  EXPECT_EQ(gpu->kernarg_stats().slices, 0u);
}

TEST_F(VirtualGpuTest, SlicesHonourTheKernargAlignment) {
  auto gpu = make(4096);
  ASSERT_TRUE(gpu);
  for (size_t align : {size_t{16}, size_t{64}, size_t{256}}) {
    uintptr_t seen = 0;
    uintptr_t* target = &seen;
    struct {
      uintptr_t* out;
      uint8_t pad[8];
    } args{target, {}};
    ASSERT_EQ(gpu->launch(dispatch_of(address_kernel(), args, align)), HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu->launch(dispatch_of(address_kernel(), args, align)), HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    ASSERT_NE(seen, 0u);
    EXPECT_EQ(seen % align, 0u) << "align " << align;
  }
  KernelDispatch odd = dispatch_of(record_kernel(), Args{}, 24);
  EXPECT_EQ(gpu->launch(odd), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(VirtualGpuTest, EventSignalsStayWhileHeld) {
  auto gpu = make(VirtualGpu::kDefaultKernargRingBytes);
  ASSERT_TRUE(gpu);
  hsa_signal_t marker{0};
  ASSERT_EQ(gpu->marker(&marker), HSA_STATUS_SUCCESS);
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_load_scacquire(marker), 0);
  // The command is done with it, the caller (an event) is not: later commands get other signals.
  std::vector<uint32_t> out(20, 0);
  for (uint32_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, 1, out.data(), nullptr})), HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    EXPECT_EQ(hsa_signal_load_scacquire(marker), 0) << "the held marker signal was reused";
  }
  EXPECT_TRUE(device->signal_pool().release(marker));
}

// The launching thread's events inside the n-th KernelCommand span.
std::vector<trace::Event> inside_command(const std::vector<trace::Event>& events, int n) {
  std::vector<trace::Event> inside;
  int seen = 0;
  uint32_t thread = 0;
  int depth = 0;
  for (const trace::Event& e : events) {
    if (depth == 0) {
      if (e.layer == trace::Layer::Clr && e.phase == trace::Phase::Begin && e.name == "KernelCommand" && ++seen == n) {
        thread = e.thread;
        depth = 1;
      }
      continue;
    }
    if (e.thread != thread) continue;
    if (e.phase == trace::Phase::Begin) ++depth;
    if (e.phase == trace::Phase::End && --depth == 0) break;
    inside.push_back(e);
  }
  return inside;
}

TEST_F(VirtualGpuTest, TraceShowsReuseInsteadOfAllocation) {
  auto gpu = make(VirtualGpu::kDefaultKernargRingBytes);
  ASSERT_TRUE(gpu);
  std::vector<uint32_t> out(2, 0);
  trace::clear();
  trace::enable(true);
  for (uint32_t i = 0; i < 2; ++i) {
    ASSERT_EQ(gpu->launch(dispatch_of(record_kernel(), Args{i, 7, out.data(), nullptr})), HSA_STATUS_SUCCESS);
    ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  }
  trace::enable(false);
  const std::vector<trace::Event> second = inside_command(trace::snapshot(), 2);
  trace::clear();
  ASSERT_FALSE(second.empty());
  bool slice_reused = false, signal_reused = false;
  for (const trace::Event& e : second) {
    slice_reused |= e.name == "kernarg slice reused (ring)";
    signal_reused |= e.name == "completion signal reused (pool)";
    EXPECT_NE(e.name, "hsa_amd_memory_pool_allocate");
    EXPECT_TRUE(e.layer != trace::Layer::Thunk && e.layer != trace::Layer::Kfd)
        << "a launch reached the " << trace::layer_name(e.layer) << ": " << e.name;
  }
  EXPECT_TRUE(slice_reused);
  EXPECT_TRUE(signal_reused);
}

}  // namespace
