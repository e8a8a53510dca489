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
//
// The API itself (types, hipError_t, every declaration) is Debian's HIP 5.2.3
// <hip/hip_runtime_api.h>, compiled as host code for the AMD platform; this
// header adds the kernel language a host compiler can give.
#pragma once

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__ 1
#endif

#include <atomic>
#include <chrono>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include <hip/hip_runtime_api.h>
#include <hip/hip_vector_types.h>
#include <hip/channel_descriptor.h>

// host_defines.h made these empty; __shared__ needs one copy per work-group.
#undef __shared__
#define __shared__ static thread_local
#ifndef __align__
#define __align__(x) __attribute__((aligned(x)))
#endif

// __launch_bounds__(max_threads[, min_blocks]): the kernel goes into its own
// ELF section whose name carries the bound, ".rocref_lb.<max>.<min>"; a launch
// reads it back from the section headers of the file holding the function
// (HIP-LNC-5). A bound that is not a literal (a template parameter) is not seen.
#define ROCREF_LB_STR_(x) #x
#define ROCREF_LB_STR(x) ROCREF_LB_STR_(x)
#define ROCREF_LB_1(max) __attribute__((section(".rocref_lb." ROCREF_LB_STR(max) ".0"), noinline))
#define ROCREF_LB_2(max, min) __attribute__((section(".rocref_lb." ROCREF_LB_STR(max) "." ROCREF_LB_STR(min)), noinline))
#define ROCREF_LB_SELECT(_1, _2, impl, ...) impl
#define __launch_bounds__(...) ROCREF_LB_SELECT(__VA_ARGS__, ROCREF_LB_2, ROCREF_LB_1, )(__VA_ARGS__)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(X) X

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
// A copy of a kernelParams array and the argument values it points to, in
// one block freed with free_kernel_params (graph kernel nodes keep one).
using ParamsCopier = void** (*)(void** args);
void free_kernel_params(void** params);
// Makes the kernel known to the untyped API (hipLaunchKernel, hipFuncGetAttributes, ...).
void remember_kernel(const void* function, ArrayLauncher launcher, ParamsCopier copier);


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
  void** params;  // one pointer per argument into `args`: what a captured kernel node copies
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

template <typename... Params, size_t... I>
void param_pointers(const KernelArgs<Params...>& args, void** out, std::index_sequence<I...>) {
  ((out[I] = const_cast<void*>(static_cast<const void*>(&std::get<I>(args.values)))), ...);
  out[sizeof...(Params)] = nullptr;
}

template <typename... Params>
hipError_t launch_packed(const char* name, dim3 grid, dim3 block, size_t shmem, hipStream_t stream, const KernelArgs<Params...>& args) {
  static_assert((std::is_trivially_destructible_v<std::decay_t<Params>> && ...),
                "kernel arguments must be trivially destructible, as on a GPU");
  void* params[sizeof...(Params) + 1];
  param_pointers(args, params, std::index_sequence_for<Params...>{});
  return launch(LaunchRequest{name, entry_id<Params...>(), reinterpret_cast<const void*>(args.function), grid, block, shmem,
                              stream, &args, sizeof args, alignof(KernelArgs<Params...>), &copy_kernel_args<Params...>,
                              params});
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

inline constexpr size_t kParamsAlign = alignof(std::max_align_t);

template <typename... Params>
void** copy_kernel_params(void** args) {
  constexpr size_t n = sizeof...(Params);
  constexpr size_t sizes[] = {sizeof(std::decay_t<Params>)..., 0};
  constexpr size_t aligns[] = {alignof(std::decay_t<Params>)..., 1};
  size_t total = (n + 1) * sizeof(void*);
  for (size_t i = 0; i < n; ++i) total = (total + aligns[i] - 1) / aligns[i] * aligns[i] + sizes[i];
  auto* block = static_cast<char*>(::operator new(total, std::align_val_t{kParamsAlign}));
  auto** out = reinterpret_cast<void**>(block);
  size_t at = (n + 1) * sizeof(void*);
  for (size_t i = 0; i < n; ++i) {
    at = (at + aligns[i] - 1) / aligns[i] * aligns[i];
    std::memcpy(block + at, args[i], sizes[i]);
    out[i] = block + at;
    at += sizes[i];
  }
  out[n] = nullptr;
  return out;
}

template <typename... Params, typename... Args>
hipError_t launch_ggl(const char* name, void (*function)(Params...), dim3 grid, dim3 block, size_t shmem, hipStream_t stream,
                      Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "wrong number of kernel arguments");
  remember_kernel(reinterpret_cast<const void*>(function), &launch_untyped<Params...>, &copy_kernel_params<Params...>);
  const KernelArgs<Params...> k{function, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
  return launch_packed(name, grid, block, shmem, stream, k);
}

}  // namespace rocref::hip::detail

