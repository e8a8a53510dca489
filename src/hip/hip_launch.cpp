// hip/hip_launch.cpp - kernel launch: configuration checks, launch bounds, then one kernel command (HIP-LNC-*).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/kernel_abi.h"
#include "common/trace.h"
#include "hip/hip_function.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace rocref::hip {
namespace {

std::mutex g_functions_mutex;
std::unordered_map<const void*, std::unique_ptr<ihipModuleSymbol_t>> g_functions;  // by host address
std::vector<ihipModule_t*> g_modules;
// Bumped (under g_functions_mutex, or after a record's limits changed) whenever what
// launch_target caches may differ: a record made or filled in, a module loaded or
// unloaded, a kernel's attributes set.
std::atomic<uint64_t> g_functions_generation{1};

void bump_generation() { g_functions_generation.fetch_add(1, std::memory_order_acq_rel); }

// What a launch of one host function needs of its record, resolved once: records
// live as long as the process, so the calling thread keeps its last kernel's and
// checks the generation instead of taking g_functions_mutex.
struct LaunchTarget {
  const void* function = nullptr;
  uint64_t generation = 0;
  ihipModuleSymbol_t* record = nullptr;  // find_function's answer (nullptr: not known)
  uint32_t bound = 0;                    // launch_bound
  int max_dynamic_shared = -1;           // the record's hipFuncSetAttribute limit
  bool remembered = false;               // the record has a typed launcher and copier
};
thread_local LaunchTarget t_target;

const LaunchTarget& launch_target(const void* function) {
  const uint64_t generation = g_functions_generation.load(std::memory_order_acquire);
  if (t_target.function == function &&
      (t_target.generation == generation || hip_mutant_active(HipMutant::LaunchTargetUnversioned))) {
    return t_target;
  }
  LaunchTarget t;
  t.function = function;
  t.generation = generation;
  t.bound = launch_bound(function);
  {
    std::lock_guard lock(g_functions_mutex);
    if (auto it = g_functions.find(function); it != g_functions.end()) {
      t.record = it->second.get();
      t.max_dynamic_shared = t.record->max_dynamic_shared;
      t.remembered = t.record->launcher != nullptr && t.record->copier != nullptr;
    }
  }
  t_target = t;
  return t_target;
}

dim3 to_dim3(const kernel_abi::Dim3& d) { return dim3(d.x, d.y, d.z); }

// HIP-LNC-1: every block dimension at least 1, within the agent's limits.
bool valid_configuration(const clr::DeviceInfo& info, dim3 grid, dim3 block) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return false;
  if (block.x == 0 || block.y == 0 || block.z == 0) return false;
  if (block.x > info.max_workgroup_dim[0] || block.y > info.max_workgroup_dim[1] || block.z > info.max_workgroup_dim[2]) {
    return false;
  }
  const uint64_t items = uint64_t{block.x} * block.y * block.z;
  if (items > info.max_workgroup_size) return false;
  // The packet's grid size counts work-items in 32 bits per dimension.
  return uint64_t{grid.x} * block.x <= UINT32_MAX && uint64_t{grid.y} * block.y <= UINT32_MAX &&
         uint64_t{grid.z} * block.z <= UINT32_MAX;
}

}  // namespace

void function_limits_changed() { bump_generation(); }

ihipModuleSymbol_t* find_function(const void* host_function) {
  std::lock_guard lock(g_functions_mutex);
  auto it = g_functions.find(host_function);
  return it == g_functions.end() ? nullptr : it->second.get();
}

ihipModuleSymbol_t* remember_function(const void* host_function, detail::ArrayLauncher launcher,
                                      detail::ParamsCopier copier) {
  std::lock_guard lock(g_functions_mutex);
  auto& slot = g_functions[host_function];
  if (!slot) {
    slot = std::make_unique<ihipModuleSymbol_t>();
    slot->host_function = host_function;
    slot->name = "kernel";
    bump_generation();
  }
  if (slot->launcher == nullptr && launcher != nullptr) {
    slot->launcher = launcher;
    bump_generation();
  }
  if (slot->copier == nullptr && copier != nullptr) {
    slot->copier = copier;
    bump_generation();
  }
  return slot.get();
}

