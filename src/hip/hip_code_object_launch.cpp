// hip/hip_code_object_launch.cpp - code-object kernels: the module's loaded program, kernargs, the dispatch
// (HIP-LNC-8).
//
// hipcc's fat binaries are registered from static constructors, before the device is open,
// so a module's code object is loaded through the command layer on first use (a launch, a
// symbol); hipModuleLoad* loads at once. A launch lays out the kernarg segment from the
// code object's metadata (clr::build_kernargs) and dispatches the kernel object on the
// stream's queue, as any other kernel command.
#include <cstring>
#include <mutex>
#include <new>

#include "common/trace.h"
#include "hip/hip_capture.h"
#include "hip/hip_function.h"
#include "hip/hip_hostcall.h"
#include "hip/hip_state.h"

namespace rocref::hip {
namespace {

std::mutex g_load_mutex;

hipError_t from_load_status(hsa_status_t s) {
  switch (s) {
    case HSA_STATUS_SUCCESS: return hipSuccess;
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: return hipErrorNoBinaryForGpu;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES: return hipErrorOutOfMemory;
    default: return hipErrorInvalidImage;
  }
}

}  // namespace

hipError_t module_program(ihipModule_t* module, clr::Program** program) {
  if (module == nullptr) return hipErrorNoBinaryForGpu;  // a stub whose fat binary had no code for this GPU
  const auto dev = device();
  if (!dev) return dev.error();
  clr::Device* d = *dev;
  std::lock_guard lock(g_load_mutex);
  if (module->program == nullptr) {
    auto loaded = clr::Program::load(*d, module->image);
    if (!loaded) return from_load_status(loaded.error());
    module->program = std::move(loaded.value());
  }
  *program = module->program.get();
  return hipSuccess;
}

hipError_t module_global(ihipModule_t* module, const std::string& name, void** address, size_t* size) {
  clr::Program* program = nullptr;
  if (hipError_t e = module_program(module, &program); e != hipSuccess) return e;
  return program->variable(name, address, size) ? hipSuccess : hipErrorNotFound;
}

hipError_t launch_code_object(ihipModuleSymbol_t& f, dim3 grid, dim3 block, void** args, const void* packed,
                              size_t packed_size, size_t shared, hipStream_t stream) {
  ROCREF_TRACE_SPAN(trace::Layer::Hip, "code-object kernel launch", f.name);
  clr::Program* program = nullptr;
  if (hipError_t e = module_program(f.module, &program); e != hipSuccess) return e;
  const clr::KernelInfo* k = program->kernel(f.name);
  if (k == nullptr) return hipErrorInvalidDeviceFunction;
  ihipStream_t* s = resolve_stream(stream);
  if (s == nullptr) return hipErrorInvalidResourceHandle;
  if (capturing(s)) {
    // HIP-GRAPH-3: a kernel node naming the stub, with its own copy of the arguments.
    if (f.host_function == nullptr || args == nullptr) return hipErrorStreamCaptureUnsupported;
    const hipKernelNodeParams node{block, nullptr, const_cast<void*>(f.host_function),
                                   grid,  args,    static_cast<unsigned>(shared)};
    return capture_node(
        s,
        [](hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t count, const void* p) {
          return hipGraphAddKernelNode(n, g, deps, count, static_cast<const hipKernelNodeParams*>(p));
        },
        &node);
  }
  std::vector<uint8_t> kernargs;
  if (!clr::build_kernargs(*k, args, packed, packed_size, &kernargs)) return hipErrorInvalidValue;
  const auto vgpu = virtual_gpu(s);
  if (!vgpu) return vgpu.error();
  clr::VirtualGpu* gpu = *vgpu;
  // HIP-PRINTF-1: device printf's hostcall buffer.
  if (hipError_t e = fill_hostcall_buffer(gpu->device(), *k, &kernargs); e != hipSuccess) return e;
  clr::KernelDispatch dispatch;
  dispatch.kernel_object = k->kernel_object;
  dispatch.name = f.name.c_str();
  dispatch.grid_groups = {grid.x, grid.y, grid.z};
  dispatch.block = {block.x, block.y, block.z};
  dispatch.static_group_bytes = k->group_segment_size;
  dispatch.dynamic_group_bytes = static_cast<uint32_t>(shared);
  dispatch.private_bytes = k->private_segment_size;
  dispatch.args = kernargs.data();
  dispatch.args_size = kernargs.size();
  dispatch.args_align = k->kernarg_align;
  return from_hsa(gpu->launch(dispatch));
}

void** copy_params(ihipModuleSymbol_t& f, void** args) {
  if (args == nullptr) return nullptr;
  if (f.copier != nullptr) return f.copier(args);
  clr::Program* program = nullptr;
  if (f.module == nullptr || module_program(f.module, &program) != hipSuccess) return nullptr;
  const clr::KernelInfo* k = program->kernel(f.name);
  if (k == nullptr) return nullptr;
  // The layout of detail::copy_kernel_params (freed by free_kernel_params): pointers, a null, then the bytes.
  std::vector<const code_object::KernelArg*> explicit_args;
  for (const auto& a : k->args) {
    if (a.value_kind.rfind("hidden_", 0) != 0) explicit_args.push_back(&a);
  }
  const size_t n = explicit_args.size();
  auto round = [](size_t v) { return (v + detail::kParamsAlign - 1) / detail::kParamsAlign * detail::kParamsAlign; };
  size_t total = round((n + 1) * sizeof(void*));
  for (const auto* a : explicit_args) total += round(a->size);
  auto* block = static_cast<char*>(::operator new (total, std::align_val_t{detail::kParamsAlign}));
  auto** out = reinterpret_cast<void**>(block);
  size_t at = round((n + 1) * sizeof(void*));
  for (size_t i = 0; i < n; ++i) {
    out[i] = block + at;
    std::memcpy(block + at, args[i], explicit_args[i]->size);
    at += round(explicit_args[i]->size);
  }
  out[n] = nullptr;
  return out;
}

}  // namespace rocref::hip
