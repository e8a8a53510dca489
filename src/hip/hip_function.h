// hip/hip_function.h - every kernel the runtime knows, by host address, and the module objects.
//
// A kernel is known in one of two ways: host-compiled (rocref's kernel
// language: its typed launcher was remembered by a typed launch or query) or
// registered by hipcc's host code (__hipRegisterFunction: the host stub and a
// kernel of a gfx code object) or found in a module loaded with hipModuleLoad*.
// A code-object kernel cannot execute until the GPU model runs gfx9 code:
// its launch fails with hipErrorNoBinaryForGpu (spec/hip.md HIP-LNC-8).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
};

namespace rocref::hip {

// The kernel with this host address, or nullptr.
ihipModuleSymbol_t* find_function(const void* host_function);
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
// code objects; args as hipLaunchKernel's kernelParams.
hipError_t launch_function(ihipModuleSymbol_t& f, dim3 grid, dim3 block, void** args, size_t shared,
                           hipStream_t stream);

}  // namespace rocref::hip
