// thunk/api_queue.cpp - hsaKmtCreateQueue / UpdateQueue / DestroyQueue / SetQueueCUMask.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "thunk/api_guard.h"
#include "thunk/memory.h"
#include "common/trace.h"

namespace rocref::thunk {
namespace {

constexpr uint32_t kEopBytes = 4096;  // gfx8+ (libhsakmt EOP_BUFFER_SIZE)
constexpr uint32_t kLdsPerCu = 0x10000;
constexpr uint32_t kHwregPerCu = 0x1000;
constexpr uint32_t kCtlStackBytesPerWave = 8;  // gfx9 (12 on gfx10+)
constexpr uint32_t kDebuggerBytesPerWave = 32;

uint64_t page_align(uint64_t v) { return (v + kPageSize - 1) & ~(kPageSize - 1); }

struct CwsrSizes {
  uint32_t ctl_stack = 0;
  uint32_t ctx_save = 0;   // control stack + work-group data
  uint32_t debug = 0;
};

// libhsakmt's update_ctx_save_restore_size for gfx9 parts.
bool cwsr_sizes(const HsaNodeProperties& n, CwsrSizes* out) {
  if (!n.NumFComputeCores || !n.NumSIMDPerCU) return false;
  const uint32_t cu = n.NumFComputeCores / n.NumSIMDPerCU;
  const uint32_t waves = n.NumArrays ? std::min(cu * 40, n.NumShaderBanks / n.NumArrays * 512) : cu * 40;
  const uint32_t ctl = waves * kCtlStackBytesPerWave + 8;
  const uint64_t wg = uint64_t{cu} * (n.VGPRSizePerCU + n.SGPRSizePerCU + kLdsPerCu + kHwregPerCu);
  out->ctl_stack = static_cast<uint32_t>(page_align(sizeof(HsaUserContextSaveAreaHeader) + ctl));
  out->ctx_save = static_cast<uint32_t>(out->ctl_stack + page_align(wg));
  out->debug = (waves * kDebuggerBytesPerWave + 63) & ~63u;
  return true;
}

HsaMemFlags exec_flags(bool device_local) {
  HsaMemFlags f{};
  f.ui32.HostAccess = !device_local;
  f.ui32.ExecuteAccess = 1;
  f.ui32.NonPaged = device_local;
  f.ui32.CoarseGrain = device_local;
  return f;
}

// Queue memory the thunk owns: allocated, mapped to the queue's GPU, or nothing.
void* alloc_queue_memory(Process& p, uint32_t node, uint64_t size, bool device_local) {
  void* mem = nullptr;
  const uint64_t bytes = page_align(size);
  if (allocate_locked(p, node, bytes, exec_flags(device_local), &mem) != HSAKMT_STATUS_SUCCESS) return nullptr;
  Allocation* a = p.find_allocation(mem);
  if (map_locked(p, *a, {p.gpu(node)->gpu_id}) != HSAKMT_STATUS_SUCCESS) {
    free_locked(p, *a);
    return nullptr;
  }
  return mem;
}

void free_queue_memory(Process& p, void* mem) {
  if (!mem) return;
  if (Allocation* a = p.find_allocation(mem)) {
    unmap_locked(p, *a);
    free_locked(p, *a);
  }
}

void free_queue_record(Process& p, QueueRecord& q) {
  free_queue_memory(p, q.eop);
  free_queue_memory(p, q.ctx_save);
  free_queue_memory(p, q.pointers);
}

QueueRecord* find_queue(Process& p, HSA_QUEUEID id) {
  const auto it = p.queues.find(id);
  return it == p.queues.end() ? nullptr : it->second.get();
}

bool priority_valid(HSA_QUEUE_PRIORITY priority) {
  return priority >= HSA_QUEUE_PRIORITY_MINIMUM && priority <= HSA_QUEUE_PRIORITY_MAXIMUM;
}

}  // namespace
}  // namespace rocref::thunk

