// kfd/kfd_ioctl_table.cpp - amdkfd_ioctls[] and the dispatcher of kfd_chardev.c.
//
// KFD-IOC-1: the table is indexed by the real numbers of linux/kfd_ioctl.h
// (1.11: 0x01..0x23) and, as ROCm's amdkfd does, by libhsakmt 5.2.3's
// out-of-tree range [AMDKFD_COMMAND_START_2, AMDKFD_COMMAND_END_2) after them,
// of which the model serves IPC_IMPORT/EXPORT_HANDLE (KFD-IPC-*); any other
// number (DBG_TRAP, CROSS_MEMORY_COPY, RLC_SPM among them) is -EINVAL, as the
// dispatcher answers (its retcode starts at -EINVAL): "not supported".
// KFD-IOC-2: "Do not trust userspace, use our own definition": the direction
// comes from the table; the size encoded in the request is the user's buffer
// size: the handler sees max(user, table) bytes, the user's part copied in
// (the rest zero), and exactly the user's size is copied back out.
#include <linux/kfd_ioctl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "common/kfd_ipc_abi.h"
#include "common/log.h"
#include "common/trace.h"
#include "common/trace_checks.h"
#include "kfd/device_state.h"
#include "kfd/kfd_abi.h"
#include "kfd/kfd_mutant.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

struct IoctlDesc {
  unsigned long cmd = 0;
  IoctlHandler func = nullptr;
  const char* name = nullptr;
};

// Row of a number: 0x01..0x22 as they are, then 0x80..0x84 (amdkfd's second range).
constexpr unsigned kRows = AMDKFD_COMMAND_END + (kfd_abi::kCommandEnd2 - kfd_abi::kCommandStart2);
constexpr int row_of(unsigned nr) noexcept {
  if (nr >= AMDKFD_COMMAND_START && nr < AMDKFD_COMMAND_END) return static_cast<int>(nr);
  if (nr >= kfd_abi::kCommandStart2 && nr < kfd_abi::kCommandEnd2)
    return static_cast<int>(AMDKFD_COMMAND_END + nr - kfd_abi::kCommandStart2);
  return -1;
}

