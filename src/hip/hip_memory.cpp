// hip/hip_memory.cpp - allocation, copies and fills (HIP-MEM-* in spec/hip.md).
//
// Device memory comes from the coarse-grained device pool, host and managed
// memory from the fine-grained system pool. Copies and fills run as blit
// kernels on a stream's queue; pageable host memory (not allocated through
// HIP) goes through a pinned staging buffer in chunks, as ROCclr does.
#include <hsa/hsa_ext_amd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "clr/host_call.h"
#include "clr/memory.h"
#include "clr/memory_registry.h"
#include "common/trace.h"
#include "common/trace_checks.h"
#include "hip/hip_mem_pool.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::clr::Allocation;
using rocref::clr::MemoryKind;
using rocref::clr::MemoryRegistry;
using rocref::hip::result;

namespace {

constexpr size_t kStagingBytes = 1 << 20;

}  // namespace

namespace rocref::hip {

hipError_t allocate(void** ptr, size_t size, MemoryKind kind, unsigned flags, const char* what) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, what, "size=" + std::to_string(size));
  if (ptr == nullptr) return hipErrorInvalidValue;
  const auto dev = rocref::hip::hip_mutant_active(rocref::hip::HipMutant::MallocIgnoresCurrentDevice)
                       ? rocref::hip::device(0)
                       : rocref::hip::device();
  if (!dev) return dev.error();
  rocref::clr::Device* d = *dev;
  if (size == 0) {
    *ptr = nullptr;
    return hipSuccess;
  }
  void* memory = nullptr;
  if (hsa_status_t s = rocref::clr::create_memory(*d, kind, size, flags, 0, &memory); s != HSA_STATUS_SUCCESS) {
    return s == HSA_STATUS_ERROR_OUT_OF_RESOURCES ? hipErrorOutOfMemory : rocref::hip::from_hsa(s);
  }
  *ptr = memory;
  return hipSuccess;
}

hipError_t release(void* ptr, bool host, const char* what) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, what, "");
  if (ptr == nullptr) return hipSuccess;
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found || found->base != ptr || found->kind == MemoryKind::Registered ||
      (found->kind == MemoryKind::Host) != host) {
    return hipErrorInvalidValue;
  }
  // HIP-MEM-3: freeing waits for the work that may still use the memory.
  if (hipError_t e = rocref::hip::synchronize_all(); e != hipSuccess) return e;
  pool_forget(ptr);
  return rocref::clr::release_memory(ptr) ? hipSuccess : hipErrorInvalidValue;
}

}  // namespace rocref::hip

namespace {

using rocref::hip::allocate;
using rocref::hip::release;

// HIP-MEM-4: a pointer inside an allocation must not run past its end.
bool range_ok(const void* ptr, size_t size) {
  ROCREF_CHECKED("HIP-MEM-4");
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found) return true;  // host memory HIP does not know about
  const size_t offset = static_cast<const uint8_t*>(ptr) - static_cast<const uint8_t*>(found->base);
  return size <= found->size - offset;
}

// Memory the GPU reaches directly: allocated by HIP (registered host pages are copied as pageable ones).
bool hip_memory(const void* ptr) {
  auto found = MemoryRegistry::instance().find(ptr);
  return found.has_value() && found->kind != MemoryKind::Registered;
}

hipError_t wait(rocref::clr::VirtualGpu* gpu) { return rocref::hip::from_hsa(gpu->synchronize()); }

// Pageable host memory: bounce through a pinned staging buffer, one chunk at a time.
hipError_t staged_copy(rocref::clr::VirtualGpu* gpu, void* dst, const void* src, size_t size, bool to_device) {
  hipError_t error = hipSuccess;
  rocref::clr::Device* d = &gpu->device();
  void* staging = nullptr;
  if (hsa_amd_memory_pool_allocate(d->host_pool(), kStagingBytes, 0, &staging) != HSA_STATUS_SUCCESS) {
    return hipErrorOutOfMemory;
  }
  hsa_agent_t agents[] = {d->gpu()};
  hsa_amd_agents_allow_access(1, agents, nullptr, staging);
  for (size_t done = 0; done < size && error == hipSuccess; done += kStagingBytes) {
    const size_t n = std::min(kStagingBytes, size - done);
    if (to_device) {
      std::memcpy(staging, static_cast<const uint8_t*>(src) + done, n);
      error = rocref::hip::from_hsa(gpu->copy(static_cast<uint8_t*>(dst) + done, staging, n));
      if (error == hipSuccess) error = wait(gpu);
    } else {
      error = rocref::hip::from_hsa(gpu->copy(staging, static_cast<const uint8_t*>(src) + done, n));
      if (error == hipSuccess) error = wait(gpu);
      if (error == hipSuccess) std::memcpy(static_cast<uint8_t*>(dst) + done, staging, n);
    }
  }
  hsa_amd_memory_pool_free(staging);
  return error;
}

