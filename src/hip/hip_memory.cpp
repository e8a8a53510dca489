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

#include "clr/memory_registry.h"
#include "common/trace.h"
#include "hip/hip_state.h"

using rocref::clr::Allocation;
using rocref::clr::MemoryKind;
using rocref::clr::MemoryRegistry;
using rocref::hip::result;

namespace {

constexpr size_t kStagingBytes = 1 << 20;
std::atomic<size_t> g_device_bytes{0};

hipError_t allocate(void** ptr, size_t size, MemoryKind kind, const char* what) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, what, "size=" + std::to_string(size));
  if (ptr == nullptr) return hipErrorInvalidValue;
  hipError_t error = hipSuccess;
  rocref::clr::Device* d = rocref::hip::device(&error);
  if (d == nullptr) return error;
  if (size == 0) {
    *ptr = nullptr;
    return hipSuccess;
  }
  const hsa_amd_memory_pool_t pool = kind == MemoryKind::Device ? d->device_pool() : d->host_pool();
  void* memory = nullptr;
  {
    ROCREF_TRACE_SPAN(rocref::trace::Layer::Clr, "Memory::create",
                      kind == MemoryKind::Device ? "coarse-grained device pool" : "fine-grained system pool");
    if (hsa_status_t s = hsa_amd_memory_pool_allocate(pool, size, 0, &memory); s != HSA_STATUS_SUCCESS) {
      return s == HSA_STATUS_ERROR_INVALID_ALLOCATION || s == HSA_STATUS_ERROR_OUT_OF_RESOURCES
                 ? hipErrorOutOfMemory
                 : rocref::hip::from_hsa(s);
    }
  }
  hsa_agent_t agents[] = {d->gpu(), d->cpu()};
  hsa_amd_agents_allow_access(2, agents, nullptr, memory);
  MemoryRegistry::instance().add(Allocation{memory, size, kind});
  if (kind == MemoryKind::Device) g_device_bytes += size;
  *ptr = memory;
  return hipSuccess;
}

hipError_t release(void* ptr, bool host, const char* what) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, what, "");
  if (ptr == nullptr) return hipSuccess;
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found || found->base != ptr || (found->kind == MemoryKind::Host) != host) return hipErrorInvalidValue;
  // HIP-MEM-3: freeing waits for the work that may still use the memory.
  if (hipError_t e = rocref::hip::synchronize_all(); e != hipSuccess) return e;
  MemoryRegistry::instance().remove(ptr);
  if (found->kind == MemoryKind::Device) g_device_bytes -= found->size;
  return rocref::hip::from_hsa(hsa_amd_memory_pool_free(ptr));
}

// HIP-MEM-4: a pointer inside an allocation must not run past its end.
bool range_ok(const void* ptr, size_t size) {
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found) return true;  // host memory HIP does not know about
  const size_t offset = static_cast<const uint8_t*>(ptr) - static_cast<const uint8_t*>(found->base);
  return size <= found->size - offset;
}

bool hip_memory(const void* ptr) { return MemoryRegistry::instance().find(ptr).has_value(); }

hipError_t wait(rocref::clr::VirtualGpu* gpu) { return rocref::hip::from_hsa(gpu->synchronize()); }

// Pageable host memory: bounce through a pinned staging buffer, one chunk at a time.
hipError_t staged_copy(rocref::clr::VirtualGpu* gpu, void* dst, const void* src, size_t size, bool to_device) {
  hipError_t error = hipSuccess;
  rocref::clr::Device* d = rocref::hip::device(&error);
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

hipError_t copy(void* dst, const void* src, size_t size, hipMemcpyKind kind, hipStream_t stream, bool async) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, async ? "hipMemcpyAsync" : "hipMemcpy",
                    "size=" + std::to_string(size) + " kind=" + std::to_string(kind));
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  if (size == 0) return hipSuccess;
  if (dst == nullptr || src == nullptr) return hipErrorInvalidValue;
  if (!range_ok(dst, size) || !range_ok(src, size)) return hipErrorInvalidValue;
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return hipErrorInvalidResourceHandle;
  hipError_t error = hipSuccess;
  rocref::clr::VirtualGpu* gpu = rocref::hip::virtual_gpu(s, &error);
  if (gpu == nullptr) return error;
  const bool dst_known = hip_memory(dst), src_known = hip_memory(src);
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
  if (dst == nullptr || !hip_memory(dst) || !range_ok(dst, size)) return hipErrorInvalidValue;
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return hipErrorInvalidResourceHandle;
  hipError_t error = hipSuccess;
  rocref::clr::VirtualGpu* gpu = rocref::hip::virtual_gpu(s, &error);
  if (gpu == nullptr) return error;
  if (hipError_t e = rocref::hip::from_hsa(gpu->fill(dst, pattern, pattern_bytes, size)); e != hipSuccess) return e;
  return async ? hipSuccess : wait(gpu);
}

}  // namespace

hipError_t hipMalloc(void** ptr, size_t size) { return result(allocate(ptr, size, MemoryKind::Device, "hipMalloc")); }

hipError_t hipFree(void* ptr) { return result(release(ptr, false, "hipFree")); }

hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnown = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined;
  if ((flags & ~kKnown) != 0) return result(hipErrorInvalidValue);
  return result(allocate(ptr, size, MemoryKind::Host, "hipHostMalloc"));
}

hipError_t hipHostFree(void* ptr) { return result(release(ptr, true, "hipHostFree")); }

hipError_t hipMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return result(hipErrorInvalidValue);
  if (size == 0) return result(hipErrorInvalidValue);
  return result(allocate(devPtr, size, MemoryKind::Managed, "hipMallocManaged"));
}

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) {
  return result(copy(dst, src, sizeBytes, kind, nullptr, false));
}

hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
  return result(copy(dst, src, sizeBytes, kind, stream, true));
}

hipError_t hipMemcpyHtoD(void* dst, void* src, size_t sizeBytes) {
  return result(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, nullptr, false));
}

hipError_t hipMemcpyDtoH(void* dst, void* src, size_t sizeBytes) {
  return result(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, nullptr, false));
}

hipError_t hipMemset(void* dst, int value, size_t sizeBytes) {
  return result(fill(dst, static_cast<uint8_t>(value), 1, sizeBytes, nullptr, false));
}

hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream) {
  return result(fill(dst, static_cast<uint8_t>(value), 1, sizeBytes, stream, true));
}

hipError_t hipMemsetD32(void* dst, int value, size_t count) {
  if (reinterpret_cast<uintptr_t>(dst) % 4 != 0) return result(hipErrorInvalidValue);
  return result(fill(dst, static_cast<uint32_t>(value), 4, count * 4, nullptr, false));
}

hipError_t hipMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return result(hipErrorInvalidValue);
  hipError_t error = hipSuccess;
  rocref::clr::Device* d = rocref::hip::device(&error);
  if (d == nullptr) return result(error);
  *total = d->info().device_memory;
  const size_t used = g_device_bytes.load();
  *free = used > *total ? 0 : *total - used;
  return hipSuccess;
}
