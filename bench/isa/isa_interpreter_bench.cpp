// bench/isa/isa_interpreter_bench.cpp - lane-instructions per second of the gfx900 interpreter (ISA-PERF-1).
//
// isa_alu_bound: a loop of v_fma/v_mad and integer multiply-adds; isa_memory_bound:
// vector add over 4 MiB arrays. Both dispatch through run_isa_dispatch with
// identity translation (FlatMemory); the argument is the number of host workers
// (ISA-PAR-1): 1 is the calling thread alone.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "code_object.h"
#include "gpu/isa/dispatch.h"

namespace {

using namespace rocref::gpu;

const rocref::test::CodeObject& kernels() {
  static const rocref::test::CodeObject co(ROCREF_ISA_BENCH_KERNELS);
  return co;
}

template <typename Args>
isa::IsaStats dispatch(const char* name, const Args& args, uint32_t grid, uint16_t wg, unsigned workers) {
  FlatMemory memory;
  alignas(64) uint8_t kernarg[256] = {};
  std::memcpy(kernarg, &args, sizeof args);
  hsa_kernel_dispatch_packet_t p{};
  p.setup = 1;
  p.workgroup_size_x = wg;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = grid;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = kernels().kernel_object(name);
  p.kernarg_address = kernarg;
  isa::IsaStats stats;
  const isa::IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory, nullptr, workers};
  if (p.kernel_object == 0 || isa::run_isa_dispatch(d, &stats)) stats.lane_instructions = 0;
  return stats;
}

void isa_alu_bound(benchmark::State& state) {
  // The second argument is the number of 256-wide work-groups: with 256, 16 workers get one
  // residency round (16 groups) each, so a late-starting worker is the whole tail; with 1024
  // they get four (ISA-PAR-1's scaling with the tail amortized).
  const uint32_t grid = static_cast<uint32_t>(state.range(1)) * 256;
  std::vector<float> out(grid);
  struct {
    uint64_t out;
    int iters;
  } args{reinterpret_cast<uintptr_t>(out.data()), 64};
  uint64_t lanes = 0;
  for (auto _ : state) {
    const isa::IsaStats s = dispatch("alu", args, grid, 256, static_cast<unsigned>(state.range(0)));
    if (s.lane_instructions == 0) { state.SkipWithError("dispatch failed"); return; }
    lanes += s.lane_instructions;
  }
  state.counters["lane_instructions_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
}

void isa_memory_bound(benchmark::State& state) {
  const int n = 1 << 20;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
  struct { uint64_t a, b, c; int n; } args{reinterpret_cast<uintptr_t>(a.data()), reinterpret_cast<uintptr_t>(b.data()),
                                          reinterpret_cast<uintptr_t>(c.data()), n};
  uint64_t lanes = 0;
  for (auto _ : state) {
    const isa::IsaStats s = dispatch("vadd", args, n, 256, static_cast<unsigned>(state.range(0)));
    if (s.lane_instructions == 0) { state.SkipWithError("dispatch failed"); return; }
    lanes += s.lane_instructions;
  }
  state.counters["lane_instructions_per_s"] = benchmark::Counter(static_cast<double>(lanes), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * 12);
}

BENCHMARK(isa_alu_bound)
    ->ArgsProduct({{1, 2, 4, 8, 16}, {256, 1024}})
    ->ArgNames({"workers", "groups"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(isa_memory_bound)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
