// hsa/api_memory_amd.cpp - C entry points of hsa_ext_amd.h beside allocation: deallocation
// callbacks (HSA-MEM-10) and migration between pools (HSA-MEM-11).
//
// ROCR 5.2.3 implements no migration (its MemoryRegion::CanMigrate and Migrate answer
// OUT_OF_RESOURCES after the argument checks); neither does the model's driver, so these
// entry points give ROCR's answers.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hsa/memory_region.h"
#include "hsa/runtime.h"

using rocref::hsa::Runtime;
using rocref::hsa::runtime;

extern "C" {

hsa_status_t HSA_API hsa_amd_register_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback,
                                                            void* user_data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->add_deallocation_callback(ptr, callback, user_data);
}

hsa_status_t HSA_API hsa_amd_deregister_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rt->remove_deallocation_callback(ptr, callback);
}

hsa_status_t HSA_API hsa_amd_memory_migrate(const void* ptr, hsa_amd_memory_pool_t memory_pool, uint32_t flags) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr == nullptr || flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (rt->find_region(memory_pool.handle) == nullptr) {
    return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  }
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                                     hsa_amd_memory_pool_t dst_memory_pool, bool* result) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (rt->find_region(src_memory_pool.handle) == nullptr || rt->find_region(dst_memory_pool.handle) == nullptr) {
    return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  }
  *result = false;
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

}  // extern "C"
