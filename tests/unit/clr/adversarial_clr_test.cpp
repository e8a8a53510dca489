// tests/unit/clr/adversarial_clr_test.cpp - the command layer's packet bugs (clr_mutant.h)
// on the adversarial GPU model (gpu/adversary.h): with each switch off the stream behaves,
// with it on the adversarial run catches it. The GPU is held by a barrier packet waiting
// on a host signal while the ring fills, so every choice applies to the same ring contents.
#include <gtest/gtest.h>

#include <hsa/hsa.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/virtual_gpu.h"
#include "common/kernel_abi.h"
#include "gpu/adversary.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::KernelDispatch;
using rocref::clr::ScopedClrMutant;
using rocref::clr::VirtualGpu;
namespace adversary = rocref::gpu::adversary;
namespace kernel_abi = rocref::kernel_abi;

constexpr uint64_t kDefaultSeed = 11;
// The kernarg bugs after the packet bugs are caught by tests/unit/clr/program_test.cpp.
static_assert(static_cast<uint32_t>(ClrMutant::KernargOffsetsIgnored) -
                      static_cast<uint32_t>(ClrMutant::NoBarrierBit) ==
                  6,
              "a new packet bug of clr_mutant.h needs a test here (AgentAcquireScope: packet_header_test.cpp, "
              "SubmitWithoutStreamLock: stream_producer_test.cpp)");

struct Args {
  uint32_t index;
  uint32_t* out;
};

uint32_t load(const uint32_t& word) { return std::atomic_ref<const uint32_t>(word).load(std::memory_order_acquire); }
void store(uint32_t& word, uint32_t value) { std::atomic_ref<uint32_t>(word).store(value, std::memory_order_release); }

// out[i] = out[i - 1] + 1: correct only if the stream runs its dispatches in order.
void chain_body(const void* kernarg) {
  const auto& a = *static_cast<const Args*>(kernarg);
  store(a.out[a.index], (a.index == 0 ? 0 : load(a.out[a.index - 1])) + 1);
}
// out[i] = i + 1.
void mark_body(const void* kernarg) {
  const auto& a = *static_cast<const Args*>(kernarg);
  store(a.out[a.index], a.index + 1);
}

uint64_t chain_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("adversarial_clr_chain", chain_body);
  return id;
}
uint64_t mark_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("adversarial_clr_mark", mark_body);
  return id;
}

KernelDispatch dispatch_of(uint64_t kernel, const Args& args) {
  KernelDispatch d;
  d.kernel_id = kernel;
  d.name = "adversarial_clr";
  d.args = &args;
  d.args_size = sizeof args;
  d.args_align = alignof(Args);
  return d;
}

bool logged(const char* clause) {
  const std::vector<std::string> log = adversary::violation_log();
  return std::any_of(log.begin(), log.end(), [&](const std::string& line) { return line.find(clause) != std::string::npos; });
}

class AdversarialClrTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // ROCREF_GPU_SEED=S (ctest, scripts/fuzz-gpu) picks the seed; else a fixed one.
    if (!adversary::enabled()) adversary::enable(kDefaultSeed);
  }
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
    adversary::clear_violations();
  }
  std::unique_ptr<VirtualGpu> make() {
    auto made = VirtualGpu::create(*device, VirtualGpu::Options{VirtualGpu::kDefaultKernargRingBytes});
    const hsa_status_t status = made ? HSA_STATUS_SUCCESS : made.error();
    auto gpu = std::move(made).value_or(nullptr);
    EXPECT_EQ(status, HSA_STATUS_SUCCESS);
    return gpu;
  }
  // A barrier packet waiting on `hold` (value 1) keeps everything after it unlaunched.
  static hsa_signal_t hold_gpu(VirtualGpu& gpu) {
    hsa_signal_t hold{0};
    EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
    EXPECT_EQ(gpu.wait_for(hold), HSA_STATUS_SUCCESS);
    return hold;
  }
  // Dispatches 0..n-1 of `chain_body` behind a hold; true when every out[i] == i + 1.
  bool chain_runs_in_order(uint32_t n) {
    auto gpu = make();
    if (!gpu) return false;
    std::vector<uint32_t> out(n, 0);
    const hsa_signal_t hold = hold_gpu(*gpu);
    std::vector<Args> args(n);
    for (uint32_t i = 0; i < n; ++i) {
      args[i] = Args{i, out.data()};
      EXPECT_EQ(gpu->launch(dispatch_of(chain_kernel(), args[i])), HSA_STATUS_SUCCESS);
    }
    hsa_signal_store_screlease(hold, 0);
    EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    while (!gpu->idle()) std::this_thread::yield();  // every dispatch, not only the last
    gpu.reset();
    hsa_signal_destroy(hold);
    for (uint32_t i = 0; i < n; ++i) {
      if (load(out[i]) != i + 1) return false;
    }
    return true;
  }
  // Launch, wait, read, n times; true when the host never read a stale value.
  bool host_sees_results(uint32_t n) {
    auto gpu = make();
    if (!gpu) return false;
    std::vector<uint32_t> out(n, 0);
    std::vector<Args> args(n);
    bool fresh = true;
    for (uint32_t i = 0; i < n; ++i) {
      args[i] = Args{i, out.data()};
      EXPECT_EQ(gpu->launch(dispatch_of(mark_kernel(), args[i])), HSA_STATUS_SUCCESS);
      EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
      fresh &= load(out[i]) == i + 1;
    }
    return fresh;
  }
  // Launch, wait, read, n times on a stream whose kernarg ring holds 16 slices, so slice
  // addresses come back with new arguments; true when every dispatch read its own.
  bool dispatches_read_their_args(uint32_t n) {
    auto made = VirtualGpu::create(*device, VirtualGpu::Options{16 * sizeof(Args)});
    const hsa_status_t status = made ? HSA_STATUS_SUCCESS : made.error();
    auto gpu = std::move(made).value_or(nullptr);
    if (status != HSA_STATUS_SUCCESS || !gpu) return false;
    std::vector<uint32_t> out(n, 0);
    std::vector<Args> args(n);
    bool own = true;
    for (uint32_t i = 0; i < n; ++i) {
      args[i] = Args{i, out.data()};
      EXPECT_EQ(gpu->launch(dispatch_of(mark_kernel(), args[i])), HSA_STATUS_SUCCESS);
      EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
      own &= load(out[i]) == i + 1;
    }
    EXPECT_GT(gpu->kernarg_stats().reused, 0u);  // the scenario needs addresses to come back
    return own;
  }
  Device* device = nullptr;
};

