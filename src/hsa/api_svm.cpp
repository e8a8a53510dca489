// hsa/api_svm.cpp - C entry points: SVM attributes and prefetch (HSA-SVM-*).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <vector>

#include "hsa/agent.h"
#include "hsa/runtime.h"
#include "hsa/svm_attributes.h"
#include "hsa/svm_prefetch.h"

using rocref::hsa::Agent;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;
using rocref::hsa::SignalObject;

extern "C" {

// HSA-SVM-1. ROCR reads the list unchecked; a null one with a count is refused here.
hsa_status_t HSA_API hsa_amd_svm_attributes_set(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (attribute_list == nullptr && attribute_count != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rocref::hsa::svm_set_attributes(*rt, ptr, size, attribute_list, attribute_count);
}

// HSA-SVM-2
hsa_status_t HSA_API hsa_amd_svm_attributes_get(void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (attribute_list == nullptr && attribute_count != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rocref::hsa::svm_get_attributes(*rt, ptr, size, attribute_list, attribute_count);
}

// HSA-SVM-3. ROCR checks nothing here (an unknown agent or signal is undefined behaviour
// there); rocref refuses them as the other asynchronous calls do. A completion signal of
// handle 0 is none.
hsa_status_t HSA_API hsa_amd_svm_prefetch_async(void* ptr, size_t size, hsa_agent_t agent, uint32_t num_dep_signals,
                                                const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* destination = rt->find_agent(agent);
  if (destination == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (num_dep_signals != 0 && dep_signals == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<SignalObject*> dependencies(num_dep_signals);
  for (uint32_t i = 0; i < num_dep_signals; ++i) {
    if (hsa_status_t s = rt->checked_signal(dep_signals[i], &dependencies[i]); s != HSA_STATUS_SUCCESS) return s;
  }
  SignalObject* completion = nullptr;
  if (completion_signal.handle != 0) {
    if (hsa_status_t s = rt->checked_signal(completion_signal, &completion); s != HSA_STATUS_SUCCESS) return s;
  }
  const rocref::hsa::SvmPages pages = rocref::hsa::svm_pages(ptr, size);
  const uint32_t node = destination->is_gpu() ? destination->node_id() : 0;  // a CPU agent: system memory
  return rt->svm_prefetches().start(pages.base, pages.bytes, node, std::move(dependencies), completion);
}

}  // extern "C"