#define ROCREF_KFD_IOCTL_DEF(ioctl, fn) \
  table[row_of(ioc_nr(ioctl))] = IoctlDesc { static_cast<unsigned long>(ioctl), fn, #ioctl }

struct IoctlTable {
  IoctlDesc table[kRows] = {};
  IoctlTable() {
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_VERSION, kfd_ioctl_get_version);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_CREATE_QUEUE, kfd_ioctl_create_queue);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DESTROY_QUEUE, kfd_ioctl_destroy_queue);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_MEMORY_POLICY, kfd_ioctl_set_memory_policy);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_CLOCK_COUNTERS, kfd_ioctl_get_clock_counters);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_PROCESS_APERTURES, kfd_ioctl_get_process_apertures);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_UPDATE_QUEUE, kfd_ioctl_update_queue);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_CREATE_EVENT, kfd_ioctl_create_event);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DESTROY_EVENT, kfd_ioctl_destroy_event);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_EVENT, kfd_ioctl_set_event);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_RESET_EVENT, kfd_ioctl_reset_event);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_WAIT_EVENTS, kfd_ioctl_wait_events);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DBG_REGISTER_DEPRECATED, kfd_ioctl_dbg_deprecated);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DBG_UNREGISTER_DEPRECATED, kfd_ioctl_dbg_deprecated);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DBG_ADDRESS_WATCH_DEPRECATED, kfd_ioctl_dbg_deprecated);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED, kfd_ioctl_dbg_deprecated);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, kfd_ioctl_set_scratch_backing_va);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_TILE_CONFIG, kfd_ioctl_get_tile_config);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_TRAP_HANDLER, kfd_ioctl_set_trap_handler);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, kfd_ioctl_get_process_apertures_new);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_ACQUIRE_VM, kfd_ioctl_acquire_vm);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, kfd_ioctl_alloc_memory_of_gpu);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_FREE_MEMORY_OF_GPU, kfd_ioctl_free_memory_of_gpu);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_MAP_MEMORY_TO_GPU, kfd_ioctl_map_memory_to_gpu);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, kfd_ioctl_unmap_memory_from_gpu);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_CU_MASK, kfd_ioctl_set_cu_mask);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_QUEUE_WAVE_STATE, kfd_ioctl_get_queue_wave_state);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_GET_DMABUF_INFO, kfd_ioctl_get_dmabuf_info);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_IMPORT_DMABUF, kfd_ioctl_import_dmabuf);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_ALLOC_QUEUE_GWS, kfd_ioctl_alloc_queue_gws);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SMI_EVENTS, kfd_ioctl_smi_events);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SVM, kfd_ioctl_svm);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_SET_XNACK_MODE, kfd_ioctl_set_xnack_mode);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_CRIU_OP, kfd_ioctl_criu_op);
    ROCREF_KFD_IOCTL_DEF(AMDKFD_IOC_AVAILABLE_MEMORY, kfd_ioctl_get_available_memory);
    table[row_of(ioc_nr(kfd_abi::kIocIpcImportHandle))] =
        IoctlDesc{kfd_abi::kIocIpcImportHandle, kfd_ioctl_ipc_import_handle, "AMDKFD_IOC_IPC_IMPORT_HANDLE"};
    table[row_of(ioc_nr(kfd_abi::kIocIpcExportHandle))] =
        IoctlDesc{kfd_abi::kIocIpcExportHandle, kfd_ioctl_ipc_export_handle, "AMDKFD_IOC_IPC_EXPORT_HANDLE"};
  }
};
#undef ROCREF_KFD_IOCTL_DEF

const IoctlTable& ioctl_table() {
  static const IoctlTable t;
  return t;
}

}  // namespace

int kfd_dispatch_ioctl(DeviceState& dev, Process& p, unsigned long request, void* arg,
                       std::unique_lock<std::mutex>& lock) {
  const unsigned nr = ioc_nr(request);
  ROCREF_CHECKED("KFD-IOC-1");
  const int row = row_of(nr);
  if (row < 0) return -EINVAL;  // KFD-IOC-1
  const IoctlDesc& desc = ioctl_table().table[row];
  if (!desc.func) return -EINVAL;

  const unsigned long cmd = desc.cmd;  // KFD-IOC-2: our definition, not the caller's
  ROCREF_CHECKED("KFD-IOC-2");
  const size_t usize = ioc_size(request);
  const size_t asize = std::max<size_t>(usize, ioc_size(cmd));
  std::vector<unsigned char> kdata(asize, 0);
  const uint64_t uarg = reinterpret_cast<uintptr_t>(arg);
  if (ioc_dir(cmd) & kIocWrite) {
    if (copy_from_user(kdata.data(), uarg, usize) != 0) return -EFAULT;
  }
  IoctlCall call{dev, p, kdata.data(), lock, asize};
  // "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU" is traced as "ALLOC_MEMORY_OF_GPU".
  ROCREF_TRACE_SPAN(trace::Layer::Kfd, std::string_view(desc.name).substr(11), "");
  int ret = desc.func(call);
  if (ioc_dir(cmd) & kIocRead) {
    const size_t out = kfd_mutant_active(KfdMutant::CopyOutWholeStruct) ? asize : usize;
    if (copy_to_user(uarg, kdata.data(), out) != 0) ret = -EFAULT;
  }
  // A refused ioctl is what user space sees as a failed call: a warning, as amdkfd's pr_debug/pr_err.
  if (ret < 0) ROCREF_LOG(log::kWarning, "kfd", "%s -> %d", desc.name, ret);
  return ret;
}

}  // namespace rocref::kfd
