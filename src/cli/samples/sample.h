// cli/samples/sample.h - HIP sample programs that `rocref run` sends through every layer.
#pragma once

#include <string>
#include <vector>

namespace rocref::samples {

struct SampleResult {
  bool ok = false;
  std::string summary;  // what was checked, or what went wrong
};

struct Sample {
  const char* name;
  const char* description;
  SampleResult (*run)();
};

const std::vector<Sample>& all_samples();

SampleResult run_vector_add();
SampleResult run_reduction();
SampleResult run_stream_pipeline();

}  // namespace rocref::samples