// A device allocation `gpu` has no mapping of (another device's, without peer
// access): its device's ordinal, else -1.
int unmapped_owner(const void* ptr, const rocref::clr::VirtualGpu& gpu) {
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found || found->kind != MemoryKind::Device || found->device == gpu.device().ordinal()) return -1;
  rocref::clr::Device* owner = rocref::clr::Device::get(found->device);
  return owner != nullptr && owner->peer_allowed(gpu.device()) ? -1 : found->device;
}

// HIP-PEER-3: a copy between two devices' memory that no one GPU reaches: the
// source's GPU copies into system memory every GPU reaches, the destination's
// GPU copies on from there, one chunk at a time; the stream waits for both.
hipError_t cross_device_copy(rocref::clr::VirtualGpu* from, rocref::clr::VirtualGpu* to, void* dst, const void* src,
                             size_t size) {
  const std::vector<hsa_agent_t>& agents = rocref::clr::Device::gpu_agents();
  void* staging = nullptr;
  if (hsa_amd_memory_pool_allocate(from->device().host_pool(), kStagingBytes, 0, &staging) != HSA_STATUS_SUCCESS) {
    return hipErrorOutOfMemory;
  }
  hsa_amd_agents_allow_access(static_cast<uint32_t>(agents.size()), agents.data(), nullptr, staging);
  hipError_t error = hipSuccess;
  for (size_t done = 0; done < size && error == hipSuccess; done += kStagingBytes) {
    const size_t n = std::min(kStagingBytes, size - done);
    error = rocref::hip::from_hsa(from->copy(staging, static_cast<const uint8_t*>(src) + done, n));
    if (error == hipSuccess) error = wait(from);
    if (error == hipSuccess) error = rocref::hip::from_hsa(to->copy(static_cast<uint8_t*>(dst) + done, staging, n));
    if (error == hipSuccess) error = wait(to);
    if (rocref::hip::hip_mutant_active(rocref::hip::HipMutant::CrossDeviceCopyFirstChunkOnly)) break;
  }
  hsa_amd_memory_pool_free(staging);
  return error;
}

}  // namespace

namespace rocref::hip {

hipError_t copy(void* dst, const void* src, size_t size, hipMemcpyKind kind, hipStream_t stream, bool async) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, async ? "hipMemcpyAsync" : "hipMemcpy",
                    "size=" + std::to_string(size) + " kind=" + std::to_string(kind));
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  if (size == 0) return hipSuccess;
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  if (!range_ok(dst, size) || !range_ok(src, size)) return hipErrorInvalidValue;
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return hipErrorInvalidResourceHandle;
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return vgpu.error();
  rocref::clr::VirtualGpu* gpu = *vgpu;
  const bool dst_known = hip_memory(dst), src_known = hip_memory(src);
  const int dst_owner = unmapped_owner(dst, *gpu), src_owner = unmapped_owner(src, *gpu);
  if (dst_owner >= 0 || src_owner >= 0) {
    // Another device's memory the stream's GPU cannot reach: that device's GPU
    // does its side, after the stream's earlier work; the copy completes before return.
    if (hipError_t e = wait(gpu); e != hipSuccess) return e;
    const auto from = src_owner >= 0 ? owner_virtual_gpu(src_owner) : Expected<clr::VirtualGpu*, hipError_t>(gpu);
    const auto to = dst_owner >= 0 ? owner_virtual_gpu(dst_owner) : Expected<clr::VirtualGpu*, hipError_t>(gpu);
    if (!from) return from.error();
    if (!to) return to.error();
    if (dst_known && src_known && *from != *to) return cross_device_copy(*from, *to, dst, src, size);
    gpu = src_owner >= 0 ? *from : *to;
    async = false;
  }
  if (!dst_known && !src_known) {  // host to host: the CPU copies, after earlier stream work
    if (hipError_t e = wait(gpu); e != hipSuccess) return e;
    std::memmove(dst, src, size);
    return hipSuccess;
  }
  if (dst_known && src_known) {
    if (hipError_t e = rocref::hip::from_hsa(gpu->copy(dst, src, size)); e != hipSuccess) return e;
    return async ? hipSuccess : wait(gpu);
  }
  if (hipError_t e = wait(gpu); e != hipSuccess) return e;  // order behind earlier stream work
  return staged_copy(gpu, dst, src, size, dst_known);
}

