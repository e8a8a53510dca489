// hip/hip_memory_host.cpp - host registration, mapped host pointers and pointer attributes (HIP-MEM-8, HIP-MEM-9).
//
// hipHostMalloc memory comes from the fine-grained system pool, which every GPU reaches at the
// host address. Registered memory is locked through HSA for every GPU (HIP-MEM-16): its device
// pointer is the agent pointer the lock gave, which a thunk may place apart from the host range
// (libhsakmt 5.2.3 maps each registration at its own GPU address; rocref's thunk at the CPU one).
#include <cstring>

#include "clr/memory.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::clr::Allocation;
using rocref::clr::MemoryKind;
using rocref::clr::MemoryRegistry;
using rocref::hip::result;

hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags) {
  constexpr unsigned kKnown = hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory;
  if (hostPtr == nullptr || sizeBytes == 0 || (flags & ~kKnown) != 0) return result(hipErrorInvalidValue);
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  if (MemoryRegistry::instance().overlaps(hostPtr, sizeBytes)) return result(hipErrorHostMemoryAlreadyRegistered);
  const auto pin = rocref::hip::hip_mutant_active(rocref::hip::HipMutant::HostRegisterNotPinned)
                       ? rocref::clr::Pin::No
                       : rocref::clr::Pin::Yes;
  if (rocref::clr::register_host_memory(hostPtr, sizeBytes, flags, pin) != HSA_STATUS_SUCCESS) {
    return result(hipErrorHostMemoryAlreadyRegistered);
  }
  return hipSuccess;
}

hipError_t hipHostUnregister(void* hostPtr) {
  if (hostPtr == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(hostPtr);
  if (!found || found->base != hostPtr || found->kind != MemoryKind::Registered) {
    return result(hipErrorHostMemoryNotRegistered);
  }
  if (hipError_t e = rocref::hip::synchronize_all(); e != hipSuccess) return result(e);
  rocref::clr::release_memory(hostPtr);
  return hipSuccess;
}

hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags) {
  if (devPtr == nullptr || hstPtr == nullptr || flags != 0) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(hstPtr);
  if (!found || (found->kind != MemoryKind::Host && found->kind != MemoryKind::Registered)) {
    return result(hipErrorInvalidValue);
  }
  // The same offset into the range the GPUs reach.
  *devPtr = found->agent_base == nullptr ? hstPtr
                                         : static_cast<char*>(found->agent_base) +
                                               (static_cast<char*>(hstPtr) - static_cast<char*>(found->base));
  return hipSuccess;
}

hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr) {
  if (flagsPtr == nullptr || hostPtr == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(hostPtr);
  if (!found || (found->kind != MemoryKind::Host && found->kind != MemoryKind::Registered)) {
    return result(hipErrorInvalidValue);
  }
  *flagsPtr = found->flags;
  return hipSuccess;
}

namespace {

hipMemoryType memory_type(const Allocation& a) {
  return a.kind == MemoryKind::Device ? hipMemoryTypeDevice : hipMemoryTypeHost;
}

}  // namespace

hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  if (attributes == nullptr || ptr == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found) return result(hipErrorInvalidValue);  // memory HIP did not allocate or register
  std::memset(attributes, 0, sizeof *attributes);
  attributes->memoryType = memory_type(*found);
  attributes->device = found->device;  // the device whose pool made it
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = found->kind == MemoryKind::Device ? nullptr : const_cast<void*>(ptr);
  attributes->isManaged = found->kind == MemoryKind::Managed ? 1 : 0;
  attributes->allocationFlags = found->flags;
  return hipSuccess;
}

hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t ptr) {
  if (data == nullptr || ptr == nullptr) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(ptr);
  if (!found) return result(hipErrorInvalidValue);
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data) = memory_type(*found); break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<void**>(data) = ptr; break;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
      *static_cast<void**>(data) = found->kind == MemoryKind::Device ? nullptr : ptr;
      break;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<bool*>(data) = true; break;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID:
      *static_cast<unsigned long long*>(data) = reinterpret_cast<uintptr_t>(found->base);
      break;
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<bool*>(data) = found->kind == MemoryKind::Managed; break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<void**>(data) = found->base; break;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(data) = found->size; break;
    case HIP_POINTER_ATTRIBUTE_MAPPED: *static_cast<bool*>(data) = true; break;
    case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: *static_cast<unsigned*>(data) = 3; break;  // read and write
    default: return result(hipErrorInvalidValue);  // the attributes HIP 5.2.3 marks "not supported in HIP"
  }
  return hipSuccess;
}

hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute* attributes, void** data,
                                      hipDeviceptr_t ptr) {
  if (numAttributes == 0 || attributes == nullptr || data == nullptr) return result(hipErrorInvalidValue);
  for (unsigned i = 0; i < numAttributes; ++i) {
    if (hipError_t e = hipPointerGetAttribute(data[i], attributes[i], ptr); e != hipSuccess) return e;
  }
  return hipSuccess;
}

// Managed memory lives in the fine-grained system pool, which the GPU and CPU
// both reach: advice is checked and recorded nowhere, prefetch is a no-op in
// stream order (HIP-MEM-12).
hipError_t hipMemAdvise(const void* dev_ptr, size_t count, hipMemoryAdvise advice, int device) {
  if (dev_ptr == nullptr || count == 0) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(dev_ptr, count);
  if (!found || found->kind != MemoryKind::Managed) return result(hipErrorInvalidValue);
  if (device != hipCpuDeviceId && !rocref::hip::valid_device(device)) return result(hipErrorInvalidDevice);
  switch (advice) {
    case hipMemAdviseSetReadMostly: case hipMemAdviseUnsetReadMostly: case hipMemAdviseSetPreferredLocation:
    case hipMemAdviseUnsetPreferredLocation: case hipMemAdviseSetAccessedBy: case hipMemAdviseUnsetAccessedBy:
    case hipMemAdviseSetCoarseGrain: case hipMemAdviseUnsetCoarseGrain: return hipSuccess;
    default: return result(hipErrorInvalidValue);
  }
}

hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream) {
  if (dev_ptr == nullptr || count == 0) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(dev_ptr, count);
  if (!found || found->kind != MemoryKind::Managed) return result(hipErrorInvalidValue);
  if (device != hipCpuDeviceId && !rocref::hip::valid_device(device)) return result(hipErrorInvalidDevice);
  if (rocref::hip::resolve_stream(stream) == nullptr) return result(hipErrorInvalidHandle);
  return hipSuccess;
}

hipError_t hipMemRangeGetAttribute(void* data, size_t data_size, hipMemRangeAttribute attribute, const void* dev_ptr,
                                   size_t count) {
  if (data == nullptr || data_size == 0 || dev_ptr == nullptr || count == 0) return result(hipErrorInvalidValue);
  auto found = MemoryRegistry::instance().find(dev_ptr, count);
  if (!found || found->kind != MemoryKind::Managed) return result(hipErrorInvalidValue);
  if (data_size < 4) return result(hipErrorInvalidValue);
  int32_t value = 0;
  switch (attribute) {
    case hipMemRangeAttributeReadMostly: value = 0; break;
    case hipMemRangeAttributePreferredLocation: value = hipInvalidDeviceId; break;
    case hipMemRangeAttributeAccessedBy: value = 0; break;
    case hipMemRangeAttributeLastPrefetchLocation: value = hipInvalidDeviceId; break;
    case hipMemRangeAttributeCoherencyMode: value = hipMemRangeCoherencyModeFineGrain; break;
    default: return result(hipErrorInvalidValue);
  }
  std::memcpy(data, &value, sizeof value);
  return hipSuccess;
}

hipError_t hipMemRangeGetAttributes(void** data, size_t* data_sizes, hipMemRangeAttribute* attributes,
                                    size_t num_attributes, const void* dev_ptr, size_t count) {
  if (data == nullptr || data_sizes == nullptr || attributes == nullptr || num_attributes == 0) {
    return result(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < num_attributes; ++i) {
    if (hipError_t e = hipMemRangeGetAttribute(data[i], data_sizes[i], attributes[i], dev_ptr, count); e != hipSuccess) {
      return e;
    }
  }
  return hipSuccess;
}

hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* dev_ptr, size_t length, unsigned int flags) {
  if (dev_ptr == nullptr) return result(hipErrorInvalidValue);
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost && flags != hipMemAttachSingle) {
    return result(hipErrorInvalidValue);
  }
  if (rocref::hip::resolve_stream(stream) == nullptr) return result(hipErrorInvalidHandle);
  auto found = MemoryRegistry::instance().find(dev_ptr, length == 0 ? 1 : length);
  if (!found || found->kind != MemoryKind::Managed) return result(hipErrorInvalidValue);
  return hipSuccess;
}
