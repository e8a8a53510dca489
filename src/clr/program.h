// clr/program.h - a code object loaded for the device, and its kernels' argument layout (ROCclr's
// roc::Program / roc::Kernel role).
//
// Loading goes through the HSA loader API only (code object reader, executable, freeze); the
// kernels' argument layout comes from the code object's metadata note (common/
// code_object_metadata.h), their kernel objects and segment sizes from the executable's
// symbols. build_kernargs lays out one dispatch's kernarg segment as ROCclr 5.2.3 does for
// code object v4: explicit arguments at their metadata offsets, hidden arguments filled
// (spec/clr.md CLR-KARG-*).
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/code_object_metadata.h"
#include "common/expected.h"

namespace rocref::clr {

class Device;

struct KernelInfo {
  std::string name;
  uint64_t kernel_object = 0;
  uint32_t kernarg_size = 0;
  uint32_t kernarg_align = 16;
  uint32_t group_segment_size = 0;  // static LDS; a launch's dynamic bytes add to it
  uint32_t private_segment_size = 0;
  uint32_t max_flat_workgroup_size = 0;  // 0: not stated
  std::vector<code_object::KernelArg> args;
  // The explicit (non-hidden) arguments: what kernelParams points at, in order.
  size_t explicit_count() const;
};

class Program {
 public:
  // INVALID_CODE_OBJECT, INCOMPATIBLE_ARGUMENTS etc. from the loader, or INVALID_CODE_OBJECT
  // when the metadata note is missing or malformed.
  static Expected<std::unique_ptr<Program>, hsa_status_t> load(Device& device, const std::vector<uint8_t>& image);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  const KernelInfo* kernel(const std::string& name) const;
  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  // The variable's address inside the loaded image and its size; false when there is none.
  bool variable(const std::string& name, void** address, size_t* size) const;

 private:
  Program() = default;
  Device* device_ = nullptr;
  hsa_code_object_reader_t reader_{0};
  hsa_executable_t executable_{0};
  std::vector<KernelInfo> kernels_;
};

// One dispatch's kernarg segment (kernarg_size bytes). Explicit arguments come from `params`
// (one pointer per explicit argument, hipLaunchKernel's kernelParams) or, when `params` is null,
// from `packed` (hipModuleLaunchKernel's HIP_LAUNCH_PARAM_BUFFER_POINTER: the explicit arguments
// already at their offsets, `packed_size` bytes). False when neither covers the arguments.
bool build_kernargs(const KernelInfo& kernel, void** params, const void* packed, size_t packed_size,
                    std::vector<uint8_t>* out);

}  // namespace rocref::clr