// Typed hipLaunchKernel: the parameter types come from the function itself.
template <typename... Params>
inline hipError_t hipLaunchKernel(void (*function)(Params...), dim3 numBlocks, dim3 dimBlocks, void** args,
                                  size_t sharedMemBytes, hipStream_t stream) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(function),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::rocref::hip::detail::launch_array(function, numBlocks, dimBlocks, args, sharedMemBytes, stream,
                                             std::index_sequence_for<Params...>{});
}

// A statement, as HIP's <<<>>> launch: its error is the thread's last error.
#define hipLaunchKernelGGL(kernel, numBlocks, dimBlocks, sharedMemBytes, stream, ...)                               \
  static_cast<void>(::rocref::hip::detail::launch_ggl(#kernel, (kernel), dim3(numBlocks), dim3(dimBlocks),          \
                                                      (sharedMemBytes), (stream), ##__VA_ARGS__))

// threadIdx, blockIdx, blockDim and gridDim are objects, not macros, so a
// member or parameter of the same name (hipKernelNodeParams::gridDim) stays
// itself; each .x/.y/.z reads the executing work-item's value when converted.
namespace rocref::hip::detail {
enum class Builtin { ThreadIdx, BlockIdx, BlockDim, GridDim };
uint32_t builtin(Builtin which, int axis) noexcept;
template <Builtin B, int Axis>
struct Coordinate {
  operator uint32_t() const noexcept { return builtin(B, Axis); }
};
template <Builtin B>
struct Coordinates {
  Coordinate<B, 0> x;
  Coordinate<B, 1> y;
  Coordinate<B, 2> z;
  operator dim3() const noexcept { return dim3(x, y, z); }
};
}  // namespace rocref::hip::detail

inline constexpr ::rocref::hip::detail::Coordinates<::rocref::hip::detail::Builtin::ThreadIdx> threadIdx{};
inline constexpr ::rocref::hip::detail::Coordinates<::rocref::hip::detail::Builtin::BlockIdx> blockIdx{};
inline constexpr ::rocref::hip::detail::Coordinates<::rocref::hip::detail::Builtin::BlockDim> blockDim{};
inline constexpr ::rocref::hip::detail::Coordinates<::rocref::hip::detail::Builtin::GridDim> gridDim{};
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
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
template <typename T>
inline T atomicMin(T* address, T value) {
  std::atomic_ref<T> a(*address);
  T old = a.load(std::memory_order_relaxed);
  while (value < old && !a.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}
template <typename T>
inline T atomicSub(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_sub(value, std::memory_order_relaxed);
}
template <typename T>
inline T atomicAnd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_and(value, std::memory_order_relaxed);
}
template <typename T>
inline T atomicOr(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_or(value, std::memory_order_relaxed);
}
template <typename T>
inline T atomicXor(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_xor(value, std::memory_order_relaxed);
}
// CUDA's wrapping increment and decrement.
inline unsigned atomicInc(unsigned* address, unsigned limit) {
  std::atomic_ref<unsigned> a(*address);
  unsigned old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, old >= limit ? 0u : old + 1, std::memory_order_relaxed)) {
  }
  return old;
}
inline unsigned atomicDec(unsigned* address, unsigned limit) {
  std::atomic_ref<unsigned> a(*address);
  unsigned old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, (old == 0 || old > limit) ? limit : old - 1, std::memory_order_relaxed)) {
  }
  return old;
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline constexpr int warpSize = 64;  // gfx9 wavefronts

