// cli/samples/samples.cpp - the list of samples.
#include "cli/samples/sample.h"

namespace rocref::samples {

const std::vector<Sample>& all_samples() {
  static const std::vector<Sample> samples = {
      {"vector-add", "c[i] = a[i] + b[i] over 4096 floats: hipMalloc, hipMemcpy, hipLaunchKernelGGL", run_vector_add},
      {"reduction", "block sums with __shared__ memory and __syncthreads(), then a host sum", run_reduction},
      {"stream-pipeline", "two streams: copy -> kernel -> copy back, ordered across streams by events",
       run_stream_pipeline},
  };
  return samples;
}

}  // namespace rocref::samples
