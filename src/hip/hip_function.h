// hip/hip_function.h - every kernel the runtime knows, by host address, and the module objects.
//
// A kernel is known in one of two ways: host-compiled (rocref's kernel
// language: its typed launcher was remembered by a typed launch or query) or
// registered by hipcc's host code (__hipRegisterFunction: the host stub and a
// kernel of a gfx code object) or found in a module loaded with hipModuleLoad*.
// A code-object kernel runs as gfx9 code: its module's code object is loaded through
// the command layer (clr/program.h) on first use and the launch dispatches its kernel
// object with kernargs laid out from the metadata (spec/hip.md HIP-LNC-8).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clr/program.h"
#include "hip/hip_runtime.h"

struct ihipModule_t;

// hipFunction_t: one kernel.
struct ihipModuleSymbol_t {
  std::string name;
  const void* host_function = nullptr;  // host-compiled kernel or hipcc host stub; null for module kernels
  ::rocref::hip::detail::ArrayLauncher launcher = nullptr;  // host-compiled kernels only
  ::rocref::hip::detail::ParamsCopier copier = nullptr;     // host-compiled kernels only
  ihipModule_t* module = nullptr;       // the code object holding a registered or loaded kernel
  uint32_t max_threads = 0;             // __launch_bounds__ / code-object limit; 0: the device's
  int max_dynamic_shared = -1;          // hipFuncSetAttribute; -1: the device's LDS size
  uint32_t static_shared = 0;           // group segment the kernel declares (code objects)
};

// hipModule_t: a code object (from a fat binary or hipModuleLoad*).
struct ihipModule_t {
  std::vector<uint8_t> image;  // the gfx code object (ELF)
  std::string target;          // e.g. amdgcn-amd-amdhsa--gfx900
  std::vector<std::unique_ptr<ihipModuleSymbol_t>> kernels;
  struct Global {
    std::string name;
    void* device = nullptr;  // device copy, made at load
    size_t size = 0;
  };
  std::vector<Global> globals;
  std::unique_ptr<::rocref::clr::Program> program;  // loaded on first use (module_program)
};

namespace rocref::hip {

// The kernel with this host address, or nullptr.
ihipModuleSymbol_t* find_function(const void* host_function);
// A record's launch limits (max_dynamic_shared) changed: per-thread launch targets look again.
void function_limits_changed();
// Records a host-compiled kernel (idempotent) and returns it.
ihipModuleSymbol_t* remember_function(const void* host_function, detail::ArrayLauncher launcher,
                                      detail::ParamsCopier copier);
// Records a hipcc host stub naming a kernel of `module`.
ihipModuleSymbol_t* register_stub(const void* host_function, ihipModule_t* module, const std::string& name);
bool known_module(ihipModule_t* module);
void add_module(ihipModule_t* module);
bool remove_module(ihipModule_t* module);
bool known_function(hipFunction_t function);

// The kernel's __launch_bounds__ max threads per block read back from the
// section its code lies in (hip_launch_bounds.cpp); 0 when it declared none.
uint32_t launch_bound(const void* host_function);

// The per-block thread limit a launch of `f` is checked against.
uint32_t max_threads_per_block(const ihipModuleSymbol_t& f);

// Launches a known kernel with HIP's checks: configuration, launch bounds,
// code objects; args as hipLaunchKernel's kernelParams, or (code objects, args null)
// `packed`: hipModuleLaunchKernel's HIP_LAUNCH_PARAM_BUFFER_POINTER bytes.
hipError_t launch_function(ihipModuleSymbol_t& f, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream,
                           const void* packed = nullptr, size_t packed_size = 0);

// hip_code_object_launch.cpp: the module's program, loaded once for the device (hipErrorNoBinaryForGpu
// for another ISA, hipErrorInvalidImage for an image the loader refuses).
hipError_t module_program(ihipModule_t* module, clr::Program** program);
// The variable `name` inside the module's loaded image (what its kernels use).
hipError_t module_global(ihipModule_t* module, const std::string& name, void** address, size_t* size);
// A code-object kernel's dispatch after the checks: kernargs from the metadata, the stream's queue.
hipError_t launch_code_object(ihipModuleSymbol_t& f, dim3 grid, dim3 block, void** args, const void* packed,
                              size_t packed_size, size_t shared, hipStream_t stream);
// A copy of kernelParams a graph node keeps: the host-compiled copier, or the code object's argument sizes.
void** copy_params(ihipModuleSymbol_t& f, void** args);

}  // namespace rocref::hip
