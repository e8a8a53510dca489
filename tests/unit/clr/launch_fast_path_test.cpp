// tests/unit/clr/launch_fast_path_test.cpp - the launch path's per-thread shortcuts answer as
// the full lookups do: kernel_object_for's last answer is reused only for the same kernel
// (two kernels with arguments of one size each run their own code); the stream's and the
// signal pool's Monitor excludes every other holder.
#include <gtest/gtest.h>

#include <hsa/hsa.h>

#include <atomic>
#include <cstdint>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/monitor.h"
#include "clr/virtual_gpu.h"
#include "common/kernel_abi.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::KernelDispatch;
using rocref::clr::Monitor;
using rocref::clr::ScopedClrMutant;
using rocref::clr::VirtualGpu;
namespace kernel_abi = rocref::kernel_abi;

std::atomic<int> g_runs_a{0};
std::atomic<int> g_runs_b{0};

void body_a(const void*) { g_runs_a.fetch_add(1, std::memory_order_relaxed); }
void body_b(const void*) { g_runs_b.fetch_add(1, std::memory_order_relaxed); }

uint64_t kernel_a() {
  static const uint64_t id = kernel_abi::register_kernel("clr_fast_path_a", body_a);
  return id;
}
uint64_t kernel_b() {
  static const uint64_t id = kernel_abi::register_kernel("clr_fast_path_b", body_b);
  return id;
}

// Kernel a, then kernel b, each with 8 bytes of arguments, on one stream: true when each ran once.
bool each_kernel_runs_its_own_code(Device& device) {
  auto made = VirtualGpu::create(device);
  EXPECT_TRUE(made);
  if (!made) return false;
  std::unique_ptr<VirtualGpu> gpu = std::move(made).value_or(nullptr);
  g_runs_a.store(0);
  g_runs_b.store(0);
  const uint64_t argument = 7;
  KernelDispatch d;
  d.grid_groups = {1, 1, 1};
  d.block = {1, 1, 1};
  d.args = &argument;
  d.args_size = sizeof argument;
  d.args_align = alignof(uint64_t);
  d.kernel_id = kernel_a();
  d.name = "clr_fast_path_a";
  EXPECT_EQ(gpu->launch(d), HSA_STATUS_SUCCESS);
  d.kernel_id = kernel_b();
  d.name = "clr_fast_path_b";
  EXPECT_EQ(gpu->launch(d), HSA_STATUS_SUCCESS);
  EXPECT_EQ(gpu->synchronize(), HSA_STATUS_SUCCESS);
  return g_runs_a.load() == 1 && g_runs_b.load() == 1;
}

TEST(ClrLaunchFastPath, KernelObjectIsEachKernelsOwn) {
  Device* device = Device::get();
  ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
  EXPECT_TRUE(each_kernel_runs_its_own_code(*device));
  EXPECT_TRUE(each_kernel_runs_its_own_code(*device)) << "the second time, from the per-thread entry";
  ScopedClrMutant bug(ClrMutant::KernelObjectCacheUnkeyed);
  EXPECT_FALSE(each_kernel_runs_its_own_code(*device))
      << "KernelObjectCacheUnkeyed: a kernel ran another's code unnoticed";
}

// Four threads, started at once, each add 1 to a shared count 200,000 times under one
// Monitor, through a read, a pause and a write: any two holders at once lose an update.
// True when none was lost.
bool monitor_excludes() {
  constexpr int kThreads = 4, kRounds = 200'000;
  Monitor monitor;
  volatile uint64_t count = 0;
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < kRounds; ++i) {
        std::lock_guard lock(monitor);
        const uint64_t seen = count;
        for (int spin = 0; spin < 32; ++spin) std::atomic_signal_fence(std::memory_order_seq_cst);
        count = seen + 1;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return count == uint64_t{kThreads} * kRounds;
}

TEST(ClrLaunchFastPath, MonitorExcludesEveryOtherHolder) {
  EXPECT_TRUE(monitor_excludes());
  // The threads share the CPUs with other work: a loaded machine may run them one at a time,
  // so the bug gets up to 100 rounds to show two holders at once.
  ScopedClrMutant bug(ClrMutant::MonitorExcludesNobody);
  bool lost = false;
  for (int round = 0; round < 100 && !lost; ++round) lost = !monitor_excludes();
  EXPECT_TRUE(lost) << "MonitorExcludesNobody: two holders at once went unnoticed";
}

}  // namespace
