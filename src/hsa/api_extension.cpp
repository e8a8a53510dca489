// hsa/api_extension.cpp - C entry points: which extensions the runtime has, their names and their
// function tables (HSA-EXT-1), with ROCR 5.2.3's answers.
//
// ROCR's checks differ per call and this file keeps them: extension_supported refuses numbers
// outside the standard and AMD ranges, major_extension_supported does not; an agent "supports"
// every extension version 1.0 when it is a GPU. Tables: the AMD loader (loader_extension.h) at
// major 1; images at the version the image library registered; the finalizer at major 0, the
// version of ROCR's placeholder table (5.2.3 ships no finalizer), whose calls answer
// NOT_INITIALIZED as ROCR's do. No aqlprofile library: its table is HSA_STATUS_ERROR.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ven_amd_aqlprofile.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <algorithm>
#include <cstring>

#include "hsa/agent.h"
#include "hsa/extensions.h"
#include "hsa/loader_extension.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

namespace {

bool known_extension(uint16_t extension) {
  return extension <= HSA_EXTENSION_STD_LAST ||
         (extension >= HSA_AMD_FIRST_EXTENSION && extension <= HSA_AMD_LAST_EXTENSION);
}

template <typename Table>
hsa_status_t copy_table(const Table& table, size_t length, void* out) {
  std::memcpy(out, &table, std::min(sizeof table, length));
  return HSA_STATUS_SUCCESS;
}

// ROCR's placeholder for an extension library that is not there.
template <typename... Args>
hsa_status_t absent(Args...) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}

hsa_ext_finalizer_1_00_pfn_t finalizer_table() {
  hsa_ext_finalizer_1_00_pfn_t t{};
  t.hsa_ext_program_create = absent;
  t.hsa_ext_program_destroy = absent;
  t.hsa_ext_program_add_module = absent;
  t.hsa_ext_program_iterate_modules = absent;
  t.hsa_ext_program_get_info = absent;
  t.hsa_ext_program_finalize = absent;
  return t;
}

// The table length ROCR derives from a (major, minor) pair for hsa_system_get_extension_table.
size_t table_length(uint16_t extension, uint16_t major, uint16_t minor) {
  if (major != 1) return 0;
  switch (extension) {
    case HSA_EXTENSION_IMAGES: return minor == 0 ? sizeof(hsa_ext_images_1_00_pfn_t) : 0;
    case HSA_EXTENSION_FINALIZER: return minor == 0 ? sizeof(hsa_ext_finalizer_1_00_pfn_t) : 0;
    case HSA_EXTENSION_AMD_LOADER:
      switch (minor) {
        case 0: return sizeof(hsa_ven_amd_loader_1_00_pfn_t);
        case 1: return sizeof(hsa_ven_amd_loader_1_01_pfn_t);
        case 2: return sizeof(hsa_ven_amd_loader_1_02_pfn_t);
        case 3: return sizeof(hsa_ven_amd_loader_1_03_pfn_t);
        default: return 0;
      }
    case HSA_EXTENSION_AMD_AQLPROFILE: return minor == 0 ? sizeof(hsa_ven_amd_aqlprofile_1_00_pfn_t) : 0;
    default: return 0;
  }
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_system_extension_supported(uint16_t extension, uint16_t version_major, uint16_t version_minor,
                                                    bool* result) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  if (extension == HSA_EXTENSION_PERFORMANCE_COUNTERS || extension == HSA_EXTENSION_PROFILING_EVENTS) {
    return HSA_STATUS_SUCCESS;
  }
  *result = version_major <= 1 && version_minor == 0;  // against the system's version 1.0
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                                          uint16_t* version_minor, bool* result) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (version_minor == nullptr || result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  if (version_major == 1 && rocref::hsa::has_major_version_1(extension)) {
    *version_minor = 0;
    *result = true;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t version_major,
                                                   uint16_t version_minor, bool* result) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  const Agent* a = rt->find_agent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  *result = a->is_gpu() && version_major <= 1 && version_minor == 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent, uint16_t version_major,
                                                         uint16_t* version_minor, bool* result) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  const Agent* a = rt->find_agent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->is_gpu() && version_major <= 1) {
    if (version_minor == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    *version_minor = 0;
    *result = true;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                          size_t table_length, void* table) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (table == nullptr || table_length == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_AMD_LOADER: {
      if (version_major != 1) return HSA_STATUS_ERROR;
      hsa_ven_amd_loader_1_03_pfn_t loader{};
      rocref::hsa::fill_loader_table(&loader);
      return copy_table(loader, table_length, table);
    }
    case HSA_EXTENSION_IMAGES: {
      hsa_ext_images_1_pfn_t images{};
      if (version_major != 1 || !rocref::hsa::fill_image_table(&images)) return HSA_STATUS_ERROR;
      return copy_table(images, table_length, table);
    }
    case HSA_EXTENSION_FINALIZER:
      if (version_major != 0) return HSA_STATUS_ERROR;
      return copy_table(finalizer_table(), table_length, table);
    default: return HSA_STATUS_ERROR;  // no profiler or aqlprofile library
  }
}

hsa_status_t HSA_API hsa_system_get_extension_table(uint16_t extension, uint16_t version_major, uint16_t version_minor,
                                                    void* table) {
  return hsa_system_get_major_extension_table(extension, version_major,
                                              table_length(extension, version_major, version_minor), table);
}

hsa_status_t HSA_API hsa_extension_get_name(uint16_t extension, const char** name) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (name == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (extension) {
    case HSA_EXTENSION_FINALIZER: *name = "HSA_EXTENSION_FINALIZER"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_IMAGES: *name = "HSA_EXTENSION_IMAGES"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_PERFORMANCE_COUNTERS: *name = "HSA_EXTENSION_PERFORMANCE_COUNTERS"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_PROFILING_EVENTS: *name = "HSA_EXTENSION_PROFILING_EVENTS"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_PROFILER: *name = "HSA_EXTENSION_AMD_PROFILER"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_LOADER: *name = "HSA_EXTENSION_AMD_LOADER"; return HSA_STATUS_SUCCESS;
    case HSA_EXTENSION_AMD_AQLPROFILE: *name = "HSA_EXTENSION_AMD_AQLPROFILE"; return HSA_STATUS_SUCCESS;
    default: *name = "HSA_EXTENSION_INVALID"; return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// The finalizer's entry points: ROCR 5.2.3 has no finalizer library, so they are its placeholders.
hsa_status_t HSA_API hsa_ext_program_create(hsa_machine_model_t, hsa_profile_t, hsa_default_float_rounding_mode_t,
                                            const char*, hsa_ext_program_t*) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}
hsa_status_t HSA_API hsa_ext_program_destroy(hsa_ext_program_t) { return HSA_STATUS_ERROR_NOT_INITIALIZED; }
hsa_status_t HSA_API hsa_ext_program_add_module(hsa_ext_program_t, hsa_ext_module_t) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}
hsa_status_t HSA_API hsa_ext_program_iterate_modules(hsa_ext_program_t,
                                                     hsa_status_t (*)(hsa_ext_program_t, hsa_ext_module_t, void*),
                                                     void*) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}
hsa_status_t HSA_API hsa_ext_program_get_info(hsa_ext_program_t, hsa_ext_program_info_t, void*) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}
hsa_status_t HSA_API hsa_ext_program_finalize(hsa_ext_program_t, hsa_isa_t, int32_t, hsa_ext_control_directives_t,
                                              const char*, hsa_code_object_type_t, hsa_code_object_t*) {
  return HSA_STATUS_ERROR_NOT_INITIALIZED;
}

}  // extern "C"
