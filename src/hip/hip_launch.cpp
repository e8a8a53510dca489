// hip/hip_launch.cpp - kernel launch: configuration checks, then one kernel command (HIP-LNC-*).
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/kernel_abi.h"
#include "common/trace.h"
#include "hip/hip_runtime.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace rocref::hip::detail {
namespace {

std::mutex g_kernels_mutex;
std::unordered_map<const void*, ArrayLauncher> g_launchers;

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

dim3 thread_idx() noexcept { return to_dim3(kernel_abi::current().work_item_id); }
dim3 block_idx() noexcept { return to_dim3(kernel_abi::current().work_group_id); }
dim3 block_dim() noexcept { return to_dim3(kernel_abi::current().work_group_size); }
dim3 grid_dim() noexcept { return to_dim3(kernel_abi::current().grid_groups); }
void sync_threads() { kernel_abi::work_group_barrier(); }
void* dynamic_shared() noexcept { return kernel_abi::current().group_segment; }

uint64_t register_entry(KernelEntry entry, const char* signature) {
  return kernel_abi::register_kernel(signature, entry);
}

void remember_kernel(const void* function, ArrayLauncher launcher) {
  std::lock_guard lock(g_kernels_mutex);
  g_launchers.emplace(function, launcher);
}

hipError_t launch(const LaunchRequest& r) {
  ROCREF_TRACE_SPAN(trace::Layer::Hip, "hipLaunchKernel",
                    std::string(r.name) + " grid=" + std::to_string(r.grid.x) + "x" + std::to_string(r.grid.y) + "x" + std::to_string(r.grid.z) +
                        " block=" + std::to_string(r.block.x) + "x" + std::to_string(r.block.y) + "x" +
                        std::to_string(r.block.z));
  hipError_t error = hipSuccess;
  clr::Device* d = device(&error);
  if (d == nullptr) return result(error);
  if (!valid_configuration(d->info(), r.grid, r.block)) return result(hipErrorInvalidConfiguration);
  if (r.shared_bytes > d->info().group_segment_size) return result(hipErrorInvalidValue);
  ihipStream_t* s = resolve_stream(r.stream);
  if (s == nullptr) return result(hipErrorInvalidResourceHandle);
  clr::VirtualGpu* gpu = virtual_gpu(s, &error);
  if (gpu == nullptr) return result(error);
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
  rocref::hip::detail::ArrayLauncher launcher = nullptr;
  {
    std::lock_guard lock(rocref::hip::detail::g_kernels_mutex);
    auto it = rocref::hip::detail::g_launchers.find(function_address);
    if (it != rocref::hip::detail::g_launchers.end()) launcher = it->second;
  }
  if (launcher == nullptr) return result(hipErrorInvalidDeviceFunction);
  return launcher(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream);
}
