// thunk/api_event.cpp - hsaKmtCreateEvent / Destroy / Set / Reset / WaitOn*(_Ext).
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "thunk/api_guard.h"
#include "thunk/hsakmt_ext.h"
#include "thunk/memory.h"
#include "common/trace.h"

namespace rocref::thunk {
namespace {

// KFD 1.14 added signal_event_data { __u64 last_event_age; } at the start of kfd_event_data's
// union; the 1.11 header lacks the member, so the age is read and written at that offset.
constexpr size_t kEventAgeOffset = offsetof(kfd_event_data, memory_exception_data);
static_assert(kEventAgeOffset == 0 && sizeof(kfd_event_data) == 48);

bool is_system_event(HSA_EVENTTYPE type) {
  return type != HSA_EVENTTYPE_SIGNAL && type != HSA_EVENTTYPE_DEBUG_EVENT;
}

// EVT-PAGE-1: 32 KiB of uncached GTT, mapped to every GPU, handed to CREATE_EVENT once.
HSAKMT_STATUS ensure_events_page_locked(Process& p, uint64_t* handle) {
  if (p.gpus.empty()) return HSAKMT_STATUS_SUCCESS;  // APU/CPU-only: the driver supplies the page
  if (!p.events_page) {
    HsaMemFlags f{};
    f.ui32.HostAccess = 1;
    f.ui32.ExecuteAccess = 1;
    f.ui32.NonPaged = 1;
    f.ui32.Uncached = 1;
    void* mem = nullptr;
    // Node 0 is the CPU node on a dGPU system: the host (GTT) path, like libhsakmt.
    if (allocate_locked(p, 0, uint64_t{kEventLimit} * 8, f, &mem) != HSAKMT_STATUS_SUCCESS)
      return HSAKMT_STATUS_ERROR;
    if (map_locked(p, *p.find_allocation(mem), {}) != HSAKMT_STATUS_SUCCESS) {
      free_locked(p, *p.find_allocation(mem));
      return HSAKMT_STATUS_ERROR;
    }
    p.events_page = static_cast<uint64_t*>(mem);
    *handle = p.find_allocation(mem)->handle;
    return HSAKMT_STATUS_SUCCESS;
  }
  *handle = 0;  // only the first CREATE_EVENT passes the page
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS wait(HsaEvent* Events[], HSAuint32 NumEvents, bool WaitOnAll, HSAuint32 Milliseconds,
                   uint64_t* event_age) {
  Process& p = process();
  std::vector<kfd_event_data> data;
  int fd;
  Transport* transport;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    if (!p.is_open()) return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
    if (!Events) return HSAKMT_STATUS_INVALID_HANDLE;
    // More than the driver accepts (it answers ENOMEM) would only make a huge copy here.
    if (NumEvents > uint64_t{kEventLimit} * 4) return HSAKMT_STATUS_INVALID_PARAMETER;
    data.resize(NumEvents);
    for (HSAuint32 i = 0; i < NumEvents; ++i) {
      if (!Events[i] || !p.events.count(Events[i])) return HSAKMT_STATUS_INVALID_HANDLE;  // EVT-WAIT-2
      data[i].event_id = Events[i]->EventId;
      if (event_age) std::memcpy(reinterpret_cast<char*>(&data[i]) + kEventAgeOffset, &event_age[i], 8);
    }
    fd = p.kfd_fd;
    transport = p.transport;
  }
  // The lock is not held while blocked: SetEvent from another thread must get through.
  kfd_ioctl_wait_events_args args{};
  args.events_ptr = reinterpret_cast<uintptr_t>(data.data());
  args.num_events = NumEvents;
  args.wait_for_all = WaitOnAll;
  args.timeout = Milliseconds;
  if (transport->ioctl(fd, AMDKFD_IOC_WAIT_EVENTS, &args) != 0) return HSAKMT_STATUS_ERROR;
  if (args.wait_result == KFD_IOC_WAIT_RESULT_TIMEOUT) return HSAKMT_STATUS_WAIT_TIMEOUT;
  std::lock_guard<std::mutex> lock(p.mutex);
  HSAKMT_STATUS result = HSAKMT_STATUS_SUCCESS;
  for (HSAuint32 i = 0; i < NumEvents; ++i) {
    if (event_age) std::memcpy(&event_age[i], reinterpret_cast<char*>(&data[i]) + kEventAgeOffset, 8);
    if (!p.events.count(Events[i])) continue;  // destroyed while we waited
    const auto& mem = data[i].memory_exception_data;
    if (Events[i]->EventData.EventType != HSA_EVENTTYPE_MEMORY || mem.gpu_id == 0) continue;
    auto& fault = Events[i]->EventData.EventData.MemoryAccessFault;
    const auto node = p.node_of_gpu_id(mem.gpu_id);
    if (!node) {
      result = HSAKMT_STATUS_INVALID_NODE_UNIT;
      continue;
    }
    fault.NodeId = *node;
    fault.VirtualAddress = mem.va;
    fault.Failure.NotPresent = mem.failure.NotPresent;
    fault.Failure.ReadOnly = mem.failure.ReadOnly;
    fault.Failure.NoExecute = mem.failure.NoExecute;
    fault.Failure.Imprecise = mem.failure.imprecise;
    fault.Failure.ErrorType = mem.ErrorType;
    fault.Failure.ECC = mem.ErrorType == 1 || mem.ErrorType == 2;
    fault.Flags = HSA_EVENTID_MEMORY_FATAL_PROCESS;
  }
  return result;
}

}  // namespace
}  // namespace rocref::thunk

