// hip/hip_device.cpp - device selection, properties, limits, flags and whole-device synchronization (HIP-DEV-*).
//
// Device i is the command layer's Device i, the i-th GPU agent. hipDeviceProp_t is
// filled from the agent's HSA attributes (clr::DeviceInfo) and, where HSA has
// no attribute, with the values ROCclr reports for gfx9 parts.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/trace.h"
#include "hip/hip_device_props.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace rocref::hip {
namespace {

// The agent's target ID as ROCclr's isa.targetId() gives it: the ISA name after "amdgcn-amd-amdhsa--"
// ("gfx900:xnack-").
hsa_status_t first_isa(hsa_isa_t isa, void* data) {
  char name[128] = {};
  if (hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name) != HSA_STATUS_SUCCESS) return HSA_STATUS_SUCCESS;
  const std::string text = name;
  const size_t dashes = text.rfind("--");
  *static_cast<std::string*>(data) = dashes == std::string::npos ? text : text.substr(dashes + 2);
  return HSA_STATUS_INFO_BREAK;
}

std::string target_id(hsa_agent_t agent, const std::string& fallback) {
  std::string id;
  hsa_agent_iterate_isas(agent, first_isa, &id);
  return id.empty() ? fallback : id;
}

}  // namespace

hipError_t fill_properties(hipDeviceProp_t* prop, int deviceId) {
  if (prop == nullptr) return hipErrorInvalidValue;
  if (const auto current = device(); !current) return current.error();
  const auto dev = device(deviceId);
  if (!dev) return dev.error();
  clr::Device* d = *dev;
  const clr::DeviceInfo& info = d->info();
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, info.name.c_str(), sizeof prop->name - 1);
  std::snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "%s", target_id(d->gpu(), info.isa_name).c_str());
  prop->totalGlobalMem = info.device_memory;
  prop->sharedMemPerBlock = info.group_segment_size;
  prop->maxSharedMemoryPerMultiProcessor = info.group_segment_size;
  prop->regsPerBlock = kRegistersPerBlock;
  prop->warpSize = static_cast<int>(info.wavefront_size);
  prop->maxThreadsPerBlock = static_cast<int>(info.max_workgroup_size);
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = info.max_workgroup_dim[i];
    prop->maxGridSize[i] = static_cast<int>(info.max_grid_dim[i] > INT32_MAX ? INT32_MAX : info.max_grid_dim[i]);
  }
  prop->clockRate = static_cast<int>(info.max_clock_mhz * 1000);
  // ROCclr: the timestamp counter's frequency (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY), in kHz.
  uint64_t timestamp_hz = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &timestamp_hz);
  prop->clockInstructionRate = timestamp_hz != 0 ? static_cast<int>(timestamp_hz / 1000) : kClockInstructionRateKhz;
  prop->memoryClockRate = kMemoryClockRateKhz;
  prop->memoryBusWidth = kMemoryBusWidthBits;
  prop->totalConstMem = std::min<size_t>(info.device_memory, INT32_MAX);  // ROCclr clamps it to int
  prop->multiProcessorCount = static_cast<int>(info.compute_units);
  prop->l2CacheSize = kL2CacheBytes;
  prop->maxThreadsPerMultiProcessor = kMaxThreadsPerCu;
  prop->major = static_cast<int>(info.gfx_major);
  prop->minor = static_cast<int>(info.gfx_minor);
  prop->gcnArch = static_cast<int>(info.gfx_major * 100 + info.gfx_minor * 10);
  prop->computeMode = hipComputeModeDefault;
  prop->concurrentKernels = 1;
  prop->pciDomainID = static_cast<int>(info.bdf_id >> 16);
  prop->pciBusID = static_cast<int>((info.bdf_id >> 8) & 0xff);
  prop->pciDeviceID = static_cast<int>((info.bdf_id >> 3) & 0x1f);
  prop->isMultiGpuBoard = 0;
  prop->canMapHostMemory = 1;
  prop->integrated = 0;
  // ROCclr's cooperativeGroups_: the agent's cooperative queues (GWS); the model's gfx900 has none.
  uint32_t cooperative = 0;
  hsa_agent_get_info(d->gpu(), static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES), &cooperative);
  prop->cooperativeLaunch = prop->cooperativeMultiDeviceLaunch = cooperative != 0 ? 1 : 0;
  prop->maxTexture1DLinear = kMaxTexture1DLinear;
  prop->maxTexture1D = kMaxTexture1D;
  prop->maxTexture2D[0] = prop->maxTexture2D[1] = kMaxTexture2D;
  prop->maxTexture3D[0] = prop->maxTexture3D[1] = kMaxTexture3DExtent;
  prop->maxTexture3D[2] = kMaxTexture3DDepth;
  prop->memPitch = std::min<size_t>(kMaxPitch, INT32_MAX);  // ROCclr: maxMemAllocSize clamped to int
  hsa_amd_hdp_flush_t hdp{};
  if (hsa_agent_get_info(d->gpu(), static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_HDP_FLUSH), &hdp) ==
      HSA_STATUS_SUCCESS) {
    prop->hdpMemFlushCntl = hdp.HDP_MEM_FLUSH_CNTL;
    prop->hdpRegFlushCntl = hdp.HDP_REG_FLUSH_CNTL;
  }
  prop->textureAlignment = kTextureAlignment;
  prop->texturePitchAlignment = kTexturePitchAlignment;
  prop->kernelExecTimeoutEnabled = 0;
  prop->ECCEnabled = 0;
  prop->isLargeBar = 1;  // the model's VRAM is all host-visible (ROCclr's largeBar_)
  prop->asicRevision = 0;
  prop->managedMemory = 1;
  prop->directManagedMemAccessFromHost = 0;
  prop->concurrentManagedAccess = prop->managedMemory;  // ROCclr: both are hmmSupported_
  prop->pageableMemoryAccess = 0;
  prop->pageableMemoryAccessUsesHostPageTables = 0;
  hipDeviceArch_t& a = prop->arch;
  a.hasGlobalInt32Atomics = a.hasGlobalFloatAtomicExch = a.hasSharedInt32Atomics = a.hasSharedFloatAtomicExch = 1;
  a.hasFloatAtomicAdd = a.hasGlobalInt64Atomics = a.hasSharedInt64Atomics = a.hasDoubles = 1;
  // HIP-DEV-9: as the device compiler's __HIP_ARCH_HAS_*__ macros for gfx9 (no funnel shift, no
  // __syncthreads_count-style extensions, no surfaces, no dynamic parallelism).
  a.hasWarpVote = a.hasWarpBallot = a.hasWarpShuffle = 1;
  a.hasFunnelShift = hip_mutant_active(HipMutant::ArchFlagsAsCuda) ? 1 : 0;
  a.hasThreadFenceSystem = 1;
  a.hasSyncThreadsExt = 0;
  a.hasSurfaceFuncs = 0;
  a.has3dGrid = 1;
  a.hasDynamicParallelism = 0;
  return hipSuccess;
}

}  // namespace rocref::hip

