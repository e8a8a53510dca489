// kfd/kfd_process.h - what one open of /dev/kfd owns: VM, buffers, queues, events, doorbells.
//
// Mirrors amdkfd's kfd_process and, per GPU of the machine, kfd_process_device.
// Every field is guarded by the device lock (DeviceState::mu) except the
// hardware-queue objects, which the scheduler also reads under its own lock.
#pragma once

#include <atomic>

#include <linux/kfd_ioctl.h>

#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "gpu/vm/gpu_vm.h"
#include "kfd/bound_hw_queue.h"
#include "kfd/host_arena.h"
#include "kfd/kfd_abi.h"
#include "kfd/kfd_ipc.h"
#include "kfd/kfd_svm.h"
#include "kfd/mem_limit.h"
#include "kfd/mqd.h"
#include "kfd/userptr_pin.h"

namespace rocref::kfd {

enum class BoKind : uint8_t { Vram, Gtt, Userptr, Doorbell, MmioRemap };

struct BufferObject {
  uint32_t idr = 0;
  uint32_t flags = 0;        // KFD_IOC_ALLOC_MEM_FLAGS_*
  BoKind kind = BoKind::Vram;
  uint64_t va = 0;           // GPU VA (= host VA with mmap-based apertures)
  uint64_t size = 0;         // page rounded
  uint64_t arena_offset = 0; // VRAM / GTT
  uint8_t* host = nullptr;   // the host pages backing the buffer (what PTEs point at)
  uint64_t mmap_offset = 0;  // render-node offset (VRAM, GTT) or /dev/kfd offset (doorbell, MMIO)
  uint32_t gpu = 0;          // index of the GPU the buffer was allocated on (its handle's gpu_id)
  uint32_t mapped_on = 0;    // bit i: mapped into GPU i's VM of this process (peer access when i != gpu)
  bool mapped() const noexcept { return mapped_on != 0; }
  MemCharge charge;          // KFD-MEM-11: what the allocation reserved, given back at free
  std::shared_ptr<UserptrPin> pin;  // USERPTR: the pinned pages (host points into its view)
  std::shared_ptr<IpcObject> ipc;   // KFD-IPC-*: exported or imported: the pages are the object's
};

struct UserQueue {
  uint32_t id = 0;
  uint32_t type = 0;  // KFD_IOC_QUEUE_TYPE_*
  uint32_t doorbell_index = 0;
  uint32_t gpu = 0;  // index of the GPU the queue runs on
  kfd_ioctl_create_queue_args props{};
  const MqdManager* manager = nullptr;  // the type's init_mqd / update_mqd and hardware queue
  Mqd mqd;
  std::unique_ptr<BoundHwQueue> hw;  // made from the MQD: AQL, PM4 or SDMA hardware queue
  HwScheduler* scheduler = nullptr;  // the compute or the SDMA scheduler that runs hw
};

struct EventWaiter;

struct Event {
  uint32_t id = 0;
  uint32_t type = 0;
  bool auto_reset = false;
  bool signaled = false;
  uint64_t age = 1;  // incremented by every set (KFD-EVT-6)
  std::vector<EventWaiter*> waiters;
  kfd_hsa_memory_exception_data memory{};  // last VM fault, for KFD_IOC_EVENT_MEMORY
};

struct EventWaiter {
  Event* event = nullptr;  // null once the event is destroyed while waited on
  bool activated = false;
};

// kfd_process_device: the process on one GPU: that device's VM (bound by ACQUIRE_VM to a
// render node of the device) and its doorbell page.
struct ProcessDevice {
  std::unique_ptr<gpu::vm::GpuVm> vm;
  int drm_fd = -1;                       // render node bound by ACQUIRE_VM
  std::shared_ptr<HostArena> doorbells;  // 8 KiB, 1024 x 64-bit; user mappings keep it alive
  std::bitset<kDoorbellsPerProcess> doorbell_used;
};

struct Process {
  int fd = -1;
  bool closed = false;   // descriptor closed while an ioctl was still running
  int in_flight = 0;     // ioctls running on this process (deletion waits for 0)
  uint32_t pasid = 0;
  uint32_t vmid = 0;
  std::vector<ProcessDevice> pdd;        // by GPU index
  std::map<uint32_t, BufferObject> bos;  // idr -> buffer
  uint32_t next_idr = 1;
  std::map<uint32_t, UserQueue> queues;
  std::map<uint32_t, std::unique_ptr<Event>> events;
  uint64_t* signal_slots = nullptr;  // event page (user's GTT buffer or the driver's own)
  // The event page is shared with the GPU, which stores event ids into slots at any
  // time (even into a slot just recycled for a new event: a spurious fire, which
  // waiters tolerate by re-checking their signal). So the driver reads and resets
  // slots atomically too, as amdkfd does with READ_ONCE/WRITE_ONCE.
  void reset_slot(uint64_t id) const {
    std::atomic_ref<uint64_t>(signal_slots[id]).store(kUnsignaledEventSlot, std::memory_order_relaxed);
  }
  // Resets the slot; true when the GPU had written it since the last reset.
  bool take_slot(uint64_t id) const {
    return std::atomic_ref<uint64_t>(signal_slots[id]).exchange(kUnsignaledEventSlot, std::memory_order_acquire) !=
           kUnsignaledEventSlot;
  }
  uint64_t signal_slot_count = 0;
  bool signal_page_from_user = false;
  std::unique_ptr<HostArena> own_event_page;
  bool xnack_enabled = false;
  uint64_t scratch_backing_va = 0;
  uint64_t tba_addr = 0, tma_addr = 0;
  uint32_t default_policy = KFD_IOC_CACHE_POLICY_COHERENT;
  uint32_t alternate_policy = KFD_IOC_CACHE_POLICY_COHERENT;
  uint64_t vm_faults = 0;
  // KFD-HWS-6: qpd->evicted: evictions not yet restored; the queues run only at 0.
  uint32_t queues_evicted = 0;
  SvmRangeTable svm;  // AMDKFD_IOC_SVM ranges (kfd_svm.cpp)
};

}  // namespace rocref::kfd
