// hsa/svm_attributes.cpp - ROCR 5.2.3's translation of SVM attributes to the KFD's (see svm_attributes.h).
#include "hsa/svm_attributes.h"

#include <hsakmt.h>

#include <vector>

#include "hsa/agent.h"
#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"
#include "hsa/svm_prefetch.h"

namespace rocref::hsa {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint32_t kMaxGranularity = 18;  // ROCR: migrations of at most 2^18 pages (1 GiB)

HSA_SVM_ATTRIBUTE kfd(uint32_t type, uint32_t value) { return HSA_SVM_ATTRIBUTE{type, value}; }

// The bool attributes that are one flag each.
bool flag_of(uint64_t attribute, uint32_t* flag) {
  switch (attribute) {
    case HSA_AMD_SVM_ATTRIB_READ_ONLY: *flag = HSA_SVM_FLAG_GPU_RO; return true;
    case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL: *flag = HSA_SVM_FLAG_HIVE_LOCAL; return true;
    case HSA_AMD_SVM_ATTRIB_READ_MOSTLY: *flag = HSA_SVM_FLAG_GPU_READ_MOSTLY; return true;
    default: return false;
  }
}

uint32_t access_type(uint64_t attribute) {
  switch (attribute) {
    case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE: return HSA_SVM_ATTR_ACCESS;
    case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE: return HSA_SVM_ATTR_ACCESS_IN_PLACE;
    default: return HSA_SVM_ATTR_NO_ACCESS;
  }
}

}  // namespace

SvmPages svm_pages(const void* ptr, size_t size) noexcept {
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  const uintptr_t base = start & ~(kPage - 1);
  const uintptr_t end = (start + size + kPage - 1) & ~(kPage - 1);
  return {reinterpret_cast<void*>(base), end - base};
}

