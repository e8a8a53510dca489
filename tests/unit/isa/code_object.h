// tests/unit/isa/code_object.h - loads a gfx900 code object (ELF shared object) into host memory for the interpreter.
//
// A minimal loader for tests: PT_LOAD segments at one 64 KiB-aligned base,
// kernel descriptors found by their `<name>.kd` symbols. The kernels used here
// have no relocations (checked), so no relocation processing is needed.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace rocref::test {

class CodeObject {
 public:
  // Empty (ok() false) with `error` set when the file is missing or not a gfx9 code object.
  explicit CodeObject(const std::string& path);
  bool ok() const { return base_ != nullptr; }
  const std::string& error() const { return error_; }
  // Address of the kernel descriptor of `kernel`, 0 if there is none.
  uint64_t kernel_object(const std::string& kernel) const;
  // The loaded image: what a test's memory lets the GPU read.
  uint64_t base() const { return reinterpret_cast<uintptr_t>(base_.get()); }
  size_t size() const { return size_; }

 private:
  struct Free { void operator()(uint8_t* p) const; };
  std::unique_ptr<uint8_t, Free> base_;
  std::map<std::string, uint64_t> kd_;
  std::string error_;
  size_t size_ = 0;
};

// A one-dimensional KERNEL_DISPATCH of `kernel_object` over `grid` work-items in work-groups
// of `work_group`, its segment sizes read from the kernel descriptor.
hsa_kernel_dispatch_packet_t one_dimension_dispatch(uint64_t kernel_object, void* kernarg, uint32_t grid,
                                                    uint16_t work_group);

}  // namespace rocref::test