ihipModuleSymbol_t* register_stub(const void* host_function, ihipModule_t* module, const std::string& name) {
  std::lock_guard lock(g_functions_mutex);
  auto& slot = g_functions[host_function];
  if (!slot) slot = std::make_unique<ihipModuleSymbol_t>();
  slot->host_function = host_function;
  slot->module = module;
  slot->name = name;
  bump_generation();
  return slot.get();
}

bool known_module(ihipModule_t* module) {
  std::lock_guard lock(g_functions_mutex);
  for (ihipModule_t* m : g_modules) {
    if (m == module) return true;
  }
  return false;
}

void add_module(ihipModule_t* module) {
  std::lock_guard lock(g_functions_mutex);
  g_modules.push_back(module);
  bump_generation();
}

bool remove_module(ihipModule_t* module) {
  std::lock_guard lock(g_functions_mutex);
  for (auto it = g_modules.begin(); it != g_modules.end(); ++it) {
    if (*it != module) continue;
    g_modules.erase(it);
    bump_generation();
    // Stubs registered from it stay known by address but no longer name a code object.
    for (auto& [address, f] : g_functions) {
      if (f->module == module) f->module = nullptr;
    }
    return true;
  }
  return false;
}

bool known_function(hipFunction_t function) {
  if (function == nullptr) return false;
  std::lock_guard lock(g_functions_mutex);
  for (auto& [address, f] : g_functions) {
    if (f.get() == function) return true;
  }
  for (ihipModule_t* m : g_modules) {
    for (auto& k : m->kernels) {
      if (k.get() == function) return true;
    }
  }
  return false;
}

uint32_t max_threads_per_block(const ihipModuleSymbol_t& f) {
  const auto d = device();
  const uint32_t device_max = d ? (*d)->info().max_workgroup_size : 1024;
  uint32_t bound = f.max_threads;
  if (bound == 0 && f.host_function != nullptr && f.launcher != nullptr) bound = launch_bound(f.host_function);
  return bound != 0 && bound < device_max ? bound : device_max;
}

hipError_t launch_function(ihipModuleSymbol_t& f, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream,
                           const void* packed, size_t packed_size) {
  if (f.launcher != nullptr) return f.launcher(f.host_function, grid, block, args, shared, stream);
  // HIP-LNC-8: a kernel of a gfx code object, checked as any launch, then dispatched as gfx9 code.
  const auto dev = device();
  if (!dev) return dev.error();
  clr::Device* d = *dev;
  if (!valid_configuration(d->info(), grid, block)) return hipErrorInvalidConfiguration;
  if (uint64_t{block.x} * block.y * block.z > max_threads_per_block(f) &&
      !hip_mutant_active(HipMutant::IgnoreLaunchBounds)) {
    return hipErrorLaunchFailure;
  }
  const size_t shared_limit =
      f.max_dynamic_shared >= 0 ? static_cast<size_t>(f.max_dynamic_shared) : d->info().group_segment_size;
  if (shared > shared_limit || f.static_shared + shared > d->info().group_segment_size) return hipErrorInvalidValue;
  if (resolve_stream(stream) == nullptr) return hipErrorInvalidResourceHandle;
  return launch_code_object(f, grid, block, args, packed, packed_size, shared, stream);
}

}  // namespace rocref::hip

