// bench/hip/hip_launch_profile.cpp - the launch loop that launch_profile.py counts under callgrind.
//
// A fixed number of launch -> hipStreamSynchronize rounds, each half in its own
// non-inlined function, so the callgrind profile can charge instructions to the
// host's launch, the host's synchronize and the GPU model thread's steps per
// launch without timing anything. ROCREF_BENCH_PLANT_SLOW=1 adds work to every
// launch: the profile's regression check must report it.
#include <benchmark/benchmark.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdlib>

namespace {

constexpr int64_t kProfileLaunches = 500;

__global__ void profiled_kernel(int) {}

bool planted_slow() {
  static const bool on = std::getenv("ROCREF_BENCH_PLANT_SLOW") != nullptr;
  return on;
}

// The names are what launch_profile.py looks for.
[[gnu::noinline]] hipError_t profile_launch_once(hipStream_t stream, int argument) {
  if (planted_slow()) {
    volatile uint64_t spin = 0;
    for (int i = 0; i < 400; ++i) spin = spin + static_cast<uint64_t>(i);
  }
  hipLaunchKernelGGL(profiled_kernel, dim3(1), dim3(1), 0, stream, argument);
  return hipGetLastError();
}

[[gnu::noinline]] hipError_t profile_sync_once(hipStream_t stream) { return hipStreamSynchronize(stream); }

void Hip_LaunchProfile(benchmark::State& state) {
  hipStream_t stream = nullptr;
  if (hipStreamCreate(&stream) != hipSuccess) {
    state.SkipWithError("hipStreamCreate failed");
    return;
  }
  // Warm-up outside the counted functions: the kernel's first launch makes its kernel object.
  hipLaunchKernelGGL(profiled_kernel, dim3(1), dim3(1), 0, stream, 0);
  (void)hipStreamSynchronize(stream);
  int argument = 0;
  for (auto _ : state) {
    if (profile_launch_once(stream, ++argument) != hipSuccess || profile_sync_once(stream) != hipSuccess) {
      state.SkipWithError("launch failed");
      break;
    }
  }
  (void)hipStreamDestroy(stream);
}
// Exactly kProfileLaunches iterations, so per-launch figures divide by a known count.
BENCHMARK(Hip_LaunchProfile)->Iterations(kProfileLaunches)->UseRealTime();

}  // namespace
