// bench/hip/hip_launch_breakdown.cpp - where a HIP launch's time goes, layer by layer.
//
// Runs launch -> hipStreamSynchronize with rocref's trace on and splits each
// launch at the events every layer records on the way: HIP's hipLaunchKernel,
// the command layer's KernelCommand, its write-index load and doorbell store,
// the packet processor's launch, the completion signal's decrement and the end
// of the host's synchronize. Each segment's median over the iterations is a
// counter (ns). Recording an event costs time itself (a string and a lock), so
// the segments add up to more than Hip_LaunchToCompletion's untraced figure;
// their proportions show where the next step is.
#include <benchmark/benchmark.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/trace.h"

namespace {

namespace trace = rocref::trace;

__global__ void breakdown_kernel(int) {}

// The events that bound the segments, in the order one launch records them.
struct Mark {
  trace::Layer layer;
  trace::Phase phase;
  std::string_view name;
};
constexpr std::array<Mark, 7> kMarks = {{
    {trace::Layer::Hip, trace::Phase::Begin, "hipLaunchKernel"},
    {trace::Layer::Clr, trace::Phase::Begin, "KernelCommand"},
    {trace::Layer::Clr, trace::Phase::Instant, "write index loaded"},
    {trace::Layer::Clr, trace::Phase::Instant, "doorbell rung"},
    {trace::Layer::Gpu, trace::Phase::Instant, "packet processor: launch"},
    {trace::Layer::Gpu, trace::Phase::Instant, "completion: signal decremented"},
    {trace::Layer::Clr, trace::Phase::End, "VirtualGpu::synchronize"},
}};
constexpr std::array<const char*, 6> kSegments = {
    "hip_ns",        // HIP: argument packing, stream and function lookup
    "command_ns",    // command layer: kernarg slice, completion signal, packet
    "submit_ns",     // reservation, body, header, doorbell (the AQL producer)
    "processor_ns",  // doorbell -> the packet processor launches (engine wake-up)
    "dispatch_ns",   // launch -> completion signal decremented (grid, release)
    "host_wake_ns",  // completion -> the synchronizing host thread returns
};

int64_t median(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Splits the recorded events into launches (each starts at a hipLaunchKernel begin)
// and collects, per segment, the time between consecutive marks of one launch.
std::array<std::vector<int64_t>, kSegments.size()> segments_of(const std::vector<trace::Event>& events) {
  std::array<std::vector<int64_t>, kSegments.size()> out;
  std::array<int64_t, kMarks.size()> at{};
  size_t next = 0;
  for (const trace::Event& e : events) {
    const Mark& want = kMarks[next];
    if (e.layer != want.layer || e.phase != want.phase || e.name != want.name) continue;
    at[next] = static_cast<int64_t>(e.time_ns);
    if (++next == kMarks.size()) {
      for (size_t s = 0; s < kSegments.size(); ++s) out[s].push_back(at[s + 1] - at[s]);
      next = 0;
    }
  }
  return out;
}

void Hip_LaunchBreakdown(benchmark::State& state) {
  hipStream_t stream = nullptr;
  if (hipStreamCreate(&stream) != hipSuccess) {
    state.SkipWithError("hipStreamCreate failed");
    return;
  }
  hipLaunchKernelGGL(breakdown_kernel, dim3(1), dim3(1), 0, stream, 0);  // first launch makes the kernel object
  (void)hipStreamSynchronize(stream);
  trace::clear();
  trace::enable(true);
  for (auto _ : state) {
    hipLaunchKernelGGL(breakdown_kernel, dim3(1), dim3(1), 0, stream, 0);
    if (hipStreamSynchronize(stream) != hipSuccess) {
      state.SkipWithError("launch failed");
      break;
    }
  }
  trace::enable(false);
  const auto segments = segments_of(trace::snapshot());
  trace::clear();
  (void)hipStreamDestroy(stream);
  if (segments[0].empty()) {
    state.SkipWithError("no launch recorded all of its layers' events");
    return;
  }
  for (size_t s = 0; s < kSegments.size(); ++s) {
    state.counters[kSegments[s]] = static_cast<double>(median(segments[s]));
  }
  state.counters["launches_split"] = static_cast<double>(segments[0].size());
}
// Bounded iterations: every launch keeps its events in memory until the end.
BENCHMARK(Hip_LaunchBreakdown)->UseRealTime()->Iterations(20000);

}  // namespace