using namespace rocref::thunk;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateEvent(HsaEventDescriptor* EventDesc, bool ManualReset, bool IsSignaled,
                                          HsaEvent** Event) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtCreateEvent", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!EventDesc || !Event) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (EventDesc->EventType >= HSA_EVENTTYPE_MAXID) return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_create_event_args args{};
  args.event_type = EventDesc->EventType;
  args.node_id = EventDesc->NodeId;
  args.auto_reset = !ManualReset;
  uint64_t page_handle = 0;
  if (ensure_events_page_locked(p, &page_handle) != HSAKMT_STATUS_SUCCESS) return HSAKMT_STATUS_ERROR;
  args.event_page_offset = page_handle;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_CREATE_EVENT, &args) != 0) return HSAKMT_STATUS_ERROR;
  if (!p.events_page && args.event_page_offset > 0) {  // APU path: the driver's own page
    const auto page = p.transport->mmap(nullptr, uint64_t{kEventLimit} * 8, PROT_READ | PROT_WRITE, MAP_SHARED,
                                        p.kfd_fd, static_cast<off_t>(args.event_page_offset));
    p.events_page = static_cast<uint64_t*>(page.value_or(nullptr));
  }
  auto* e = new HsaEvent{};
  e->EventId = args.event_id;
  e->EventData.EventType = EventDesc->EventType;
  e->EventData.HWData1 = args.event_id;
  if (p.events_page && args.event_slot_index < kEventLimit)  // EVT-SLOT-1: the mailbox GPUs write
    e->EventData.HWData2 = reinterpret_cast<uintptr_t>(&p.events_page[args.event_slot_index]);
  e->EventData.HWData3 = args.event_trigger_data;
  e->EventData.EventData.SyncVar.SyncVar.UserData = EventDesc->SyncVar.SyncVar.UserData;
  e->EventData.EventData.SyncVar.SyncVarSize = EventDesc->SyncVar.SyncVarSize;
  if (IsSignaled && !is_system_event(e->EventData.EventType)) {
    kfd_ioctl_set_event_args set{};
    set.event_id = args.event_id;
    p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_SET_EVENT, &set);
  }
  p.events.insert(e);
  *Event = e;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyEvent(HsaEvent* Event) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!Event || !p.events.count(Event)) return HSAKMT_STATUS_INVALID_HANDLE;  // EVT-DESTROY-1
  kfd_ioctl_destroy_event_args args{};
  args.event_id = Event->EventId;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_DESTROY_EVENT, &args) != 0) return HSAKMT_STATUS_ERROR;
  p.events.erase(Event);
  delete Event;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetEvent(HsaEvent* Event) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!Event || !p.events.count(Event)) return HSAKMT_STATUS_INVALID_HANDLE;
  if (is_system_event(Event->EventData.EventType)) return HSAKMT_STATUS_ERROR;
  kfd_ioctl_set_event_args args{};
  args.event_id = Event->EventId;
  return p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_SET_EVENT, &args) == 0 ? HSAKMT_STATUS_SUCCESS
                                                                         : HSAKMT_STATUS_ERROR;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtResetEvent(HsaEvent* Event) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!Event || !p.events.count(Event)) return HSAKMT_STATUS_INVALID_HANDLE;
  if (is_system_event(Event->EventData.EventType)) return HSAKMT_STATUS_ERROR;
  kfd_ioctl_reset_event_args args{};
  args.event_id = Event->EventId;
  return p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_RESET_EVENT, &args) == 0 ? HSAKMT_STATUS_SUCCESS
                                                                           : HSAKMT_STATUS_ERROR;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtQueryEventState(HsaEvent* Event) {
  ROCREF_THUNK_LOCK_OPEN(p);
  return Event && p.events.count(Event) ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_HANDLE;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent(HsaEvent* Event, HSAuint32 Milliseconds) {
  if (!Event) return HSAKMT_STATUS_INVALID_HANDLE;
  return wait(&Event, 1, true, Milliseconds, nullptr);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_Ext(HsaEvent* Event, HSAuint32 Milliseconds, uint64_t* event_age) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtWaitOnEvent_Ext", "");
  if (!Event) return HSAKMT_STATUS_INVALID_HANDLE;
  return wait(&Event, 1, true, Milliseconds, event_age);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents(HsaEvent* Events[], HSAuint32 NumEvents, bool WaitOnAll,
                                                   HSAuint32 Milliseconds) {
  return wait(Events, NumEvents, WaitOnAll, Milliseconds, nullptr);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_Ext(HsaEvent* Events[], HSAuint32 NumEvents, bool WaitOnAll,
                                                       HSAuint32 Milliseconds, uint64_t* event_age) {
  return wait(Events, NumEvents, WaitOnAll, Milliseconds, event_age);
}

}  // extern "C"
