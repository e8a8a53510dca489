// tests/unit/clr/stream_producer_test.cpp - the stream is its queue's one producer
// (AQL-IDX-7): VirtualGpu::submit reserves with a plain load and store of the write
// index, which is right only while its lock keeps every other thread out between the
// load and the doorbell. Several threads launch on one stream with tracing on; the
// command layer's "write index loaded" and "doorbell rung" events of one submission
// must never enclose another thread's load, and every packet must complete.
#include <gtest/gtest.h>

#include <hsa/hsa.h>

#include <atomic>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/virtual_gpu.h"
#include "common/kernel_abi.h"
#include "common/trace.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::KernelDispatch;
using rocref::clr::ScopedClrMutant;
using rocref::clr::VirtualGpu;
namespace kernel_abi = rocref::kernel_abi;
namespace trace = rocref::trace;

std::atomic<uint64_t> g_runs{0};

void count_body(const void*) { g_runs.fetch_add(1, std::memory_order_relaxed); }

uint64_t count_kernel() {
  static const uint64_t id = kernel_abi::register_kernel("clr_stream_producer_count", count_body);
  return id;
}

struct SubmitOverlap {
  uint32_t loads = 0;        // "write index loaded" events
  uint32_t interleaved = 0;  // loads made while another thread's submission was between its load and doorbell
};

// Reads the command layer's events in record order: a thread's load opens its
// submission, its doorbell closes it.
SubmitOverlap overlap_of(const std::vector<trace::Event>& events) {
  SubmitOverlap o;
  std::vector<uint32_t> open;  // threads between their load and their doorbell
  for (const trace::Event& e : events) {
    if (e.layer != trace::Layer::Clr) continue;
    if (e.name == "write index loaded") {
      ++o.loads;
      if (!open.empty()) ++o.interleaved;
      open.push_back(e.thread);
    } else if (e.name == "doorbell rung") {
      std::erase(open, e.thread);
    }
  }
  return o;
}

// kThreads threads launch kLaunches kernels each on one stream; returns the overlap seen.
SubmitOverlap launch_from_threads(Device& device, uint64_t* runs) {
  // The stream first waits on a host signal, so read_index stays on that packet while the
  // threads launch 800 more, fewer than the queue's 1024 slots: no launch waits for room.
  // (The planted bug below can move the write index back behind read_index; a launch would
  // then wait for room forever.)
  constexpr uint32_t kThreads = 4, kLaunches = 200;
  auto made = VirtualGpu::create(device);
  EXPECT_TRUE(made) << "HSA status " << (made ? HSA_STATUS_SUCCESS : made.error());
  if (!made) return {};
  std::unique_ptr<VirtualGpu> gpu = std::move(made).value_or(nullptr);
  hsa_signal_t hold{0};
  EXPECT_EQ(hsa_signal_create(1, 0, nullptr, &hold), HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu->wait_for(hold), HSA_STATUS_SUCCESS);
  g_runs.store(0);
  trace::clear();
  trace::enable(true);
  std::latch start(kThreads);  // every thread launches at once: their submissions overlap in time
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      KernelDispatch d;
      d.kernel_id = count_kernel();
      d.name = "clr_stream_producer";
      for (uint32_t i = 0; i < kLaunches; ++i) {
        if (gpu->launch(d) != HSA_STATUS_SUCCESS) return;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  trace::enable(false);
  const SubmitOverlap o = overlap_of(trace::snapshot());
  trace::clear();
  *runs = 0;
  // A lost packet never completes: synchronize would wait for it forever, so only
  // a stream whose every reservation was distinct is drained.
  if (o.interleaved == 0) {
    hsa_signal_store_screlease(hold, 0);
    EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
    hsa_signal_destroy(hold);
    *runs = g_runs.load();  // the callers check it: every packet ran once
  } else {
    // Its destructor would wait for that packet: kept, reachable, until the process ends,
    // still held behind `hold`.
    static auto* abandoned = new std::vector<std::unique_ptr<VirtualGpu>>;
    abandoned->push_back(std::move(gpu));
  }
  return o;
}

class ClrStreamProducer : public ::testing::Test {
 protected:
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
  }
  Device* device = nullptr;
};

TEST_F(ClrStreamProducer, AQL_IDX_7_SubmissionsOfOneStreamNeverInterleave) {
  uint64_t runs = 0;
  const SubmitOverlap o = launch_from_threads(*device, &runs);
  EXPECT_EQ(o.loads, 4u * 200u);
  EXPECT_EQ(o.interleaved, 0u) << "another thread loaded the write index inside a submission";
  EXPECT_EQ(runs, 4u * 200u);
}

// Without the lock the plain reservation has several producers: their submissions
// interleave (and may share a packet id). The stream is abandoned undrained.
// The threads share the CPUs with the GPU model's threads and, under ctest -j, with other
// tests: a loaded machine may run them one after another, round after round, so the bug gets
// up to 200 rounds (a few milliseconds each) to show; it usually shows in the first. The
// correct stream is held to every round it runs: zero.
TEST_F(ClrStreamProducer, AQL_IDX_7_SubmitWithoutStreamLockIsCaught) {
  ScopedClrMutant bug(ClrMutant::SubmitWithoutStreamLock);
  // Caught by an interleaving the trace shows, or by a packet that two producers both wrote
  // into one slot (a load the trace recorded after the other thread's doorbell): fewer runs.
  uint32_t interleaved = 0;
  bool lost = false;
  for (int round = 0; round < 200 && interleaved == 0 && !lost; ++round) {
    uint64_t runs = 0;
    interleaved = launch_from_threads(*device, &runs).interleaved;
    lost = interleaved == 0 && runs != 4u * 200u;
  }
  EXPECT_TRUE(interleaved > 0 || lost) << "SubmitWithoutStreamLock went unnoticed";
}

}  // namespace