TEST_F(AdversarialClrTest, InOrderStreamNeedsTheBarrierBit) {
  EXPECT_TRUE(chain_runs_in_order(48)) << adversary::seed_note();
  {
    ScopedClrMutant bug(ClrMutant::NoBarrierBit);
    EXPECT_FALSE(chain_runs_in_order(48))
        << "ClrNoBarrierBit: the adversarial GPU completed a stream without barrier bits in order"
        << adversary::seed_note();
  }
  EXPECT_EQ(adversary::violations(), 0u);
}

TEST_F(AdversarialClrTest, HostReadsAfterTheSignalNeedASystemScopeRelease) {
  EXPECT_TRUE(host_sees_results(4)) << adversary::seed_note();
  {
    ScopedClrMutant bug(ClrMutant::AgentReleaseScope);
    EXPECT_FALSE(host_sees_results(4))
        << "ClrAgentReleaseScope: the host read every result although the release was agent scope"
        << adversary::seed_note();
  }
}

// covers: AQL-FEN-6
TEST_F(AdversarialClrTest, KernargsNeedASystemScopeAcquire) {
  EXPECT_TRUE(dispatches_read_their_args(48)) << adversary::seed_note();
  {
    ScopedClrMutant bug(ClrMutant::AgentAcquireScope);
    EXPECT_FALSE(dispatches_read_their_args(48))
        << "ClrAgentAcquireScope: every dispatch read its own kernargs although the acquire was agent scope"
        << adversary::seed_note();
  }
  EXPECT_TRUE(dispatches_read_their_args(48)) << adversary::seed_note();
}

TEST_F(AdversarialClrTest, DoorbellAfterTheHeader) {
  EXPECT_TRUE(host_sees_results(4));
  EXPECT_EQ(adversary::violations(), 0u) << adversary::seed_note();
  auto gpu = make();
  ASSERT_TRUE(gpu);
  std::vector<uint32_t> out(2, 0);
  // The GPU model binds a queue when it first steps it; only a bound queue's doorbell is checked.
  const Args first{0, out.data()};
  ASSERT_EQ(gpu->launch(dispatch_of(mark_kernel(), first)), HSA_STATUS_SUCCESS);
  ASSERT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  {
    ScopedClrMutant bug(ClrMutant::DoorbellBeforeHeader);
    const Args args{1, out.data()};
    ASSERT_EQ(gpu->launch(dispatch_of(mark_kernel(), args)), HSA_STATUS_SUCCESS);
    // The check runs on this thread, at the doorbell store: deterministic.
    EXPECT_GT(adversary::violations(), 0u) << "ClrDoorbellBeforeHeader not caught" << adversary::seed_note();
    EXPECT_TRUE(logged("AQL-DB-1"));
    gpu->synchronize();  // the queue is in error (or the packet ran): either way it is done
  }
}

// Holds the GPU while a launcher fills the 1024-slot queue and tries for more.
TEST_F(AdversarialClrTest, FullRingWaitIsNotOffByOne) {
  constexpr uint32_t kLaunches = 1100;
  auto run = [&](bool buggy) {
    auto gpu = make();
    ASSERT_TRUE(gpu);
    std::vector<uint32_t> out(kLaunches, 0);
    std::vector<Args> args(kLaunches);
    const hsa_signal_t hold = hold_gpu(*gpu);  // packet 0; read_index stays at 0 or 1
    std::atomic<uint32_t> launched{0};
    std::thread launcher([&] {
      for (uint32_t i = 0; i < kLaunches; ++i) {
        args[i] = Args{i, out.data()};
        if (gpu->launch(dispatch_of(mark_kernel(), args[i])) != HSA_STATUS_SUCCESS) return;  // queue in error
        launched.fetch_add(1, std::memory_order_release);
      }
    });
    // Ids 1..1023 fit whatever read_index is; id 1024 or 1025 is the first that must wait.
    // The deadline only keeps a broken run from hanging the suite.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    auto waiting = [&] {
      if (std::chrono::steady_clock::now() > deadline) return false;
      return buggy ? adversary::violations() == 0 : launched.load(std::memory_order_acquire) < 1023;
    };
    while (waiting()) std::this_thread::yield();
    hsa_signal_store_screlease(hold, 0);
    launcher.join();
    if (buggy) {
      EXPECT_TRUE(logged("AQL-IDX-2")) << "ClrFullRingOffByOne not caught" << adversary::seed_note();
      gpu->synchronize();
    } else {
      EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
      EXPECT_EQ(launched.load(), kLaunches);
      for (uint32_t i = 0; i < kLaunches; ++i) ASSERT_EQ(load(out[i]), i + 1) << i << adversary::seed_note();
      EXPECT_EQ(adversary::violations(), 0u) << adversary::seed_note();
    }
    hsa_signal_destroy(hold);
  };
  run(false);
  ScopedClrMutant bug(ClrMutant::FullRingOffByOne);
  run(true);
}

}  // namespace