// Integer and fast-math intrinsics of the device library, as host functions.
inline int __popc(unsigned int x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return x == 0 ? 32 : std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1; }
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
// The low 24 bits of each operand, sign-extended (shifted as unsigned: no signed overflow).
inline int __mul24(int x, int y) {
  const int a = static_cast<int>(static_cast<unsigned>(x) << 8) >> 8;
  const int b = static_cast<int>(static_cast<unsigned>(y) << 8) >> 8;
  return static_cast<int>(static_cast<long long>(a) * b);
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xFFFFFFu) * (y & 0xFFFFFFu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline float __fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline long long clock64() { return static_cast<long long>(std::chrono::steady_clock::now().time_since_epoch().count()); }

// Symbols: a __device__ variable is a host global that kernels use in place.
// hip_runtime_api.h's typed symbol overloads pass its address; the runtime
// finds its size in the program's symbol table (spec/hip.md HIP-SYM-1).

// Occupancy and attributes of a host-compiled kernel by its typed address.
template <typename... Params>
inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, void (*kernel)(Params...)) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipFuncGetAttributes(attr, reinterpret_cast<const void*>(kernel));
}
template <typename... Params>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, void (*kernel)(Params...), int blockSize,
                                                               size_t dynSharedMemPerBlk) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void*>(kernel), blockSize,
                                                        dynSharedMemPerBlk);
}
template <typename... Params>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, void (*kernel)(Params...),
                                                    size_t dynSharedMemPerBlk = 0, int blockSizeLimit = 0) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, reinterpret_cast<const void*>(kernel),
                                             dynSharedMemPerBlk, blockSizeLimit);
}

template <typename... Params>
inline hipError_t hipFuncSetAttribute(void (*kernel)(Params...), hipFuncAttribute attr, int value) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <typename... Params>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, void (*kernel)(Params...),
                                                                        int blockSize, size_t dynSharedMemPerBlk,
                                                                        unsigned int flags) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, reinterpret_cast<const void*>(kernel),
                                                                 blockSize, dynSharedMemPerBlk, flags);
}
template <typename... Params>
inline hipError_t hipLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** kernelParams,
                                             unsigned int sharedMemBytes, hipStream_t stream) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, kernelParams,
                                      sharedMemBytes, stream);
}
template <typename... Params>
inline hipError_t hipExtLaunchKernel(void (*kernel)(Params...), dim3 numBlocks, dim3 dimBlocks, void** args,
                                     size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                     hipEvent_t stopEvent, int flags) {
  ::rocref::hip::detail::remember_kernel(reinterpret_cast<const void*>(kernel),
                                         &::rocref::hip::detail::launch_untyped<Params...>,
                                         &::rocref::hip::detail::copy_kernel_params<Params...>);
  return ::hipExtLaunchKernel(reinterpret_cast<const void*>(kernel), numBlocks, dimBlocks, args, sharedMemBytes, stream,
                              startEvent, stopEvent, flags);
}

// Texture fetches (HIP-TEX-1): tex1Dfetch reads element x of a linear texture
// object, or of the object bound to a texture reference; 0 outside it. The GPU
// model has no sampler, so the filtered tex1D/2D/3D forms are not offered.
namespace rocref::hip::detail {
void texture_fetch_1d(hipTextureObject_t texture, int x, void* out, size_t size);
}  // namespace rocref::hip::detail
template <typename T>
inline T tex1Dfetch(hipTextureObject_t texture, int x) {
  T value;
  ::rocref::hip::detail::texture_fetch_1d(texture, x, &value, sizeof value);
  return value;
}
template <typename T, enum hipTextureReadMode Mode>
inline auto tex1Dfetch(const texture<T, hipTextureType1D, Mode>& ref, int x) {
  using Result = std::conditional_t<Mode == hipReadModeElementType, T, float>;
  return tex1Dfetch<Result>(ref.textureObject, x);
}

// Marks a build against rocref's host-compiled kernels (the conformance suite's typed launches).
#define ROCREF_HIP_HOST_KERNELS 1