// HSA-SVM-1
hsa_status_t svm_set_attributes(Runtime& rt, void* ptr, size_t size, const hsa_amd_svm_attribute_pair_t* list,
                                size_t count) {
  std::vector<HSA_SVM_ATTRIBUTE> attributes;
  std::vector<bool> agent_named;
  uint32_t seen = 0, set_flags = 0, clear_flags = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t attribute = list[i].attribute;
    const uint64_t value = list[i].value;
    uint32_t flag = 0;
    if (attribute <= HSA_AMD_SVM_ATTRIB_READ_MOSTLY && attribute != HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION) {
      if (seen & (1u << attribute)) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;  // named twice
      seen |= 1u << attribute;
    }
    if (flag_of(attribute, &flag)) {
      (value != 0 ? set_flags : clear_flags) |= flag;
      continue;
    }
    switch (attribute) {
      case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
        if (value == HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED)
          (hsa_mutant_active(HsaMutant::SvmFineGrainedClearsCoherent) ? clear_flags : set_flags) |=
              HSA_SVM_FLAG_COHERENT;
        else if (value == HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED) clear_flags |= HSA_SVM_FLAG_COHERENT;
        else return HSA_STATUS_ERROR_INVALID_ARGUMENT;
        break;
      case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
        attributes.push_back(
            kfd(HSA_SVM_ATTR_GRANULARITY, value > kMaxGranularity ? kMaxGranularity : uint32_t(value)));
        break;
      case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: {
        // The null agent: no preferred location.
        Agent* agent = value == 0 ? nullptr : rt.find_agent(hsa_agent_t{value});
        if (value != 0 && agent == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
        attributes.push_back(kfd(HSA_SVM_ATTR_PREFERRED_LOC, agent == nullptr ? INVALID_NODEID : agent->node_id()));
        break;
      }
      case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE:
      case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE:
      case HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS: {
        Agent* agent = rt.find_agent(hsa_agent_t{value});
        if (agent == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
        if (agent_named.size() <= agent->node_id()) agent_named.resize(agent->node_id() + 1);
        if (agent_named[agent->node_id()]) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;  // one access per agent
        agent_named[agent->node_id()] = true;
        if (!agent->is_gpu())
          (attribute == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS ? clear_flags : set_flags) |= HSA_SVM_FLAG_HOST_ACCESS;
        else attributes.push_back(kfd(access_type(attribute), agent->node_id()));
        break;
      }
      default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // PREFETCH_LOCATION, ACCESS_QUERY, unknown
    }
  }
  // ROCR: any CPU that needs access wins over one that does not.
  if (set_flags & HSA_SVM_FLAG_HOST_ACCESS) clear_flags &= ~HSA_SVM_FLAG_HOST_ACCESS;
  if (clear_flags != 0) attributes.push_back(kfd(HSA_SVM_ATTR_CLR_FLAGS, clear_flags));
  if (set_flags != 0) attributes.push_back(kfd(HSA_SVM_ATTR_SET_FLAGS, set_flags));
  const SvmPages pages = svm_pages(ptr, size);
  if (hsaKmtSVMSetAttr(pages.base, pages.bytes, attributes.size(), attributes.data()) != HSAKMT_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  return HSA_STATUS_SUCCESS;
}

// HSA-SVM-2
hsa_status_t svm_get_attributes(Runtime& rt, void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* list, size_t count) {
  std::vector<HSA_SVM_ATTRIBUTE> attributes;
  std::vector<int> asked(count, -1);  // each entry's KFD attribute, or -1: the flags (or none)
  bool flags = false;
  for (size_t i = 0; i < count; ++i) {
    switch (list[i].attribute) {
      case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
      case HSA_AMD_SVM_ATTRIB_READ_ONLY:
      case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
      case HSA_AMD_SVM_ATTRIB_READ_MOSTLY: flags = true; break;
      case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
        asked[i] = static_cast<int>(attributes.size());
        attributes.push_back(kfd(HSA_SVM_ATTR_GRANULARITY, 0));
        break;
      case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
        asked[i] = static_cast<int>(attributes.size());
        attributes.push_back(kfd(HSA_SVM_ATTR_PREFERRED_LOC, 0));
        break;
      case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION: break;
      case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: {
        Agent* agent = rt.find_agent(hsa_agent_t{list[i].value});
        if (agent == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
        if (!agent->is_gpu()) {
          flags = true;
        } else {
          asked[i] = static_cast<int>(attributes.size());
          attributes.push_back(kfd(HSA_SVM_ATTR_ACCESS, agent->node_id()));
        }
        break;
      }
      default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // the access attributes of set, unknown
    }
  }
  if (flags) {  // the last two: what no range has, what every range has
    attributes.push_back(kfd(HSA_SVM_ATTR_CLR_FLAGS, 0));
    attributes.push_back(kfd(HSA_SVM_ATTR_SET_FLAGS, 0));
  }
  const SvmPages pages = svm_pages(ptr, size);
  if (!attributes.empty() &&
      hsaKmtSVMGetAttr(pages.base, pages.bytes, attributes.size(), attributes.data()) != HSAKMT_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  // The prefetch location before any answer is written: a failed query changes nothing.
  uint64_t prefetch_agent = 0;
  for (size_t i = 0; i < count; ++i) {
    if (list[i].attribute != HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION) continue;
    uint32_t node = INVALID_NODEID;
    if (hsa_status_t s = rt.svm_prefetches().location(pages.base, pages.bytes, &node); s != HSA_STATUS_SUCCESS)
      return s;
    Agent* agent = node == INVALID_NODEID ? nullptr : rt.agent_of_node(node);
    prefetch_agent = agent == nullptr ? 0 : agent->handle().handle;
    break;
  }
  const uint32_t set = flags ? attributes[attributes.size() - 1].value : 0;
  const uint32_t clear = flags ? attributes[attributes.size() - 2].value : 0;
  for (size_t i = 0; i < count; ++i) {
    uint64_t& value = list[i].value;
    uint32_t flag = 0;
    switch (list[i].attribute) {
      case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
        value = (set & HSA_SVM_FLAG_COHERENT)     ? HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED
                : (clear & HSA_SVM_FLAG_COHERENT) ? HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED
                                                  : HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE;
        break;
      case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY: value = attributes[asked[i]].value; break;
      case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: {
        const uint32_t node = attributes[asked[i]].value;
        Agent* agent = node == INVALID_NODEID ? nullptr : rt.agent_of_node(node);
        value = agent == nullptr ? 0 : agent->handle().handle;
        break;
      }
      case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION: value = prefetch_agent; break;
      case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY:
        // The answer replaces the attribute; a CPU without HOST_ACCESS keeps ACCESS_QUERY (ROCR).
        if (asked[i] < 0) {
          if (set & HSA_SVM_FLAG_HOST_ACCESS) list[i].attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
        } else if (attributes[asked[i]].type == HSA_SVM_ATTR_ACCESS) {
          list[i].attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
        } else if (attributes[asked[i]].type == HSA_SVM_ATTR_ACCESS_IN_PLACE) {
          list[i].attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE;
        } else {
          list[i].attribute = HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
        }
        break;
      default:
        if (flag_of(list[i].attribute, &flag)) value = set & flag;  // the flag's bit, as ROCR answers
        break;
    }
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::hsa