hipError_t fill(void* dst, uint32_t pattern, uint32_t pattern_bytes, size_t size, hipStream_t stream, bool async) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, async ? "hipMemsetAsync" : "hipMemset", "size=" + std::to_string(size));
  if (size == 0) return hipSuccess;
  if (dst == nullptr || !MemoryRegistry::instance().find(dst) || !range_ok(dst, size)) return hipErrorInvalidValue;
  if (reinterpret_cast<uintptr_t>(dst) % pattern_bytes != 0 || size % pattern_bytes != 0) return hipErrorInvalidValue;
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return hipErrorInvalidResourceHandle;
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return vgpu.error();
  rocref::clr::VirtualGpu* gpu = *vgpu;
  if (const int owner = unmapped_owner(dst, *gpu); owner >= 0) {  // another device's memory: its GPU fills it
    if (hipError_t e = wait(gpu); e != hipSuccess) return e;
    const auto other = owner_virtual_gpu(owner);
    if (!other) return other.error();
    gpu = *other;
    async = false;
  }
  if (!hip_memory(dst)) {  // registered host pages: the CPU fills them in stream order
    if (hipError_t e = wait(gpu); e != hipSuccess) return e;
    for (size_t i = 0; i < size; i += pattern_bytes) std::memcpy(static_cast<uint8_t*>(dst) + i, &pattern, pattern_bytes);
    return hipSuccess;
  }
  if (hipError_t e = rocref::hip::from_hsa(gpu->fill(dst, pattern, pattern_bytes, size)); e != hipSuccess) return e;
  return async ? hipSuccess : wait(gpu);
}

}  // namespace rocref::hip

using rocref::hip::copy;
using rocref::hip::fill;

hipError_t hipMalloc(void** ptr, size_t size) { return result(allocate(ptr, size, MemoryKind::Device, 0, "hipMalloc")); }

hipError_t hipExtMallocWithFlags(void** ptr, size_t sizeBytes, unsigned int flags) {
  constexpr unsigned kKnown = hipDeviceMallocDefault | hipDeviceMallocFinegrained | hipMallocSignalMemory;
  if ((flags & ~kKnown) != 0) return result(hipErrorInvalidValue);
  // HIP 5.2.3: signal memory is one 64-bit signal value.
  if ((flags & hipMallocSignalMemory) != 0 && sizeBytes != 8) return result(hipErrorInvalidValue);
  // Fine-grained and uncached device memory: the system pool, coherent with the host.
  const MemoryKind kind = flags == hipDeviceMallocDefault ? MemoryKind::Device : MemoryKind::DeviceFineGrained;
  return result(allocate(ptr, sizeBytes, kind, flags, "hipExtMallocWithFlags"));
}

hipError_t hipFree(void* ptr) { return result(release(ptr, false, "hipFree")); }

hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnown = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                              hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;
  if ((flags & ~kKnown) != 0) return result(hipErrorInvalidValue);
  // HIP-MEM-6: coherent and non-coherent exclude each other.
  if ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)) return result(hipErrorInvalidValue);
  return result(allocate(ptr, size, MemoryKind::Host, flags | hipHostMallocMapped, "hipHostMalloc"));
}

hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags) { return hipHostMalloc(ptr, size, flags); }
hipError_t hipMallocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }
hipError_t hipMemAllocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }

hipError_t hipHostFree(void* ptr) { return result(release(ptr, true, "hipHostFree")); }
hipError_t hipFreeHost(void* ptr) { return hipHostFree(ptr); }

hipError_t hipMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return result(hipErrorInvalidValue);
  if (size == 0) return result(hipErrorInvalidValue);
  return result(allocate(devPtr, size, MemoryKind::Managed, flags, "hipMallocManaged"));
}

// Stream-ordered allocation: the memory exists at once (earlier work of the
// stream cannot see it), charged to the device's current pool (hip_mem_pool.cpp);
// the free runs as a host function in stream order.
hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream) {
  return result(rocref::hip::pool_allocate(dev_ptr, size, nullptr, stream));
}

