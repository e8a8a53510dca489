// hsa/api_isa.cpp - C entry points: instruction set architectures and their wavefronts (HSA-ISA-*).
#include <hsa/hsa.h>

#include "hsa/agent.h"
#include "hsa/isa.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::Isa;
using rocref::hsa::runtime;

extern "C" {

hsa_status_t HSA_API hsa_isa_from_name(const char* name, hsa_isa_t* isa) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (name == nullptr || isa == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Isa* found = rocref::hsa::isa_by_name(name);
  if (found == nullptr) return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  *isa = rocref::hsa::isa_handle(*found);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void* data),
                                            void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Agent* object = runtime()->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (const Isa* isa = object->isa()) return callback(rocref::hsa::isa_handle(*isa), data);
  return HSA_STATUS_SUCCESS;  // a CPU agent has no ISA to list
}

hsa_status_t HSA_API hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* object = rocref::hsa::isa_of(isa);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rocref::hsa::isa_get_info(*object, attribute, value);
}

// Deprecated: one call convention, index 0.
hsa_status_t HSA_API hsa_isa_get_info(hsa_isa_t isa, hsa_isa_info_t attribute, uint32_t index, void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* object = rocref::hsa::isa_of(isa);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (index != 0) return HSA_STATUS_ERROR_INVALID_INDEX;
  return rocref::hsa::isa_get_info(*object, attribute, value);
}

hsa_status_t HSA_API hsa_isa_get_exception_policies(hsa_isa_t isa, hsa_profile_t profile, uint16_t* mask) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (rocref::hsa::isa_of(isa) == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if ((profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) || mask == nullptr) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  *mask = 0;  // no exception policy (break or detect) is supported
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_get_round_method(hsa_isa_t isa, hsa_fp_type_t fp_type, hsa_flush_mode_t flush_mode,
                                              hsa_round_method_t* round_method) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (rocref::hsa::isa_of(isa) == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  const bool type_ok = fp_type == HSA_FP_TYPE_16 || fp_type == HSA_FP_TYPE_32 || fp_type == HSA_FP_TYPE_64;
  const bool flush_ok = flush_mode == HSA_FLUSH_MODE_FTZ || flush_mode == HSA_FLUSH_MODE_NON_FTZ;
  if (!type_ok || !flush_ok || round_method == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *round_method = HSA_ROUND_METHOD_SINGLE;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_compatible(hsa_isa_t code_object_isa, hsa_isa_t agent_isa, bool* result) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* code = rocref::hsa::isa_of(code_object_isa);
  const Isa* agent = rocref::hsa::isa_of(agent_isa);
  if (code == nullptr || agent == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = rocref::hsa::isa_compatible(*code, *agent);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_isa_iterate_wavefronts(hsa_isa_t isa,
                                                hsa_status_t (*callback)(hsa_wavefront_t wavefront, void* data),
                                                void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* object = rocref::hsa::isa_of(isa);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_ISA;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return callback(rocref::hsa::wavefront_handle(*object), data);
}

hsa_status_t HSA_API hsa_wavefront_get_info(hsa_wavefront_t wavefront, hsa_wavefront_info_t attribute, void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const Isa* isa = rocref::hsa::isa_of_wavefront(wavefront);
  if (isa == nullptr) return HSA_STATUS_ERROR_INVALID_WAVEFRONT;
  if (value == nullptr || attribute != HSA_WAVEFRONT_INFO_SIZE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *static_cast<uint32_t*>(value) = isa->wavefront_size;
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
