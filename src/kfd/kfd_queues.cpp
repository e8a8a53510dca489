// kfd/kfd_queues.cpp - CREATE/DESTROY/UPDATE_QUEUE and SET_CU_MASK.
//
// CREATE_QUEUE checks every argument before it changes anything (KFD-Q-1),
// takes a doorbell of the process's page, builds the MQD with the queue type's
// manager (kfd/mqd.h), makes the hardware queue from it and hands that to the
// hardware scheduler (KFD-Q-2): COMPUTE_AQL queues run on the packet processor,
// COMPUTE (PM4) queues on the PM4 queue, SDMA queues on the SDMA engine.
#include <linux/kfd_ioctl.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <vector>

#include "common/trace_checks.h"
#include "kfd/device_state.h"
#include "kfd/kfd_mutant.h"
#include "kfd/mqd.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

constexpr int kENOTSUPP = 524;  // the kernel-internal ENOTSUPP that amdkfd returns to user space
constexpr uint64_t kTaskSize = uint64_t{1} << 47;
constexpr uint32_t kMaxQueuesPerProcess = 1024;  // KFD_MAX_NUM_OF_QUEUES_PER_PROCESS

bool access_ok(uint64_t addr, uint64_t size) { return addr <= kTaskSize && size <= kTaskSize - addr; }

// KFD-Q-7: what the CP's registers can hold. CP_HQD_PQ_BASE (and SDMA's RB_BASE) take the ring
// address >> 8; the read and write pointers are 64-bit words the CP (and the GPU model)
// accesses atomically, so they must be naturally aligned. Anything else is -EINVAL here
// rather than a silently truncated address or a split atomic later.
constexpr uint64_t kRingBaseAlign = 256;
constexpr uint64_t kPointerAlign = 8;

}  // namespace

void DeviceState::destroy_queue_locked(Process& p, uint32_t id) {
  auto it = p.queues.find(id);
  if (it == p.queues.end()) return;
  if (it->second.hw) it->second.scheduler->remove(it->second.hw.get());  // never stepped again after this returns
  p.pdd[it->second.gpu].doorbell_used.reset(it->second.doorbell_index);
  p.queues.erase(it);
}

// KFD-HWS-6
void DeviceState::evict_process_queues_locked(Process& p) {
  ROCREF_CHECKED("KFD-HWS-6");
  if (p.queues_evicted++ > 0) return;  // already evicted: only counted
  for (auto& [id, q] : p.queues) {
    if (!q.hw) continue;
    q.hw->set_evicted(true);
    q.scheduler->unmap_now(q.hw.get());  // preempted now: its state is saved in its MQD
  }
}

int DeviceState::restore_process_queues_locked(Process& p) {
  ROCREF_CHECKED("KFD-HWS-6");
  if (p.queues_evicted == 0) return -EINVAL;
  if (kfd_mutant_active(KfdMutant::EvictionCountIgnored)) p.queues_evicted = 1;  // the planted bug
  if (--p.queues_evicted > 0) return 0;
  for (auto& [id, q] : p.queues) {
    if (q.hw) q.hw->set_evicted(false);
  }
  engines.channel().notify();
  return 0;
}