namespace {
void free_in_stream_order(void* ptr) {
  rocref::hip::pool_forget(ptr);
  rocref::clr::release_memory(ptr);
}
}  // namespace

hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream) {
  if (dev_ptr == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(dev_ptr);
  if (!found || found->base != dev_ptr || found->kind != MemoryKind::Device) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  const auto vgpu = rocref::hip::virtual_gpu(s);
  if (!vgpu) return result(vgpu.error());
  rocref::clr::VirtualGpu* gpu = *vgpu;
  return result(
      rocref::hip::from_hsa(rocref::clr::enqueue_host_call(gpu->device(), *gpu, free_in_stream_order, dev_ptr)));
}

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) {
  return result(copy(dst, src, sizeBytes, kind, nullptr, false));
}

hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
  return result(copy(dst, src, sizeBytes, kind, stream, false));
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
  if (ihipStream_t* s = rocref::hip::resolve_stream(stream); rocref::hip::capturing(s)) {
    struct Copy { void* dst; const void* src; size_t size; hipMemcpyKind kind; } c{dst, src, sizeBytes, kind};
    return result(rocref::hip::capture_node(
        s,
        [](hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t count, const void* p) {
          const auto* c = static_cast<const Copy*>(p);
          return hipGraphAddMemcpyNode1D(n, g, deps, count, c->dst, c->src, c->size, c->kind);
        },
        &c));
  }
  return result(copy(dst, src, sizeBytes, kind, stream, true));
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t sizeBytes) {
  return result(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, nullptr, false));
}

hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes) {
  return result(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, nullptr, false));
}

hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
  return result(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, nullptr, false));
}

hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t sizeBytes, hipStream_t stream) {
  return result(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, stream, true));
}

hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
  return result(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream, true));
}

hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
  return result(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, true));
}

hipError_t hipMemset(void* dst, int value, size_t sizeBytes) {
  return result(fill(dst, static_cast<uint8_t>(value), 1, sizeBytes, nullptr, false));
}

hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream) {
  if (ihipStream_t* s = rocref::hip::resolve_stream(stream); rocref::hip::capturing(s)) {
    const hipMemsetParams m{dst, 1, 1, 0, static_cast<unsigned>(static_cast<uint8_t>(value)), sizeBytes};
    return result(rocref::hip::capture_node(
        s,
        [](hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t count, const void* p) {
          return hipGraphAddMemsetNode(n, g, deps, count, static_cast<const hipMemsetParams*>(p));
        },
        &m));
  }
  return result(fill(dst, static_cast<uint8_t>(value), 1, sizeBytes, stream, true));
}

hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count) {
  return result(fill(dest, value, 1, count, nullptr, false));
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count, hipStream_t stream) {
  return result(fill(dest, value, 1, count, stream, true));
}

// 16-bit patterns: the fill kernel repeats pattern_bytes bytes.
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count) {
  if (reinterpret_cast<uintptr_t>(dest) % 2 != 0) return result(hipErrorInvalidValue);
  return result(fill(dest, value, 2, count * 2, nullptr, false));
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count, hipStream_t stream) {
  if (reinterpret_cast<uintptr_t>(dest) % 2 != 0) return result(hipErrorInvalidValue);
  return result(fill(dest, value, 2, count * 2, stream, true));
}

hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  if (reinterpret_cast<uintptr_t>(dst) % 4 != 0) return result(hipErrorInvalidValue);
  return result(fill(dst, static_cast<uint32_t>(value), 4, count * 4, nullptr, false));
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  if (reinterpret_cast<uintptr_t>(dst) % 4 != 0) return result(hipErrorInvalidValue);
  return result(fill(dst, static_cast<uint32_t>(value), 4, count * 4, stream, true));
}

hipError_t hipMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return result(hipErrorInvalidValue);
  const auto dev = rocref::hip::device();
  if (!dev) return result(dev.error());
  rocref::clr::Device* d = *dev;
  *total = d->info().device_memory;
  const size_t used = rocref::clr::device_bytes_in_use(d->ordinal());
  *free = used > *total ? 0 : *total - used;
  return hipSuccess;
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr) {
  if (pbase == nullptr || psize == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(dptr);
  if (!found) return result(hipErrorNotFound);
  *pbase = found->base;
  *psize = found->size;
  return hipSuccess;
}

hipError_t hipMemPtrGetInfo(void* ptr, size_t* size) {
  if (ptr == nullptr || size == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found) return result(hipErrorInvalidValue);
  *size = found->size;
  return hipSuccess;
}
