// hsa/isa.cpp - the ISA table and the attributes ROCR 5.2.3 reports for every ISA (HSA-ISA-*).
#include "hsa/isa.h"

#include <array>
#include <cstring>
#include <vector>

#include "hsa/info_value.h"

namespace rocref::hsa {
namespace {

struct Processor {
  std::string_view name;
  bool sramecc;
  bool xnack;
};

// The processors ROCR 5.2.3 supports, with the target features each has.
constexpr std::array kProcessors = {
    Processor{"gfx700", false, false},  Processor{"gfx701", false, false},  Processor{"gfx702", false, false},
    Processor{"gfx801", false, true},   Processor{"gfx802", false, false},  Processor{"gfx803", false, false},
    Processor{"gfx805", false, false},  Processor{"gfx810", false, true},   Processor{"gfx900", false, true},
    Processor{"gfx902", false, true},   Processor{"gfx904", false, true},   Processor{"gfx906", true, true},
    Processor{"gfx908", true, true},    Processor{"gfx909", false, true},   Processor{"gfx90a", true, true},
    Processor{"gfx90c", false, true},   Processor{"gfx1010", false, true},  Processor{"gfx1011", false, true},
    Processor{"gfx1012", false, true},  Processor{"gfx1013", false, true},  Processor{"gfx1030", false, false},
    Processor{"gfx1031", false, false}, Processor{"gfx1032", false, false}, Processor{"gfx1033", false, false},
    Processor{"gfx1034", false, false}, Processor{"gfx1035", false, false}, Processor{"gfx1036", false, false},
};

constexpr std::string_view kTriple = "amdgcn-amd-amdhsa--";
constexpr uint32_t kWavefrontsPerCu = 40;  // four SIMDs of ten wave slots, as ROCR reports for gfx9
constexpr uint16_t kWorkgroupMaxDim = 1024;
constexpr uint32_t kWorkgroupMaxSize = 1024;
constexpr uint32_t kFbarrierMaxSize = 32;

std::string feature_suffix(std::string_view feature, TargetFeature value) {
  if (value == TargetFeature::Off) return ":" + std::string(feature) + "-";
  if (value == TargetFeature::On) return ":" + std::string(feature) + "+";
  return {};
}

// Every processor in every feature combination, built once; entries never move.
const std::vector<Isa>& table() {
  static const std::vector<Isa> isas = [] {
    std::vector<Isa> out;
    const std::array<TargetFeature, 3> modes = {TargetFeature::Any, TargetFeature::Off, TargetFeature::On};
    for (const Processor& p : kProcessors) {
      for (TargetFeature s : modes) {
        if (!p.sramecc && s != TargetFeature::Any) continue;
        for (TargetFeature x : modes) {
          if (!p.xnack && x != TargetFeature::Any) continue;
          Isa isa;
          isa.processor = p.name;
          isa.sramecc = p.sramecc ? s : TargetFeature::Unsupported;
          isa.xnack = p.xnack ? x : TargetFeature::Unsupported;
          isa.wavefront_size = p.name.size() > 6 ? 32 : 64;  // gfx10 and later: wave32
          isa.full_name = std::string(kTriple) + std::string(p.name) + feature_suffix("sramecc", isa.sramecc) +
                          feature_suffix("xnack", isa.xnack);
          out.push_back(std::move(isa));
        }
      }
    }
    return out;
  }();
  return isas;
}

bool feature_compatible(TargetFeature code, TargetFeature agent) {
  return (code != TargetFeature::Off && code != TargetFeature::On) || code == agent;
}

}  // namespace

const Isa* isa_of(hsa_isa_t isa) noexcept {
  const std::vector<Isa>& t = table();
  for (const Isa& entry : t)
    if (reinterpret_cast<uint64_t>(&entry) == isa.handle) return &entry;
  return nullptr;
}

hsa_isa_t isa_handle(const Isa& isa) noexcept { return hsa_isa_t{reinterpret_cast<uint64_t>(&isa)}; }

hsa_wavefront_t wavefront_handle(const Isa& isa) noexcept {
  return hsa_wavefront_t{reinterpret_cast<uint64_t>(&isa.wavefront_size)};
}

const Isa* isa_of_wavefront(hsa_wavefront_t wavefront) noexcept {
  for (const Isa& entry : table())
    if (wavefront_handle(entry).handle == wavefront.handle) return &entry;
  return nullptr;
}

const Isa* isa_by_name(std::string_view name) noexcept {
  for (const Isa& entry : table())
    if (entry.full_name == name) return &entry;
  return nullptr;
}

const Isa* agent_isa(std::string_view processor, bool xnack_on) noexcept {
  for (const Isa& entry : table()) {
    if (entry.processor != processor) continue;
    const bool sramecc_ok = entry.sramecc == TargetFeature::Unsupported || entry.sramecc == TargetFeature::Off;
    const bool xnack_ok =
        entry.xnack == TargetFeature::Unsupported || entry.xnack == (xnack_on ? TargetFeature::On : TargetFeature::Off);
    if (sramecc_ok && xnack_ok) return &entry;
  }
  return nullptr;
}

hsa_status_t isa_get_info(const Isa& isa, hsa_isa_info_t attribute, void* value) noexcept {
  switch (attribute) {
    case HSA_ISA_INFO_NAME_LENGTH:  // ROCR counts the terminating NUL
      return put_info(value, static_cast<uint32_t>(isa.full_name.size() + 1));
    case HSA_ISA_INFO_NAME:
      std::memcpy(value, isa.full_name.c_str(), isa.full_name.size() + 1);
      return HSA_STATUS_SUCCESS;
    case HSA_ISA_INFO_CALL_CONVENTION_COUNT: return put_info(value, uint32_t{1});
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE: return put_info(value, isa.wavefront_size);
    case HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT: return put_info(value, kWavefrontsPerCu);
    case HSA_ISA_INFO_MACHINE_MODELS:  // large only
      return put_info(value, std::array<bool, 2>{false, true});
    case HSA_ISA_INFO_PROFILES:  // base only
      return put_info(value, std::array<bool, 2>{true, false});
    case HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES:
    case HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:  // near only
      return put_info(value, std::array<bool, 3>{false, false, true});
    case HSA_ISA_INFO_FAST_F16_OPERATION: return put_info(value, true);
    case HSA_ISA_INFO_WORKGROUP_MAX_DIM:
      return put_info(value, std::array<uint16_t, 3>{kWorkgroupMaxDim, kWorkgroupMaxDim, kWorkgroupMaxDim});
    case HSA_ISA_INFO_WORKGROUP_MAX_SIZE: return put_info(value, kWorkgroupMaxSize);
    case HSA_ISA_INFO_GRID_MAX_DIM: return put_info(value, hsa_dim3_t{UINT32_MAX, UINT32_MAX, UINT32_MAX});
    case HSA_ISA_INFO_GRID_MAX_SIZE: return put_info(value, UINT64_MAX);
    case HSA_ISA_INFO_FBARRIER_MAX_SIZE: return put_info(value, kFbarrierMaxSize);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

bool isa_compatible(const Isa& code, const Isa& agent) noexcept {
  return code.processor == agent.processor && feature_compatible(code.sramecc, agent.sramecc) &&
         feature_compatible(code.xnack, agent.xnack);
}

}  // namespace rocref::hsa
