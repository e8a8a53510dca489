// hsa/api_init.cpp - C entry points: hsa_init, hsa_shut_down, hsa_system_get_info, hsa_status_string.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstring>

#include "common/log.h"

#include "hsa/info_value.h"
#include "hsa/runtime.h"

using rocref::hsa::put_info;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

extern "C" {

hsa_status_t HSA_API hsa_init() {
  const hsa_status_t status = Runtime::acquire();
  ROCREF_LOG(status == HSA_STATUS_SUCCESS ? rocref::log::kInfo : rocref::log::kError, "hsa", "hsa_init -> 0x%x",
             unsigned(status));
  return status;
}

hsa_status_t HSA_API hsa_shut_down() {
  const hsa_status_t status = Runtime::release();
  ROCREF_LOG(rocref::log::kInfo, "hsa", "hsa_shut_down -> 0x%x", unsigned(status));
  return status;
}

hsa_status_t HSA_API hsa_system_get_info(hsa_system_info_t attribute, void* value) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (static_cast<uint32_t>(attribute)) {
    case HSA_SYSTEM_INFO_VERSION_MAJOR: return put_info<uint16_t>(value, 1);
    case HSA_SYSTEM_INFO_VERSION_MINOR: return put_info<uint16_t>(value, 1);
    // HSA-SYS-2: one model clock for timestamps, timeouts and profiling.
    case HSA_SYSTEM_INFO_TIMESTAMP: return put_info<uint64_t>(value, rt->timestamp());
    case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY: return put_info<uint64_t>(value, rt->timestamp_frequency());
    case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT: return put_info<uint64_t>(value, UINT64_MAX);
    case HSA_SYSTEM_INFO_ENDIANNESS: return put_info<hsa_endianness_t>(value, HSA_ENDIANNESS_LITTLE);
    case HSA_SYSTEM_INFO_MACHINE_MODEL: return put_info<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_SYSTEM_INFO_EXTENSIONS:  // HSA-IMG-1: the image extension, as in ROCR
      std::memset(value, 0, 128);
      static_cast<uint8_t*>(value)[HSA_EXTENSION_IMAGES / 8] |= 1u << (HSA_EXTENSION_IMAGES % 8);
      return HSA_STATUS_SUCCESS;
    case HSA_AMD_SYSTEM_INFO_BUILD_VERSION: return put_info<const char*>(value, "rocref");
    case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: return put_info<bool>(value, false);
    case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: return put_info<bool>(value, false);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// hsa.h lists NOT_INITIALIZED for this call too; ROCR checks it, so do we.
hsa_status_t HSA_API hsa_status_string(hsa_status_t status, const char** status_string) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (status_string == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const char* text = nullptr;
  switch (static_cast<uint32_t>(status)) {
    case HSA_STATUS_SUCCESS: text = "HSA_STATUS_SUCCESS: The function has been executed successfully."; break;
    case HSA_STATUS_INFO_BREAK: text = "HSA_STATUS_INFO_BREAK: A traversal over a list of elements has been interrupted by the application before completing."; break;
    case HSA_STATUS_ERROR: text = "HSA_STATUS_ERROR: A generic error has occurred."; break;
    case HSA_STATUS_ERROR_INVALID_ARGUMENT: text = "HSA_STATUS_ERROR_INVALID_ARGUMENT: One of the actual arguments does not meet a precondition stated in the documentation of the corresponding formal argument."; break;
    case HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: text = "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: The requested queue creation is not valid."; break;
    case HSA_STATUS_ERROR_INVALID_ALLOCATION: text = "HSA_STATUS_ERROR_INVALID_ALLOCATION: The requested allocation is not valid."; break;
    case HSA_STATUS_ERROR_INVALID_AGENT: text = "HSA_STATUS_ERROR_INVALID_AGENT: The agent is invalid."; break;
    case HSA_STATUS_ERROR_INVALID_REGION: text = "HSA_STATUS_ERROR_INVALID_REGION: The memory region is invalid."; break;
    case HSA_STATUS_ERROR_INVALID_SIGNAL: text = "HSA_STATUS_ERROR_INVALID_SIGNAL: The signal is invalid."; break;
    case HSA_STATUS_ERROR_INVALID_QUEUE: text = "HSA_STATUS_ERROR_INVALID_QUEUE: The queue is invalid."; break;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES: text = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources."; break;
    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: text = "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: The AQL packet is malformed."; break;
    case HSA_STATUS_ERROR_RESOURCE_FREE: text = "HSA_STATUS_ERROR_RESOURCE_FREE: An error has been detected while releasing a resource."; break;
    case HSA_STATUS_ERROR_NOT_INITIALIZED: text = "HSA_STATUS_ERROR_NOT_INITIALIZED: An API other than hsa_init has been invoked while the reference count of the HSA runtime is zero."; break;
    case HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: text = "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: The maximum reference count for the object has been reached."; break;
    case HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: text = "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: The arguments passed to a functions are not compatible."; break;
    case HSA_STATUS_ERROR_INVALID_INDEX: text = "HSA_STATUS_ERROR_INVALID_INDEX: The index is invalid."; break;
    case HSA_STATUS_ERROR_INVALID_ISA: text = "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid."; break;
    case HSA_STATUS_ERROR_EXCEPTION: text = "HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception."; break;
    case HSA_STATUS_ERROR_FATAL: text = "HSA_STATUS_ERROR_FATAL: A fatal error has occurred."; break;
    case HSA_STATUS_ERROR_INVALID_MEMORY_POOL: text = "HSA_STATUS_ERROR_INVALID_MEMORY_POOL: The memory pool is invalid."; break;
    case HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: text = "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent accessed memory beyond the maximum legal address."; break;
    case HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: text = "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: The agent executed an illegal shader instruction."; break;
    case HSA_STATUS_ERROR_MEMORY_FAULT: text = "HSA_STATUS_ERROR_MEMORY_FAULT: The agent attempted to access an inaccessible address."; break;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *status_string = text;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
