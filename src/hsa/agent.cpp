// hsa/agent.cpp - agent attributes from the KFD topology (hsa_agent_get_info).
#include "hsa/agent.h"

#include <cstdio>
#include <cstring>

#include "hsa/extensions.h"
#include "hsa/image_format.h"
#include "hsa/info_value.h"
#include "hsa/memory_region.h"

namespace rocref::hsa {
namespace {

hsa_status_t put_string(void* out, const std::string& text, size_t capacity) {
  char* dst = static_cast<char*>(out);
  std::memset(dst, 0, capacity);
  std::memcpy(dst, text.data(), std::min(text.size(), capacity - 1));
  return HSA_STATUS_SUCCESS;
}

std::string ascii(const HSAuint16* wide, size_t n) {
  std::string text;
  for (size_t i = 0; i < n && wide[i] != 0; ++i) text.push_back(wide[i] < 128 ? static_cast<char>(wide[i]) : '?');
  return text;
}

}  // namespace

Agent::Agent(uint32_t node_id, const HsaNodeProperties& properties, hsa_device_type_t type)
    : node_id_(node_id), properties_(properties), type_(type) {
  if (is_gpu()) {
    // HSA-AGENT-1: the ISA name, as ROCR reports it (gfx + major, minor, stepping in hex).
    char isa[32];
    std::snprintf(isa, sizeof isa, "gfx%u%u%x", properties.EngineId.ui32.Major, properties.EngineId.ui32.Minor,
                  properties.EngineId.ui32.Stepping);
    name_ = isa;
    // ROCR takes the agent's XNACK from the process's mode (hsaKmtGetXNACKMode), off if unknown.
    HSAint32 xnack = 0;
    if (hsaKmtGetXNACKMode(&xnack) != HSAKMT_STATUS_SUCCESS) xnack = 0;
    isa_ = agent_isa(name_, xnack != 0);
  } else {
    name_ = ascii(properties.MarketingName, HSA_PUBLIC_NAME_SIZE);  // /proc/cpuinfo's model name
  }
  const uint32_t processor = is_gpu() ? properties.FComputeIdLo : properties.CComputeIdLo;
  std::vector<HsaCacheProperties> caches(properties.NumCaches);
  if (!caches.empty() &&
      hsaKmtGetNodeCacheProperties(node_id, processor, properties.NumCaches, caches.data()) == HSAKMT_STATUS_SUCCESS) {
    for (const HsaCacheProperties& cache : caches) {
      // ROCR's cache list: data caches of the CPU, or of the GPU's compute units.
      const bool listed = cache.CacheType.ui32.Instruction == 0 &&
                          (is_gpu() ? cache.CacheType.ui32.HSACU == 1 : cache.CacheType.ui32.CPU == 1);
      if (listed) {
        auto entry = std::make_unique<Cache>();
        entry->name = name_ + " L" + std::to_string(cache.CacheLevel);
        entry->level = static_cast<uint8_t>(cache.CacheLevel);
        entry->size = cache.CacheSize;
        caches_.push_back(std::move(entry));
      }
      if (cache.CacheLevel < 1 || cache.CacheLevel > 4) continue;
      if (is_gpu()) {
        if (cache_bytes_[cache.CacheLevel - 1] == 0) cache_bytes_[cache.CacheLevel - 1] = cache.CacheSize * 1024;
      } else if (cache.CacheType.ui32.CPU == 1 && cache.CacheType.ui32.Instruction == 0) {
        // ROCR's CPU agent keeps data caches only: a unified L2 or L3 (data and instruction)
        // is left out, and the last cache of a level wins.
        cache_bytes_[cache.CacheLevel - 1] = cache.CacheSize * 1024;  // KFD reports KiB
      }
    }
  }
}

Agent::~Agent() = default;

void Agent::add_region(std::unique_ptr<MemoryRegion> region) {
  visible_.push_back(region.get());
  owned_.push_back(std::move(region));
}

uint32_t Agent::compute_unit_count() const noexcept {
  if (!is_gpu()) return properties_.NumCPUCores;
  return properties_.NumSIMDPerCU == 0 ? 0 : properties_.NumFComputeCores / properties_.NumSIMDPerCU;
}

hsa_status_t Agent::get_info(uint32_t attribute, void* value) const {
  const HsaNodeProperties& p = properties_;
  const bool gpu = is_gpu();
  switch (attribute) {
    // ROCR's GPU agent clears 63 bytes (its hsa_name_size), the CPU agent the whole 64.
    case HSA_AGENT_INFO_NAME: return put_string(value, name_, gpu ? 63 : 64);
    case HSA_AGENT_INFO_VENDOR_NAME: return put_string(value, gpu ? "AMD" : "CPU", gpu ? 63 : 64);
    // ROCR's CPU agent dispatches nothing (feature 0) and is a full-profile agent.
    case HSA_AGENT_INFO_FEATURE:
      return put_info<hsa_agent_feature_t>(value, gpu ? HSA_AGENT_FEATURE_KERNEL_DISPATCH : hsa_agent_feature_t{});
    case HSA_AGENT_INFO_MACHINE_MODEL: return put_info<hsa_machine_model_t>(value, HSA_MACHINE_MODEL_LARGE);
    case HSA_AGENT_INFO_PROFILE: return put_info<hsa_profile_t>(value, gpu ? HSA_PROFILE_BASE : HSA_PROFILE_FULL);
    case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      return put_info<hsa_default_float_rounding_mode_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
      return put_info<hsa_default_float_rounding_mode_t>(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    case HSA_AGENT_INFO_FAST_F16_OPERATION: return put_info<bool>(value, gpu);  // gfx9's ISA has it
    case HSA_AGENT_INFO_WAVEFRONT_SIZE: return put_info<uint32_t>(value, gpu ? p.WaveFrontSize : 0);
    case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
      const uint16_t dims[3] = {static_cast<uint16_t>(gpu ? 1024 : 0), static_cast<uint16_t>(gpu ? 1024 : 0),
                                static_cast<uint16_t>(gpu ? 1024 : 0)};
      std::memcpy(value, dims, sizeof dims);
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: return put_info<uint32_t>(value, gpu ? 1024 : 0);
    case HSA_AGENT_INFO_GRID_MAX_DIM: {
      const uint32_t max = gpu ? UINT32_MAX : 0;
      return put_info<hsa_dim3_t>(value, hsa_dim3_t{max, max, max});
    }
    case HSA_AGENT_INFO_GRID_MAX_SIZE: return put_info<uint32_t>(value, gpu ? UINT32_MAX : 0);
    case HSA_AGENT_INFO_FBARRIER_MAX_SIZE: return put_info<uint32_t>(value, gpu ? 32 : 0);
    case HSA_AGENT_INFO_QUEUES_MAX: return put_info<uint32_t>(value, gpu ? kQueuesMax : 0);
    case HSA_AGENT_INFO_QUEUE_MIN_SIZE: return put_info<uint32_t>(value, gpu ? kQueueMinSize : 0);
    case HSA_AGENT_INFO_QUEUE_MAX_SIZE: return put_info<uint32_t>(value, gpu ? kQueueMaxSize : 0);
    case HSA_AGENT_INFO_QUEUE_TYPE: return put_info<hsa_queue_type32_t>(value, HSA_QUEUE_TYPE_MULTI);
    case HSA_AGENT_INFO_NODE: return put_info<uint32_t>(value, node_id_);
    case HSA_AGENT_INFO_DEVICE: return put_info<hsa_device_type_t>(value, type_);
    case HSA_AGENT_INFO_CACHE_SIZE: std::memcpy(value, cache_bytes_, sizeof cache_bytes_); return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_ISA: return put_info<hsa_isa_t>(value, isa_ != nullptr ? isa_handle(*isa_) : hsa_isa_t{0});
    case HSA_AGENT_INFO_EXTENSIONS:  // HSA-EXT-1: a GPU lists the system's; a CPU none
      if (gpu) {
        extension_bits(value);
      } else {
        std::memset(value, 0, 128);
      }
      return HSA_STATUS_SUCCESS;
    case HSA_AGENT_INFO_VERSION_MAJOR: return put_info<uint16_t>(value, 1);
    case HSA_AGENT_INFO_VERSION_MINOR: return put_info<uint16_t>(value, 1);
    case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
    case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
      return image_max_dim_info(gpu, attribute, value);  // HSA-IMG-1
    // ROCR's fixed OpenCL limits; its GPU case for the sampler count falls through to the chip id.
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES: return put_info<uint32_t>(value, gpu ? 128 : 0);
    case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES: return put_info<uint32_t>(value, gpu ? 64 : 0);
    case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS: return put_info<uint32_t>(value, gpu ? p.DeviceId : 0);
    case HSA_AMD_AGENT_INFO_CHIP_ID: return put_info<uint32_t>(value, p.DeviceId);
    case HSA_AMD_AGENT_INFO_CACHELINE_SIZE: return put_info<uint32_t>(value, 64);
    case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: return put_info<uint32_t>(value, compute_unit_count());
    case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
      return put_info<uint32_t>(value, gpu ? p.MaxEngineClockMhzFCompute : p.MaxEngineClockMhzCCompute);
    case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID: return put_info<uint32_t>(value, node_id_);
    case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
      return put_info<uint32_t>(value, 1u << p.Capability.ui32.WatchPointsTotalBits);
    case HSA_AMD_AGENT_INFO_BDFID: return put_info<uint32_t>(value, p.LocationId);
    // A GPU's VRAM bank (bus width in bits, clock in MHz); ROCR's CPU agent does not answer.
    case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
      return gpu ? put_info<uint32_t>(value, memory_width_) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
      return gpu ? put_info<uint32_t>(value, memory_clock_mhz_) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_PRODUCT_NAME: {
      std::string product = ascii(p.MarketingName, HSA_PUBLIC_NAME_SIZE);
      return put_string(value, product.empty() ? name_ : product, 64);
    }
    case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU: return put_info<uint32_t>(value, p.MaxWavesPerSIMD * p.NumSIMDPerCU);
    case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU: return put_info<uint32_t>(value, p.NumSIMDPerCU);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES: return put_info<uint32_t>(value, p.NumShaderBanks);
    case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE: return put_info<uint32_t>(value, p.NumArrays);
    case HSA_AMD_AGENT_INFO_DOMAIN: return put_info<uint32_t>(value, p.Domain);
    case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:  // no GWS on the model's gfx900 (num_gws 0)
      return gpu ? put_info<bool>(value, p.NumGws != 0) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_UUID: {
      char uuid[21];
      // A GPU without a unique id (and every CPU) answers "XX", as ROCR does.
      if (gpu && p.UniqueID != 0)
        std::snprintf(uuid, sizeof uuid, "GPU-%016llx", static_cast<unsigned long long>(p.UniqueID));
      else std::snprintf(uuid, sizeof uuid, gpu ? "GPU-XX" : "CPU-XX");
      std::memcpy(value, uuid, std::strlen(uuid) + 1);  // the string and its NUL, nothing past it
      return HSA_STATUS_SUCCESS;
    }
    case HSA_AMD_AGENT_INFO_ASIC_REVISION: return put_info<uint32_t>(value, 0);
    // The HDP flush registers: the node's MMIO_REMAP page, as ROCR reads it (zeros for a CPU).
    case HSA_AMD_AGENT_INFO_HDP_FLUSH: return put_info(value, hdp_flush_);
    // GPU attributes only, as in ROCR 5.2.3 (its CPU agent answers INVALID_ARGUMENT).
    case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
      return gpu ? put_info<bool>(value, false) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
      return gpu ? put_info<uint32_t>(value, compute_unit_count()) : HSA_STATUS_ERROR_INVALID_ARGUMENT;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

}  // namespace rocref::hsa