using namespace rocref::thunk;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueue(HSAuint32 NodeId, HSA_QUEUE_TYPE Type, HSAuint32 QueuePercentage,
                                          HSA_QUEUE_PRIORITY Priority, void* QueueAddress,
                                          HSAuint64 QueueSizeInBytes, HsaEvent* Event,
                                          HsaQueueResource* QueueResource) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtCreateQueue", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!priority_valid(Priority)) return HSAKMT_STATUS_INVALID_PARAMETER;
  uint32_t gpu_id = 0;
  const HSAKMT_STATUS st = validate_api_node(p, NodeId, &gpu_id);
  if (st != HSAKMT_STATUS_SUCCESS) return st;  // QUEUE-CREATE-1
  if (!QueueResource) return HSAKMT_STATUS_INVALID_PARAMETER;
  kfd_ioctl_create_queue_args args{};
  switch (Type) {
    case HSA_QUEUE_COMPUTE: args.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE; break;
    case HSA_QUEUE_SDMA: args.queue_type = KFD_IOC_QUEUE_TYPE_SDMA; break;
    case HSA_QUEUE_SDMA_XGMI: args.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_XGMI; break;
    case HSA_QUEUE_COMPUTE_AQL: args.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL; break;
    default: return HSAKMT_STATUS_INVALID_PARAMETER;
  }
  if (Event && !p.events.count(Event)) return HSAKMT_STATUS_INVALID_HANDLE;
  if (gpu_id == 0) return HSAKMT_STATUS_ERROR;  // a CPU node has no queues: the driver's EINVAL

  auto q = std::make_unique<QueueRecord>();
  q->node = NodeId;
  const HsaNodeProperties& props = p.topology.nodes[NodeId].props;
  const bool compute = args.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE ||
                       args.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
  if (args.queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) {
    // The thunk owns read/write pointers of non-AQL queues (libhsakmt's struct queue).
    q->pointers = alloc_queue_memory(p, NodeId, kPageSize, false);
    if (!q->pointers) return HSAKMT_STATUS_NO_MEMORY;
    QueueResource->QueueRptrValue = reinterpret_cast<uintptr_t>(q->pointers);
    QueueResource->QueueWptrValue = reinterpret_cast<uintptr_t>(q->pointers) + 8;
  }
  if (compute) {
    q->eop = alloc_queue_memory(p, NodeId, kEopBytes, true);
    if (!q->eop) {
      free_queue_record(p, *q);
      return HSAKMT_STATUS_NO_MEMORY;
    }
    args.eop_buffer_address = reinterpret_cast<uintptr_t>(q->eop);
    args.eop_buffer_size = kEopBytes;
    CwsrSizes cwsr;
    if (cwsr_sizes(props, &cwsr)) {
      q->ctx_save = alloc_queue_memory(p, NodeId, uint64_t{cwsr.ctx_save} + cwsr.debug, false);
      if (!q->ctx_save) {
        free_queue_record(p, *q);
        return HSAKMT_STATUS_NO_MEMORY;
      }
      auto* header = static_cast<HsaUserContextSaveAreaHeader*>(q->ctx_save);
      header->ErrorEventId = Event ? Event->EventId : 0;
      header->ErrorReason = QueueResource->ErrorReason;
      header->DebugOffset = cwsr.ctx_save;
      header->DebugSize = cwsr.debug;
      args.ctx_save_restore_address = reinterpret_cast<uintptr_t>(q->ctx_save);
      args.ctx_save_restore_size = cwsr.ctx_save;
      args.ctl_stack_size = cwsr.ctl_stack;
    }
  }
  args.gpu_id = gpu_id;
  args.read_pointer_address = QueueResource->QueueRptrValue;
  args.write_pointer_address = QueueResource->QueueWptrValue;
  args.ring_base_address = reinterpret_cast<uintptr_t>(QueueAddress);
  args.ring_size = static_cast<uint32_t>(QueueSizeInBytes);
  args.queue_percentage = QueuePercentage;
  args.queue_priority = kfd_priority(Priority);
  if (QueueSizeInBytes > UINT32_MAX ||
      p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_CREATE_QUEUE, &args) != 0) {
    free_queue_record(p, *q);
    return HSAKMT_STATUS_ERROR;
  }
  q->queue_id = args.queue_id;
  // QUEUE-DB-1: SOC15 doorbell offsets carry the in-page offset; the page is mapped once.
  const uint64_t page_offset = args.doorbell_offset & ~(kDoorbellPageBytes - 1);
  const uint64_t in_page = args.doorbell_offset & (kDoorbellPageBytes - 1);
  GpuNode& gpu = p.gpus.at(NodeId);
  if (map_doorbell_page_locked(p, gpu, page_offset) != HSAKMT_STATUS_SUCCESS) {
    kfd_ioctl_destroy_queue_args destroy{};
    destroy.queue_id = args.queue_id;
    p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_DESTROY_QUEUE, &destroy);
    free_queue_record(p, *q);
    return HSAKMT_STATUS_ERROR;
  }
  const HSA_QUEUEID id = reinterpret_cast<uintptr_t>(q.get());
  QueueResource->QueueId = id;
  QueueResource->QueueDoorBell = reinterpret_cast<uintptr_t>(gpu.doorbell_page) + in_page;
  p.queues.emplace(id, std::move(q));
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueue(HSA_QUEUEID QueueId, HSAuint32 QueuePercentage,
                                          HSA_QUEUE_PRIORITY Priority, void* QueueAddress, HSAuint64 QueueSize,
                                          HsaEvent* Event) {
  (void)Event;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!priority_valid(Priority)) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (!QueueId) return HSAKMT_STATUS_INVALID_PARAMETER;
  QueueRecord* q = find_queue(p, QueueId);
  if (!q) return HSAKMT_STATUS_INVALID_HANDLE;
  kfd_ioctl_update_queue_args args{};
  args.queue_id = q->queue_id;
  args.ring_base_address = reinterpret_cast<uintptr_t>(QueueAddress);
  args.ring_size = static_cast<uint32_t>(QueueSize);  // THUNK-QUEUE-1: the low 32 bits, as libhsakmt 5.2.3
  args.queue_percentage = QueuePercentage;
  args.queue_priority = kfd_priority(Priority);
  return p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_UPDATE_QUEUE, &args) == 0 ? HSAKMT_STATUS_SUCCESS
                                                                            : HSAKMT_STATUS_ERROR;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueue(HSA_QUEUEID QueueId) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Thunk, "hsaKmtDestroyQueue", "");
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!QueueId) return HSAKMT_STATUS_INVALID_PARAMETER;
  QueueRecord* q = find_queue(p, QueueId);
  if (!q) return HSAKMT_STATUS_INVALID_HANDLE;  // QUEUE-DESTROY-1 (libhsakmt would dereference it)
  kfd_ioctl_destroy_queue_args args{};
  args.queue_id = q->queue_id;
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_DESTROY_QUEUE, &args) != 0) return HSAKMT_STATUS_ERROR;
  free_queue_record(p, *q);
  p.queues.erase(QueueId);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetQueueCUMask(HSA_QUEUEID QueueId, HSAuint32 CUMaskCount, HSAuint32* QueueCUMask) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (CUMaskCount == 0 || !QueueCUMask || (CUMaskCount % 32) != 0) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (!QueueId) return HSAKMT_STATUS_INVALID_PARAMETER;
  QueueRecord* q = find_queue(p, QueueId);
  if (!q) return HSAKMT_STATUS_INVALID_HANDLE;
  kfd_ioctl_set_cu_mask_args args{};
  args.queue_id = q->queue_id;
  args.num_cu_mask = CUMaskCount;  // in bits, a multiple of 32
  args.cu_mask_ptr = reinterpret_cast<uintptr_t>(QueueCUMask);
  if (p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_SET_CU_MASK, &args) != 0) return HSAKMT_STATUS_ERROR;
  q->cu_mask_bits = CUMaskCount;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtAllocQueueGWS(HSA_QUEUEID QueueId, HSAuint32 nGWS, HSAuint32* firstGWS) {
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!QueueId) return HSAKMT_STATUS_INVALID_PARAMETER;
  QueueRecord* q = find_queue(p, QueueId);
  if (!q) return HSAKMT_STATUS_INVALID_HANDLE;
  kfd_ioctl_alloc_queue_gws_args args{};
  args.queue_id = q->queue_id;
  args.num_gws = nGWS;
  const int rc = p.transport->ioctl(p.kfd_fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &args);
  if (rc == -EINVAL) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (rc == -EBUSY) return HSAKMT_STATUS_OUT_OF_RESOURCES;
  if (rc == -ENODEV) return HSAKMT_STATUS_NOT_SUPPORTED;
  if (rc != 0) return HSAKMT_STATUS_ERROR;
  if (firstGWS) *firstGWS = args.first_gws;
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
