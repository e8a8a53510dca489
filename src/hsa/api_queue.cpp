// hsa/api_queue.cpp - C entry points: queue creation, inactivation, destruction, indices, profiling.
//
// The index functions are the shared AQL core's single atomics on amd_queue_t
// (common/aql_ring.h, AQL-IDX-6); the public hsa_queue_t is amd_queue_t's first member.
#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <string>

#include "common/aql_ring.h"
#include "common/trace.h"
#include "common/trace_checks.h"
#include "hsa/agent.h"
#include "hsa/api_orders.h"
#include "hsa/api_rules.h"
#include "hsa/aql_queue.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

using rocref::MemoryOrder;
using rocref::aql::QueueRing;
using rocref::hsa::Agent;
using rocref::hsa::AqlQueue;
using rocref::hsa::Runtime;
using rocref::hsa::SignalObject;
using rocref::hsa::runtime;

namespace {

inline QueueRing ring(const hsa_queue_t* queue) noexcept {
  return QueueRing(reinterpret_cast<amd_queue_t*>(const_cast<hsa_queue_t*>(queue)));
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                      void (*callback)(hsa_status_t status, hsa_queue_t* source, void* data),
                                      void* data, uint32_t private_segment_size, uint32_t group_segment_size,
                                      hsa_queue_t** queue) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hsa, "hsa_queue_create", "size=" + std::to_string(size));
  (void)private_segment_size;  // hints; the model has no scratch or LDS limits to reserve
  (void)group_segment_size;
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // HSA-QUEUE-1: type and size first (INVALID_ARGUMENT), then whether the agent takes queues.
  ROCREF_CHECKED("HSA-QUEUE-1");
  if (type != HSA_QUEUE_TYPE_MULTI && type != HSA_QUEUE_TYPE_SINGLE && type != HSA_QUEUE_TYPE_COOPERATIVE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!rocref::hsa::queue_size_valid(size, Agent::kQueueMaxSize)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!object->is_gpu() || type == HSA_QUEUE_TYPE_COOPERATIVE) return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  AqlQueue* created = nullptr;
  const uint32_t effective = rocref::hsa::effective_queue_size(size, Agent::kQueueMinSize);
  if (hsa_status_t status = AqlQueue::create(*object, effective, type, callback, data, &created);
      status != HSA_STATUS_SUCCESS)
    return status;
  rt->register_queue(created);
  *queue = created->public_queue();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_queue_destroy(hsa_queue_t* queue) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  AqlQueue* object = rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  rt->unregister_queue(object);
  delete object;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_queue_inactivate(hsa_queue_t* queue) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  AqlQueue* object = rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  return object->inactivate();
}

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue, int enable) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  AqlQueue* object = rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  object->set_profiling(enable != 0);
  return HSA_STATUS_SUCCESS;
}

// HSA-PROF-1: start/end are the GPU clock ticks the command processor wrote, as system time.
hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t* time) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* object = rt->find_agent(agent);
  if (object == nullptr || !object->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  SignalObject* s = rt->find_signal(signal);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const uint64_t start = std::atomic_ref<uint64_t>(s->amd.start_ts).load(std::memory_order_acquire);
  const uint64_t end = std::atomic_ref<uint64_t>(s->amd.end_ts).load(std::memory_order_acquire);
  rt->timestamps_from_gpu_ticks(*object, start, end, &time->start, &time->end);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               const uint32_t* cu_mask) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  AqlQueue* object = queue == nullptr ? nullptr : rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if ((num_cu_mask_count != 0 && cu_mask == nullptr) || num_cu_mask_count % 32 != 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return object->set_cu_mask(num_cu_mask_count, cu_mask);
}

hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               uint32_t* cu_mask) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (cu_mask == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  AqlQueue* object = queue == nullptr ? nullptr : rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (num_cu_mask_count == 0 || num_cu_mask_count % 32 != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  object->cu_mask(num_cu_mask_count, cu_mask);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t* queue, hsa_amd_queue_priority_t priority) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (queue == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  AqlQueue* object = rt->find_queue(queue);
  if (object == nullptr) return HSA_STATUS_ERROR_INVALID_QUEUE;
  switch (priority) {
    case HSA_AMD_QUEUE_PRIORITY_LOW: return object->set_priority(HSA_QUEUE_PRIORITY_MINIMUM);
    case HSA_AMD_QUEUE_PRIORITY_NORMAL: return object->set_priority(HSA_QUEUE_PRIORITY_NORMAL);
    case HSA_AMD_QUEUE_PRIORITY_HIGH: return object->set_priority(HSA_QUEUE_PRIORITY_MAXIMUM);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// --- indices: every order hsa.h declares, legacy names included -------------------
// HSA-QUEUE-3: they return no status, so a null queue reads 0 and stores nothing.
uint64_t HSA_API hsa_queue_load_read_index_scacquire(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_read_index(MemoryOrder::Acquire);
}
uint64_t HSA_API hsa_queue_load_read_index_acquire(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_read_index(MemoryOrder::Acquire);
}
uint64_t HSA_API hsa_queue_load_read_index_relaxed(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_read_index(MemoryOrder::Relaxed);
}
uint64_t HSA_API hsa_queue_load_write_index_scacquire(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_write_index(MemoryOrder::Acquire);
}
uint64_t HSA_API hsa_queue_load_write_index_acquire(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_write_index(MemoryOrder::Acquire);
}
uint64_t HSA_API hsa_queue_load_write_index_relaxed(const hsa_queue_t* queue) {
  return queue == nullptr ? 0 : ring(queue).load_write_index(MemoryOrder::Relaxed);
}
void HSA_API hsa_queue_store_write_index_relaxed(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_write_index(value, MemoryOrder::Relaxed);
}
void HSA_API hsa_queue_store_write_index_screlease(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_write_index(value, MemoryOrder::Release);
}
void HSA_API hsa_queue_store_write_index_release(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_write_index(value, MemoryOrder::Release);
}
void HSA_API hsa_queue_store_read_index_relaxed(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_read_index(value, MemoryOrder::Relaxed);
}
void HSA_API hsa_queue_store_read_index_screlease(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_read_index(value, MemoryOrder::Release);
}
void HSA_API hsa_queue_store_read_index_release(const hsa_queue_t* queue, uint64_t value) {
  if (queue != nullptr) ring(queue).store_read_index(value, MemoryOrder::Release);
}

#define ROCREF_QUEUE_ADD(suffix, order)                                                       \
  uint64_t HSA_API hsa_queue_add_write_index_##suffix(const hsa_queue_t* queue, uint64_t value) { \
    return queue == nullptr ? 0 : ring(queue).add_write_index(value, order);                                          \
  }
#define ROCREF_QUEUE_CAS(suffix, order)                                                            \
  uint64_t HSA_API hsa_queue_cas_write_index_##suffix(const hsa_queue_t* queue, uint64_t expected, \
                                                      uint64_t value) {                            \
    return queue == nullptr ? 0 : ring(queue).cas_write_index(expected, value, order);                                   \
  }

ROCREF_HSA_RMW_ORDERS(ROCREF_QUEUE_ADD)
ROCREF_HSA_RMW_ORDERS(ROCREF_QUEUE_CAS)

}  // extern "C"
