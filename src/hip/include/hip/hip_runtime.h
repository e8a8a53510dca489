// hip/hip_runtime.h - rocref's HIP kernel language and launch, for host-compiled kernels.
//
// As in HIP-CPU, a __global__ function is an ordinary host function. A launch
// packs the arguments (a KernelArgs record: the function pointer and a tuple
// of the argument values) into the kernarg segment; the registered entry for
// the kernel's signature unpacks them and calls the function once per
// work-item, while the GPU model supplies threadIdx / blockIdx and runs the
// work-items of a work-group as fibers so __syncthreads() works.
// __shared__ is static thread_local: a work-group's fibers share one host
// thread, so they share the variable, as work-items of a group share LDS.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include "hip/hip_runtime_api.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __shared__ static thread_local
#define __constant__
#define __launch_bounds__(...)

namespace rocref::hip::detail {

dim3 thread_idx() noexcept;
dim3 block_idx() noexcept;
dim3 block_dim() noexcept;
dim3 grid_dim() noexcept;
void sync_threads();
void* dynamic_shared() noexcept;

using KernelEntry = void (*)(const void* kernarg);
using ArrayLauncher = hipError_t (*)(const void* function, dim3 grid, dim3 block, void** args, size_t shmem,
                                     hipStream_t stream);

uint64_t register_entry(KernelEntry entry, const char* signature);
void remember_kernel(const void* function, ArrayLauncher launcher);

struct LaunchRequest {
  const char* name;  // the kernel as the program spells it
  uint64_t entry_id;
  const void* function;
  dim3 grid;
  dim3 block;
  size_t shared_bytes;
  hipStream_t stream;
  const void* args;
  size_t args_size;
  size_t args_align;
  void (*copy_args)(void* dst, const void* src);
};
hipError_t launch(const LaunchRequest& request);

template <typename... Params>
struct KernelArgs {
  void (*function)(Params...);
  std::tuple<std::decay_t<Params>...> values;
};

template <typename... Params>
void kernel_entry(const void* kernarg) {
  const auto* k = static_cast<const KernelArgs<Params...>*>(kernarg);
  std::apply(k->function, k->values);
}

template <typename... Params>
void copy_kernel_args(void* dst, const void* src) {
  new (dst) KernelArgs<Params...>(*static_cast<const KernelArgs<Params...>*>(src));
}

template <typename... Params>
uint64_t entry_id() {
  static const uint64_t id = register_entry(&kernel_entry<Params...>, __PRETTY_FUNCTION__);
  return id;
}

template <typename... Params>
hipError_t launch_packed(const char* name, dim3 grid, dim3 block, size_t shmem, hipStream_t stream, const KernelArgs<Params...>& args) {
  static_assert((std::is_trivially_destructible_v<std::decay_t<Params>> && ...),
                "kernel arguments must be trivially destructible, as on a GPU");
  return launch(LaunchRequest{name, entry_id<Params...>(), reinterpret_cast<const void*>(args.function), grid, block, shmem,
                              stream, &args, sizeof args, alignof(KernelArgs<Params...>), &copy_kernel_args<Params...>});
}

template <typename... Params, size_t... I>
hipError_t launch_array(void (*function)(Params...), dim3 grid, dim3 block, void** args, size_t shmem,
                        hipStream_t stream, std::index_sequence<I...>) {
  if (sizeof...(Params) != 0 && args == nullptr) return hipErrorInvalidValue;
  const KernelArgs<Params...> k{function,
                                std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...)};
  return launch_packed("kernel", grid, block, shmem, stream, k);
}

template <typename... Params>
hipError_t launch_untyped(const void* function, dim3 grid, dim3 block, void** args, size_t shmem, hipStream_t stream) {
  auto typed = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(function));
  return launch_array(typed, grid, block, args, shmem, stream, std::index_sequence_for<Params...>{});
}

template <typename... Params, typename... Args>
hipError_t launch_ggl(const char* name, void (*function)(Params...), dim3 grid, dim3 block, size_t shmem, hipStream_t stream,
                      Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
  remember_kernel(reinterpret_cast<const void*>(function), &launch_untyped<Params...>);
  const KernelArgs<Params...> k{function, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  return launch_packed(name, grid, block, shmem, stream, k);
}

}  // namespace rocref::hip::detail

// Typed hipLaunchKernel: the parameter types come from the function itself.
template <typename... Params>
inline hipError_t hipLaunchKernel(void (*function)(Params...), dim3 numBlocks, dim3 dimBlocks, void** args,
                                  size_t sharedMemBytes, hipStream_t stream) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(function),
                                         &::rocref::hip::detail::launch_untyped<Params...>);
  return ::rocref::hip::detail::launch_array(function, numBlocks, dimBlocks, args, sharedMemBytes, stream,
                                             std::index_sequence_for<Params...>{});
}

#define hipLaunchKernelGGL(kernel, numBlocks, dimBlocks, sharedMemBytes, stream, ...)                     \
  ::rocref::hip::detail::launch_ggl(#kernel, (kernel), dim3(numBlocks), dim3(dimBlocks), (sharedMemBytes), (stream), \
                                    ##__VA_ARGS__)

#define threadIdx (::rocref::hip::detail::thread_idx())
#define blockIdx (::rocref::hip::detail::block_idx())
#define blockDim (::rocref::hip::detail::block_dim())
#define gridDim (::rocref::hip::detail::grid_dim())
#define hipThreadIdx_x (threadIdx.x)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockDim_x (blockDim.x)
#define hipGridDim_x (gridDim.x)
#define __syncthreads() (::rocref::hip::detail::sync_threads())
#define HIP_DYNAMIC_SHARED(type, var) type* var = static_cast<type*>(::rocref::hip::detail::dynamic_shared())

// Device atomics: work-groups may run on different host threads.
template <typename T>
inline T atomicAdd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_add(value, std::memory_order_relaxed);
}
template <typename T>
inline T atomicExch(T* address, T value) {
  return std::atomic_ref<T>(*address).exchange(value, std::memory_order_relaxed);
}
template <typename T>
inline T atomicCAS(T* address, T compare, T value) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value, std::memory_order_relaxed);
  return compare;
}
template <typename T>
inline T atomicMax(T* address, T value) {
  std::atomic_ref<T> a(*address);
  T old = a.load(std::memory_order_relaxed);
  while (old < value && !a.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}