namespace rocref::hip::detail {

uint32_t builtin(Builtin which, int axis) noexcept {
  const kernel_abi::WorkItemContext& state = kernel_abi::current();
  const kernel_abi::Dim3& d = which == Builtin::ThreadIdx  ? state.work_item_id
                              : which == Builtin::BlockIdx ? state.work_group_id
                              : which == Builtin::BlockDim ? state.work_group_size
                                                           : state.grid_groups;
  return axis == 0 ? d.x : axis == 1 ? d.y : d.z;
}

dim3 thread_idx() noexcept { return to_dim3(kernel_abi::current().work_item_id); }
dim3 block_idx() noexcept { return to_dim3(kernel_abi::current().work_group_id); }
dim3 block_dim() noexcept { return to_dim3(kernel_abi::current().work_group_size); }
dim3 grid_dim() noexcept { return to_dim3(kernel_abi::current().grid_groups); }
void sync_threads() { kernel_abi::work_group_barrier(); }
void* dynamic_shared() noexcept { return kernel_abi::current().group_segment; }

uint64_t register_entry(KernelEntry entry, const char* signature) {
  return kernel_abi::register_kernel(signature, entry);
}

void remember_kernel(const void* function, ArrayLauncher launcher, ParamsCopier copier) {
  // Every typed launch asks; only the kernel's first one finds something to record.
  if (launch_target(function).remembered) return;
  remember_function(function, launcher, copier);
}

void free_kernel_params(void** params) {
  if (params != nullptr) ::operator delete(static_cast<void*>(params), std::align_val_t{kParamsAlign});
}

hipError_t launch(const LaunchRequest& r) {
  ROCREF_TRACE_SPAN(trace::Layer::Hip, "hipLaunchKernel",
                    std::string(r.name) + " grid=" + std::to_string(r.grid.x) + "x" + std::to_string(r.grid.y) + "x" + std::to_string(r.grid.z) +
                        " block=" + std::to_string(r.block.x) + "x" + std::to_string(r.block.y) + "x" +
                        std::to_string(r.block.z));
  const auto dev = device();
  if (!dev) return result(dev.error());
  clr::Device* d = *dev;
  if (!valid_configuration(d->info(), r.grid, r.block)) return result(hipErrorInvalidConfiguration);
  // HIP-LNC-5: more work-items per block than the kernel's __launch_bounds__ is a launch failure.
  const uint64_t threads = uint64_t{r.block.x} * r.block.y * r.block.z;
  const LaunchTarget& target = launch_target(r.function);
  if (const uint32_t bound = target.bound;
      bound != 0 && threads > bound && !hip_mutant_active(HipMutant::IgnoreLaunchBounds)) {
    return result(hipErrorLaunchFailure);
  }
  const size_t shared_limit = target.record != nullptr && target.max_dynamic_shared >= 0
                                  ? static_cast<size_t>(target.max_dynamic_shared)
                                  : d->info().group_segment_size;
  if (r.shared_bytes > shared_limit) return result(hipErrorInvalidValue);
  ihipStream_t* s = resolve_stream(r.stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  if (capturing(s)) {
    // HIP-GRAPH-3: a kernel node with its own copy of the arguments.
    const hipKernelNodeParams node{r.block, nullptr, const_cast<void*>(r.function), r.grid, r.params,
                                   static_cast<unsigned>(r.shared_bytes)};
    return result(capture_node(
        s,
        [](hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t count, const void* p) {
          return hipGraphAddKernelNode(n, g, deps, count, static_cast<const hipKernelNodeParams*>(p));
        },
        &node));
  }
  const auto vgpu = virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  clr::VirtualGpu* gpu = *vgpu;
  clr::KernelDispatch dispatch;
  dispatch.kernel_id = r.entry_id;
  dispatch.name = r.name;
  dispatch.grid_groups = {r.grid.x, r.grid.y, r.grid.z};
  dispatch.block = {r.block.x, r.block.y, r.block.z};
  dispatch.dynamic_group_bytes = static_cast<uint32_t>(r.shared_bytes);
  dispatch.args = r.args;
  dispatch.args_size = r.args_size;
  dispatch.args_align = r.args_align;
  dispatch.copy_args = r.copy_args;
  return result(from_hsa(gpu->launch(dispatch)));
}

}  // namespace rocref::hip::detail

hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                           size_t sharedMemBytes, hipStream_t stream) {
  ihipModuleSymbol_t* f = rocref::hip::find_function(function_address);
  if (f == nullptr) return result(hipErrorInvalidDeviceFunction);
  return result(rocref::hip::launch_function(*f, numBlocks, dimBlocks, args, sharedMemBytes, stream));
}

hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                              size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent,
                              int flags) {
  (void)flags;  // hipExtAnyOrderLaunch: a stream of the model runs in order anyway
  ihipModuleSymbol_t* f = rocref::hip::find_function(function_address);
  if (f == nullptr) return result(hipErrorInvalidDeviceFunction);
  if (startEvent != nullptr) {
    if (hipError_t e = hipEventRecord(startEvent, stream); e != hipSuccess) return e;
  }
  if (hipError_t e = rocref::hip::launch_function(*f, numBlocks, dimBlocks, args, sharedMemBytes, stream); e != hipSuccess) {
    return result(e);
  }
  if (stopEvent != nullptr) return hipEventRecord(stopEvent, stream);
  return hipSuccess;
}

hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX, void** kernelParams,
                                      unsigned int sharedMemBytes, hipStream_t stream) {
  ihipModuleSymbol_t* function = rocref::hip::find_function(f);
  if (function == nullptr) return result(hipErrorInvalidDeviceFunction);
  // Every block of a cooperative grid must be resident at once (grid-wide sync).
  int per_cu = 0;
  const int block = static_cast<int>(blockDimX.x * blockDimX.y * blockDimX.z);
  if (hipError_t e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, f, block, sharedMemBytes); e != hipSuccess) {
    return e;
  }
  const uint64_t resident = uint64_t(per_cu) * rocref::hip::device().value()->info().compute_units;
  if (uint64_t{gridDim.x} * gridDim.y * gridDim.z > resident) return result(hipErrorCooperativeLaunchTooLarge);
  return result(rocref::hip::launch_function(*function, gridDim, blockDimX, kernelParams, sharedMemBytes, stream));
}

// The call configuration stack: hipcc's host stubs push with <<<>>> and pop
// in the stub; hipConfigureCall / hipSetupArgument / hipLaunchByPtr are the
// older spelling of the same sequence.
namespace {

struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
  std::vector<uint8_t> arguments;  // hipSetupArgument's bytes
};
thread_local std::vector<CallConfiguration> t_configurations;

}  // namespace

hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream) {
  t_configurations.push_back(CallConfiguration{gridDim, blockDim, sharedMem, stream, {}});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, hipStream_t* stream) {
  if (t_configurations.empty()) return result(hipErrorMissingConfiguration);
  const CallConfiguration& c = t_configurations.back();
  if (gridDim != nullptr) *gridDim = c.grid;
  if (blockDim != nullptr) *blockDim = c.block;
  if (sharedMem != nullptr) *sharedMem = c.shared;
  if (stream != nullptr) *stream = c.stream;
  t_configurations.pop_back();
  return hipSuccess;
}

hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream) {
  return __hipPushCallConfiguration(gridDim, blockDim, sharedMem, stream);
}

hipError_t hipSetupArgument(const void* arg, size_t size, size_t offset) {
  if (t_configurations.empty()) return result(hipErrorMissingConfiguration);
  if (arg == nullptr && size != 0) return result(hipErrorInvalidValue);
  std::vector<uint8_t>& bytes = t_configurations.back().arguments;
  if (bytes.size() < offset + size) bytes.resize(offset + size);
  if (size != 0) std::memcpy(bytes.data() + offset, arg, size);
  return hipSuccess;
}

hipError_t hipLaunchByPtr(const void* func) {
  if (t_configurations.empty()) return result(hipErrorMissingConfiguration);
  CallConfiguration c = std::move(t_configurations.back());
  t_configurations.pop_back();
  ihipModuleSymbol_t* f = rocref::hip::find_function(func);
  if (f == nullptr) return result(hipErrorInvalidDeviceFunction);
  if (f->launcher != nullptr && !c.arguments.empty()) {
    // A host-compiled kernel takes kernelParams; the packed buffer has no layout
    // the runtime knows, so only parameterless kernels launch this way.
    return result(hipErrorNotSupported);
  }
  // A code-object kernel: hipSetupArgument's offsets are the metadata's (CLR-KARG-1).
  return result(rocref::hip::launch_function(*f, c.grid, c.block, nullptr, c.shared, c.stream, c.arguments.data(),
                                             c.arguments.size()));
}
