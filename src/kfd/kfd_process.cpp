// kfd/kfd_process.cpp - process release and the interrupt handler (IH ring drain).
#include "kfd/kfd_process.h"

#include "kfd/aql_hw_queue.h"
#include "kfd/device_state.h"

namespace rocref::kfd {

// KFD-PROC-3: closing /dev/kfd stops the queues, fails waiters, frees every buffer.
void DeviceState::release_process_locked(Process& p) {
  while (!p.queues.empty()) destroy_queue_locked(p, p.queues.begin()->first);
  while (!p.events.empty()) destroy_event_locked(p, p.events.begin()->first);
  for (auto& [idr, bo] : p.bos) {
    for (uint32_t g = 0; g < p.pdd.size(); ++g)
      if (bo.mapped_on & (1u << g)) p.pdd[g].vm->unmap(bo.va, bo.size);
    release_bo_memory_locked(bo);
  }
  quiesce_engines();  // KFD-MEM-10: pinned USERPTR views outlive every slice that used them
  p.bos.clear();
  svm_release_locked(p);
  for (ProcessDevice& pd : p.pdd) pd.vm->invalidate_tlb();
  p.signal_slots = nullptr;
  p.signal_slot_count = 0;
  p.own_event_page.reset();
}

void DeviceState::release_bo_memory_locked(const BufferObject& bo) {
  if (release_ipc_reference_locked(bo)) return;  // KFD-IPC-4
  if (bo.kind == BoKind::Vram) gpus[bo.gpu]->vram.release(bo.arena_offset, bo.size);
  if (bo.kind == BoKind::Gtt) gtt.release(bo.arena_offset, bo.size);
  unreserve_locked(bo.gpu, bo.charge);  // KFD-MEM-11: amdgpu_amdkfd_release_notify
}

void DeviceState::quiesce_engines() {
  for (auto& g : gpus) {
    g->hws.quiesce();
    g->sdma_hws.quiesce();
  }
}

void DeviceState::drain_interrupts() {
  if (!ih.pending()) return;
  std::lock_guard<std::mutex> lock(mu);
  drain_interrupts_locked();
}

// KFD-IRQ-1: interrupts are matched to their process by PASID; nothing crosses processes.
void DeviceState::drain_interrupts_locked() {
  std::vector<IhEntry> batch;
  batch.swap(ih_batch);  // a nested drain (none today) would start from an empty list
  ih.drain(batch);
  for (const IhEntry& e : batch) {
    Process* p = process_by_pasid(e.pasid);
    if (!p) continue;
    if (e.kind == IhEntry::Kind::Signal) {
      // kfd_signal_event_interrupt: a known id whose slot the GPU wrote, else scan every slot.
      auto it = p->events.find(e.event_id);
      const bool direct = it != p->events.end() && p->signal_slots && e.event_id < p->signal_slot_count &&
                          p->take_slot(e.event_id);
      if (direct) {
        signal_event_locked(*p, *it->second);
        continue;
      }
      if (!p->signal_slots) continue;
      for (auto& [id, ev] : p->events) {
        if (ev->type != KFD_IOC_EVENT_SIGNAL || id >= p->signal_slot_count) continue;
        if (!p->take_slot(id)) continue;
        signal_event_locked(*p, *ev);
      }
    } else if (e.kind == IhEntry::Kind::VmFault) {
      // KFD-FAULT-1: kfd_signal_vm_fault_event raises every memory event of the process.
      ++p->vm_faults;
      for (auto& [id, ev] : p->events) {
        if (ev->type != KFD_IOC_EVENT_MEMORY) continue;
        ev->memory = kfd_hsa_memory_exception_data{};
        ev->memory.failure.NotPresent = e.fault.not_present ? 1 : 0;
        ev->memory.failure.ReadOnly = e.fault.read_only ? 1 : 0;
        ev->memory.failure.NoExecute = e.fault.no_execute ? 1 : 0;
        ev->memory.va = e.fault.va;
        ev->memory.gpu_id = e.gpu_id;
        ev->memory.ErrorType = KFD_MEM_ERR_NO_RAS;
        signal_event_locked(*p, *ev);
      }
    }
  }
  batch.clear();
  ih_batch.swap(batch);
}

}  // namespace rocref::kfd
