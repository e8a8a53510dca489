// thunk/api_misc.cpp - clocks, XNACK, trap handler, tile config, memory policy, available memory.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations
#include <linux/kfd_ioctl.h>

#include "thunk/api_guard.h"
#include "thunk/hsakmt_ext.h"

using namespace rocref::thunk;

namespace {

HSAKMT_STATUS ioctl_status(Process& p, unsigned long request, void* args) {
  return p.transport->ioctl(p.kfd_fd, request, args) == 0 ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_ERROR;
}

}  // namespace

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtGetClockCounters(HSAuint32 NodeId, HsaClockCounters* Counters) {
  ROCREF_THUNK_LOCK_OPEN(p);
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (!Counters) return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_get_clock_counters_args args{};
  args.gpu_id = gpu_id;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &args) != 0) return HSAKMT_STATUS_ERROR;
  Counters->GPUClockCounter = args.gpu_clock_counter;
  Counters->CPUClockCounter = args.cpu_clock_counter;
  Counters->SystemClockCounter = args.system_clock_counter;
  Counters->SystemClockFrequencyHz = args.system_clock_freq;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetXNACKMode(HSAint32 enable) {
  ROCREF_THUNK_LOCK_OPEN(p);
  kfd_ioctl_set_xnack_mode_args args{};
  args.xnack_enabled = enable;
  return ioctl_status(p, AMDKFD_IOC_SET_XNACK_MODE, &args);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetXNACKMode(HSAint32* enable) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!enable) return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_set_xnack_mode_args args{};
  args.xnack_enabled = -1;  // a negative value queries
  const HSAKMT_STATUS st = ioctl_status(p, AMDKFD_IOC_SET_XNACK_MODE, &args);
  if (st == HSAKMT_STATUS_SUCCESS) *enable = args.xnack_enabled;
  return st;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetTrapHandler(HSAuint32 NodeId, void* TrapHandlerBaseAddress,
                                             HSAuint64 TrapHandlerSizeInBytes, void* TrapBufferBaseAddress,
                                             HSAuint64 TrapBufferSizeInBytes) {
  (void)TrapHandlerSizeInBytes;
  (void)TrapBufferSizeInBytes;
  ROCREF_THUNK_LOCK_OPEN(p);
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  kfd_ioctl_set_trap_handler_args args{};
  args.gpu_id = gpu_id;
  args.tba_addr = reinterpret_cast<uintptr_t>(TrapHandlerBaseAddress);
  args.tma_addr = reinterpret_cast<uintptr_t>(TrapBufferBaseAddress);
  return ioctl_status(p, AMDKFD_IOC_SET_TRAP_HANDLER, &args);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetTileConfig(HSAuint32 NodeId, HsaGpuTileConfig* config) {
  ROCREF_THUNK_LOCK_OPEN(p);
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (!config) return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_get_tile_config_args args{};
  args.gpu_id = gpu_id;
  args.tile_config_ptr = reinterpret_cast<uintptr_t>(config->TileConfig);
  args.macro_tile_config_ptr = reinterpret_cast<uintptr_t>(config->MacroTileConfig);
  args.num_tile_configs = config->NumTileConfigs;
  args.num_macro_tile_configs = config->NumMacroTileConfigs;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_GET_TILE_CONFIG, &args) != 0) return HSAKMT_STATUS_ERROR;
  config->NumTileConfigs = args.num_tile_configs;
  config->NumMacroTileConfigs = args.num_macro_tile_configs;
  config->GbAddrConfig = args.gb_addr_config;
  config->NumBanks = args.num_banks;
  config->NumRanks = args.num_ranks;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryPolicy(HSAuint32 Node, HSAuint32 DefaultPolicy, HSAuint32 AlternatePolicy,
                                              void* MemoryAddressAlternate, HSAuint64 MemorySizeInBytes) {
  ROCREF_THUNK_LOCK_OPEN(p);
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, Node, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (gpu_id == 0) return HSAKMT_STATUS_SUCCESS;  // nothing to set on a CPU node
  if (DefaultPolicy > KFD_IOC_CACHE_POLICY_NONCOHERENT || AlternatePolicy > KFD_IOC_CACHE_POLICY_NONCOHERENT)
    return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_set_memory_policy_args args{};
  args.gpu_id = gpu_id;
  args.default_policy = DefaultPolicy;
  args.alternate_policy = AlternatePolicy;
  args.alternate_aperture_base = reinterpret_cast<uintptr_t>(MemoryAddressAlternate);
  args.alternate_aperture_size = MemorySizeInBytes;
  return ioctl_status(p, AMDKFD_IOC_SET_MEMORY_POLICY, &args);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemory(HSAuint32 Node, HSAuint64* AvailableBytes) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!AvailableBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, Node, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;
  if (gpu_id == 0) return HSAKMT_STATUS_INVALID_NODE_UNIT;  // only GPU nodes have VRAM to report
  kfd_ioctl_get_available_memory_args args{};
  args.gpu_id = gpu_id;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_AVAILABLE_MEMORY, &args) != 0) return HSAKMT_STATUS_ERROR;
  *AvailableBytes = args.available;
  return HSAKMT_STATUS_SUCCESS;
}

// The debugger runtime interface needs DBG_TRAP, which upstream KFD 1.11 does not have:
// ROCR 5.2.3 accepts NOT_SUPPORTED and carries on.
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeEnable(void* rDebug, bool setupTtmp) {
  (void)rDebug;
  (void)setupTtmp;
  ROCREF_THUNK_LOCK_OPEN(p);
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeDisable(void) {
  ROCREF_THUNK_LOCK_OPEN(p);
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
