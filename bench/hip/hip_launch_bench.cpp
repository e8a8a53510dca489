// bench/hip/hip_launch_bench.cpp - hipLaunchKernel -> completion, through every layer.
//
// One empty kernel per iteration on one stream, then hipStreamSynchronize: the
// time covers HIP argument packing, the command layer's AQL packet, the
// doorbell, the GPU model's scheduler picking the queue up, the dispatch, the
// completion signal and the host's wake-up. Report the median
// (--benchmark_repetitions=N --benchmark_report_aggregates_only=true).
#include <benchmark/benchmark.h>
#include <hip/hip_runtime.h>

namespace {

__global__ void empty_kernel(int) {}

void Hip_LaunchToCompletion(benchmark::State& state) {
  hipStream_t stream = nullptr;
  if (hipStreamCreate(&stream) != hipSuccess) {
    state.SkipWithError("hipStreamCreate failed");
    return;
  }
  const dim3 block(static_cast<unsigned>(state.range(0)));
  for (auto _ : state) {
    hipLaunchKernelGGL(empty_kernel, dim3(1), block, 0, stream, 0);
    if (hipStreamSynchronize(stream) != hipSuccess) {
      state.SkipWithError("launch failed");
      break;
    }
  }
  (void)hipStreamDestroy(stream);
}
BENCHMARK(Hip_LaunchToCompletion)->Arg(1)->Arg(64)->UseRealTime()->MinTime(0.5);

void Hip_LaunchThroughput(benchmark::State& state) {
  hipStream_t stream = nullptr;
  (void)hipStreamCreate(&stream);
  const int batch = 64;
  for (auto _ : state) {
    for (int i = 0; i < batch; ++i) hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(1), 0, stream, i);
    (void)hipStreamSynchronize(stream);
  }
  state.SetItemsProcessed(state.iterations() * batch);
  (void)hipStreamDestroy(stream);
}
BENCHMARK(Hip_LaunchThroughput)->UseRealTime()->MinTime(0.5);

}  // namespace

BENCHMARK_MAIN();