// KFD-Q-1, KFD-Q-2
int kfd_ioctl_create_queue(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_create_queue_args*>(c.args);
  DeviceState& d = c.dev;
  Process& p = c.p;
  // set_queue_properties_from_user
  ROCREF_CHECKED("KFD-Q-1");
  if (args->queue_percentage > KFD_MAX_QUEUE_PERCENTAGE) return -EINVAL;
  if (args->queue_priority > KFD_MAX_QUEUE_PRIORITY) return -EINVAL;
  if (args->ring_base_address && !access_ok(args->ring_base_address, sizeof(uint64_t))) return -EFAULT;
  if (args->ring_size != 0 && !std::has_single_bit(args->ring_size)) return -EINVAL;
  if (!access_ok(args->read_pointer_address, sizeof(uint32_t))) return -EFAULT;
  if (!access_ok(args->write_pointer_address, sizeof(uint32_t))) return -EFAULT;
  if (!kfd_mutant_active(KfdMutant::QueueAlignmentUnchecked)) {  // KFD-Q-7
    ROCREF_CHECKED("KFD-Q-7");
    if (args->ring_base_address % kRingBaseAlign != 0) return -EINVAL;
    if (args->read_pointer_address % kPointerAlign != 0 || args->write_pointer_address % kPointerAlign != 0)
      return -EINVAL;
  }
  if (args->eop_buffer_address && !access_ok(args->eop_buffer_address, sizeof(uint32_t))) return -EFAULT;
  if (args->ctx_save_restore_address && !access_ok(args->ctx_save_restore_address, sizeof(uint32_t)))
    return -EFAULT;
  const uint32_t type = args->queue_type;
  const MqdManager* manager = mqd_manager(type);
  if (!manager) return -kENOTSUPP;
  const int gpu = d.gpu_index(args->gpu_id);  // KFD-TOPO-8: the queue runs on this GPU
  if (gpu < 0) return -EINVAL;
  ProcessDevice& pd = p.pdd[gpu];
  GpuState& g = *d.gpus[gpu];
  if (pd.drm_fd < 0) return -ESRCH;  // kfd_bind_process_to_device failed
  if (p.queues.size() >= kMaxQueuesPerProcess) return -ENOMEM;
  uint32_t qid = 0;
  while (p.queues.count(qid)) ++qid;
  uint32_t db = 0;
  while (db < kDoorbellsPerProcess && pd.doorbell_used.test(db)) ++db;
  if (db >= kDoorbellsPerProcess) return -ENOMEM;

  UserQueue q;
  q.id = qid;
  q.type = type;
  q.doorbell_index = db;
  q.gpu = static_cast<uint32_t>(gpu);
  q.props = *args;
  q.manager = manager;
  manager->init(q.mqd, *args, db, p.vmid);
  auto* doorbell = reinterpret_cast<uint64_t*>(pd.doorbells->at(uint64_t{db} * sizeof(uint64_t)));
  // The CP acts on doorbell writes; a value an earlier queue of this slot left in the page is no
  // request to the new one. The model's engines poll the word, so it starts at 0.
  std::atomic_ref<uint64_t>(*doorbell).store(0, std::memory_order_relaxed);
  const QueueContext ctx{p.pasid, pd.vm.get(), &d.ih, doorbell};
  q.hw = manager->make(ctx, q.mqd);
  // KFD-HWS-6: a queue made while its process is evicted starts evicted (amdkfd's
  // is_evicted = !!qpd->evicted), and runs once the process is restored.
  if (p.queues_evicted > 0) q.hw->set_evicted(true);
  q.scheduler = manager->sdma ? &g.sdma_hws : &g.hws;
  pd.doorbell_used.set(db);
  BoundHwQueue* hw = q.hw.get();
  HwScheduler* scheduler = q.scheduler;
  p.queues.emplace(qid, std::move(q));
  scheduler->add(hw);
  d.engines.channel().notify();
  args->queue_id = qid;
  // SOC15: the offset carries the doorbell's byte offset inside the process's 8 KiB page.
  args->doorbell_offset = kMmapTypeDoorbell | mmap_gpu_id(args->gpu_id) | (uint64_t{db} * sizeof(uint64_t));
  return 0;
}

int kfd_ioctl_destroy_queue(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_destroy_queue_args*>(c.args);
  if (!c.p.queues.count(args->queue_id)) return -EINVAL;
  c.dev.destroy_queue_locked(c.p, args->queue_id);
  return 0;
}

int kfd_ioctl_update_queue(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_update_queue_args*>(c.args);
  if (args->queue_percentage > KFD_MAX_QUEUE_PERCENTAGE) return -EINVAL;
  if (args->queue_priority > KFD_MAX_QUEUE_PRIORITY) return -EINVAL;
  if (args->ring_base_address && !access_ok(args->ring_base_address, sizeof(uint64_t))) return -EFAULT;
  if (args->ring_size != 0 && !std::has_single_bit(args->ring_size)) return -EINVAL;
  if (args->ring_base_address % kRingBaseAlign != 0) return -EINVAL;  // KFD-Q-7
  auto it = c.p.queues.find(args->queue_id);
  if (it == c.p.queues.end()) return -EFAULT;  // pqm_update_queue: "No queue %d exists"
  UserQueue& q = it->second;
  q.props.ring_base_address = args->ring_base_address;
  q.props.ring_size = args->ring_size;
  q.props.queue_percentage = args->queue_percentage;
  q.props.queue_priority = args->queue_priority;
  // KFD-Q-4: the MQD again, pipe priority included, then the hardware queue takes it (KFD-Q-9:
  // a PM4 queue its new ring too, and disabled by a null ring, size 0 or percentage 0).
  q.manager->update(q.mqd, *args);
  q.hw->apply(q.mqd);
  c.dev.engines.channel().notify();
  return 0;
}

int kfd_ioctl_set_cu_mask(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_set_cu_mask_args*>(c.args);
  constexpr uint32_t kMaxCus = 1024;
  if (args->num_cu_mask % 32 != 0) return -EINVAL;
  if (args->num_cu_mask == 0) return -EINVAL;
  const uint32_t bits = std::min(args->num_cu_mask, kMaxCus);  // bits past 1024 are dropped
  std::vector<uint32_t> mask(bits / 32);
  if (copy_from_user(mask.data(), args->cu_mask_ptr, mask.size() * sizeof(uint32_t)) != 0) return -EFAULT;
  auto it = c.p.queues.find(args->queue_id);
  if (it == c.p.queues.end()) return -EFAULT;
  it->second.mqd.compute_static_thread_mgmt = std::move(mask);
  return 0;
}

int kfd_ioctl_get_queue_wave_state(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_get_queue_wave_state_args*>(c.args);
  if (!c.p.queues.count(args->queue_id)) return -EINVAL;
  return -EINVAL;  // no CWSR in the model: get_wave_state is unavailable, as on a CWSR-disabled GPU
}

int kfd_ioctl_alloc_queue_gws(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_alloc_queue_gws_args*>(c.args);
  if (!c.p.queues.count(args->queue_id)) return -EINVAL;
  return -ENODEV;  // gfx900 has no GWS (topology num_gws 0)
}

}  // namespace rocref::kfd