hipError_t hipInit(unsigned int flags) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipInit", "");
  if (flags != 0) return result(hipErrorInvalidValue);
  const auto d = rocref::hip::device();
  return result(d ? hipSuccess : d.error());
}

hipError_t hip_init() { return hipInit(0); }

hipError_t hipDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return result(hipErrorInvalidValue);
  *driverVersion = HIP_VERSION;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) return result(hipErrorInvalidValue);
  *runtimeVersion = HIP_VERSION;  // 50221153: HIP 5.2.3
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return result(hipErrorInvalidValue);
  const auto d = rocref::hip::device();
  *count = d ? rocref::hip::device_count() : 0;
  return result(d ? hipSuccess : d.error());
}

hipError_t hipSetDevice(int deviceId) {
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  if (!rocref::hip::valid_device(deviceId)) return result(hipErrorInvalidDevice);
  rocref::hip::set_current_device(deviceId);
  return hipSuccess;
}

hipError_t hipGetDevice(int* deviceId) {
  if (deviceId == nullptr) return result(hipErrorInvalidValue);
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  *deviceId = rocref::hip::current_device();
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId) {
  return result(rocref::hip::fill_properties(prop, deviceId));
}

hipError_t hipChooseDevice(int* device, const hipDeviceProp_t* prop) {
  if (device == nullptr || prop == nullptr) return result(hipErrorInvalidValue);
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  *device = 0;  // the devices are alike: the first matches best whatever was asked
  return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipDeviceSynchronize", "");
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  return result(rocref::hip::synchronize_all());
}

hipError_t hipDeviceReset(void) { return hipDeviceSynchronize(); }

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  if (device == nullptr) return result(hipErrorInvalidValue);
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  if (!rocref::hip::valid_device(ordinal)) return result(hipErrorInvalidDevice);
  *device = ordinal;
  return hipSuccess;
}

hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
  if (name == nullptr || len <= 0) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, device); e != hipSuccess) return result(e);
  std::snprintf(name, static_cast<size_t>(len), "%s", prop.name);
  return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  if (bytes == nullptr) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, device); e != hipSuccess) return result(e);
  *bytes = prop.totalGlobalMem;
  return hipSuccess;
}

hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
  if (major == nullptr || minor == nullptr) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, device); e != hipSuccess) return result(e);
  *major = prop.major;
  *minor = prop.minor;
  return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, device); e != hipSuccess) return result(e);
  std::snprintf(pciBusId, static_cast<size_t>(len), "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
                prop.pciDeviceID);
  return hipSuccess;
}

hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr) return result(hipErrorInvalidValue);
  unsigned domain = 0, bus = 0, dev = 0, function = 0;
  if (std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &dev, &function) != 4) return result(hipErrorInvalidValue);
  for (int i = 0; i < rocref::hip::device_count(); ++i) {
    hipDeviceProp_t prop;
    if (rocref::hip::fill_properties(&prop, i) != hipSuccess) continue;
    if (static_cast<unsigned>(prop.pciDomainID) == domain && static_cast<unsigned>(prop.pciBusID) == bus &&
        static_cast<unsigned>(prop.pciDeviceID) == dev) {
      *device = i;
      return hipSuccess;
    }
  }
  return result(hipErrorInvalidDevice);
}

hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device) {
  if (uuid == nullptr) return result(hipErrorInvalidValue);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, device); e != hipSuccess) return result(e);
  // ROCclr reports the agent's HSA_AMD_AGENT_INFO_UUID, "GPU-" and 16 hex digits; the model's agent has none.
  char text[32];
  std::snprintf(text, sizeof text, "GPU-%012x", static_cast<unsigned>(prop.pciBusID));
  std::memcpy(uuid->bytes, text, sizeof uuid->bytes);
  return hipSuccess;
}

namespace {
hipFuncCache_t g_cache_config = hipFuncCachePreferNone;
hipSharedMemConfig g_shared_config = hipSharedMemBankSizeFourByte;
}  // namespace

// HIP 5.2.3 accepts and ignores the cache preference (AMD GPUs have a fixed L1/LDS split).
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig) {
  if (cacheConfig < hipFuncCachePreferNone || cacheConfig > hipFuncCachePreferEqual) return result(hipErrorInvalidValue);
  g_cache_config = cacheConfig;
  return hipSuccess;
}

hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* cacheConfig) {
  if (cacheConfig == nullptr) return result(hipErrorInvalidValue);
  *cacheConfig = g_cache_config;
  return hipSuccess;
}

hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
  if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte) return result(hipErrorInvalidValue);
  g_shared_config = config;
  return hipSuccess;
}

hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* pConfig) {
  if (pConfig == nullptr) return result(hipErrorInvalidValue);
  *pConfig = g_shared_config;
  return hipSuccess;
}

// HIP 5.2.3 knows hipLimitMallocHeapSize only and answers it with the current device's global
// memory size (HIP-DEV-9); hipLimitPrintfFifoSize and anything else is hipErrorUnsupportedLimit.
hipError_t hipDeviceGetLimit(size_t* pValue, enum hipLimit_t limit) {
  if (pValue == nullptr) return result(hipErrorInvalidValue);
  if (limit != hipLimitMallocHeapSize) return result(hipErrorUnsupportedLimit);
  hipDeviceProp_t prop;
  if (hipError_t e = rocref::hip::fill_properties(&prop, rocref::hip::current_device()); e != hipSuccess) {
    return result(e);
  }
  *pValue = prop.totalGlobalMem;
  return hipSuccess;
}

hipError_t hipSetDeviceFlags(unsigned flags) {
  constexpr unsigned kKnown = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
  if ((flags & ~kKnown) != 0) return result(hipErrorInvalidValue);
  const unsigned schedule = flags & hipDeviceScheduleMask;
  if (schedule != hipDeviceScheduleAuto && schedule != hipDeviceScheduleSpin && schedule != hipDeviceScheduleYield &&
      schedule != hipDeviceScheduleBlockingSync) {
    return result(hipErrorInvalidValue);
  }
  if (const auto d = rocref::hip::device(); !d) return result(d.error());
  rocref::hip::device_flags() = flags;
  return hipSuccess;
}

hipError_t hipGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return result(hipErrorInvalidValue);
  *flags = rocref::hip::device_flags();
  return hipSuccess;
}

hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (leastPriority != nullptr) *leastPriority = rocref::hip::kStreamPriorityLeast;
  if (greatestPriority != nullptr) *greatestPriority = rocref::hip::kStreamPriorityGreatest;
  return hipSuccess;
}
