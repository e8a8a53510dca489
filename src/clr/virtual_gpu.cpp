// clr/virtual_gpu.cpp - commands to AQL packets on the stream's queue (see virtual_gpu.h).
#include "clr/virtual_gpu.h"

#include <hsa/hsa_ext_amd.h>
#include <sched.h>

#include <atomic>
#include <cstring>
#include <string>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/kernel_object.h"
#include "clr/signal_pool.h"
#include "common/aql_protocol.h"
#include "common/copy_fill_kernels.h"
#include "common/trace.h"
#include "common/tsan_sync.h"

namespace rocref::clr {
namespace {

constexpr uint32_t kQueueSize = 1024;

// ROCclr's dispatch header: barrier bit (in-order stream), system-scope fences: the
// acquire makes the host's kernarg writes visible to the dispatch (AQL-FEN-6), the
// release makes its writes visible to the host that waits on its signal (AQL-FEN-3).
uint16_t header_for(hsa_packet_type_t type) {
  const uint32_t barrier = clr_mutant_active(ClrMutant::NoBarrierBit) ? 0u : 1u;
  const uint32_t acquire =
      clr_mutant_active(ClrMutant::AgentAcquireScope) ? HSA_FENCE_SCOPE_AGENT : HSA_FENCE_SCOPE_SYSTEM;
  const uint32_t release =
      clr_mutant_active(ClrMutant::AgentReleaseScope) ? HSA_FENCE_SCOPE_AGENT : HSA_FENCE_SCOPE_SYSTEM;
  return static_cast<uint16_t>((type << HSA_PACKET_HEADER_TYPE) | (barrier << HSA_PACKET_HEADER_BARRIER) |
                               (acquire << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                               (release << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

// The command layer's value domain for the protocol's step functions: concrete, and its
// planted doorbell bug (clr_mutant.h) asked through the protocol's own mutant point, so
// the bug takes the same branch of aql::producer_program as the protocol's mutant does.
// Without ROCREF_CLR_MUTANTS this is ConcreteDomain.
struct ClrDomain : aql::ConcreteDomain {
  static bool mutant(Mutant m) noexcept {
    if (m == Mutant::DoorbellBeforeHeader && clr_mutant_active(ClrMutant::DoorbellBeforeHeader)) return true;
    return aql::ConcreteDomain::mutant(m);
  }
};

}  // namespace

Expected<std::unique_ptr<VirtualGpu>, hsa_status_t> VirtualGpu::create(Device& device, Options options) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "VirtualGpu::create",
                    "hsa_queue_create size=" + std::to_string(kQueueSize) +
                        ", kernarg ring " + std::to_string(options.kernarg_ring_bytes) + " bytes");
  std::unique_ptr<VirtualGpu> gpu(new VirtualGpu(device));
  // The stream's one kernarg allocation; every launch takes a slice of it (none: every launch a one-off).
  if (options.kernarg_ring_bytes != 0) {
    const hsa_status_t status =
        hsa_amd_memory_pool_allocate(device.kernarg_pool(), options.kernarg_ring_bytes, 0, &gpu->kernarg_base_);
    if (status != HSA_STATUS_SUCCESS) return unexpected(status);
  }
  gpu->ring_.emplace(gpu->kernarg_base_, options.kernarg_ring_bytes);
  gpu->stats_.ring_bytes = gpu->ring_->capacity();
  // SINGLE: the stream lock, held from reservation to doorbell, makes submit() the one producer (AQL-IDX-7).
  const hsa_status_t status = hsa_queue_create(device.gpu(), kQueueSize, HSA_QUEUE_TYPE_SINGLE, on_queue_error,
                                               gpu.get(), UINT32_MAX, UINT32_MAX, &gpu->queue_);
  if (status != HSA_STATUS_SUCCESS) return unexpected(status);
  hsa_amd_profiling_set_profiler_enabled(gpu->queue_, 1);
  return gpu;
}

VirtualGpu::VirtualGpu(Device& device) : device_(device) {
  retired_.reserve(16);  // a launch retires one command in the steady state: no allocation per launch
}

SignalPool& VirtualGpu::pool() { return device_.signal_pool(); }

void VirtualGpu::on_queue_error(hsa_status_t status, hsa_queue_t*, void* data) {
  auto* self = static_cast<VirtualGpu*>(data);
  hsa_status_t expected = HSA_STATUS_SUCCESS;
  self->error_.compare_exchange_strong(expected, status, std::memory_order_acq_rel);
  ROCREF_TRACE_EVENT(trace::Layer::Clr, "queue error", "status=" + std::to_string(status));
}

hsa_status_t VirtualGpu::submit(const void* packet, const char* what, Pending pending) {
  std::unique_lock lock(mutex_);
  return submit_locked(packet, what, pending, lock);
}

hsa_status_t VirtualGpu::submit_locked(const void* packet, const char* what, const Pending& pending,
                                       std::unique_lock<Monitor>& lock) {
  if (hsa_status_t e = error(); e != HSA_STATUS_SUCCESS) {
    give_back_locked(pending);  // never submitted: nothing reads its slice or signal
    give_back_retired_locked();
    return e;
  }
  // The producer's steps through hsa.h, composed by the protocol's own producer
  // program (common/aql_protocol.h, AQL-SRC-2): reserve, wait for room, body, header,
  // doorbell, in the order (and with the full check, doorbell value and header store
  // order) that QueueRing, CachedProducer and the proofs share. The stream's lock, held
  // from the reservation to the doorbell, makes this the queue's one producer, so the
  // reservation is a plain load and store (AQL-IDX-7): no locked instruction per packet,
  // and ids are taken in the order the pending list records them.
  if (clr_mutant_active(ClrMutant::SubmitWithoutStreamLock)) lock.unlock();
  struct Ops {
    VirtualGpu& gpu;
    const void* packet;
    const char* what;
    const Pending& pending;
    hsa_queue_t* queue;
    bool locked;
    uint64_t id = 0;
    uint8_t* slot = nullptr;
    hsa_status_t status = HSA_STATUS_SUCCESS;  // a queue error while waiting ends the program
    void load_write_index() {
      id = hsa_queue_load_write_index_relaxed(queue);
      ROCREF_TRACE_EVENT(trace::Layer::Clr, "write index loaded", "id=" + std::to_string(id));
    }
    void store_write_index() { hsa_queue_store_write_index_relaxed(queue, id + 1); }
    // AQL-IDX-2: the slot is free once id - read_index < size (aql::room_for). The read index
    // only grows, so one seen earlier (acquire-loaded then) proves room as well as a new one;
    // the index is loaded again only when that one does not.
    void wait_for_room() {
      const uint64_t slots = clr_mutant_active(ClrMutant::FullRingOffByOne) ? queue->size + 1ull : queue->size;
      uint64_t read = gpu.read_index_seen_.load(std::memory_order_relaxed);
      if (!aql::room_for(ClrDomain{}, read, id, slots)) {
        while (!aql::room_for(ClrDomain{}, read = hsa_queue_load_read_index_scacquire(queue), id, slots)) {
          if (hsa_status_t e = gpu.error(); e != HSA_STATUS_SUCCESS) {
            status = e;
            return;
          }
          sched_yield();
        }
        gpu.read_index_seen_.store(read, std::memory_order_relaxed);
      }
      slot = static_cast<uint8_t*>(queue->base_address) + (id % queue->size) * 64;
    }
    uint32_t count() const { return status == HSA_STATUS_SUCCESS ? 1 : 0; }
    // AQL-PUB-2: bytes 4..63 before the header.
    void write_body(uint32_t) {
      std::memcpy(slot + 4, static_cast<const uint8_t*>(packet) + 4, 60);
      if (locked) {
        gpu.pending_.push_back(pending);
      } else {
        std::lock_guard lock(gpu.mutex_);
        gpu.pending_.push_back(pending);
      }
      ROCREF_TRACE_EVENT(trace::Layer::Clr, "AQL packet written", std::string(what) + " id=" + std::to_string(id));
    }
    // AQL-PUB-1: header and setup in one 32-bit store, release (aql::header_store_order).
    void publish(uint32_t) {
      uint32_t header_setup;
      std::memcpy(&header_setup, packet, sizeof header_setup);
      tsan::release(slot);  // the GPU model reads the slot through another mapping (common/tsan_sync.h)
      std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).store(header_setup,
                                                                            aql::header_store_order(ClrDomain{}));
      ROCREF_TRACE_EVENT(trace::Layer::Clr, "header release-stored", "id=" + std::to_string(id));
    }
    // AQL-DB-1, AQL-DB-3: the doorbell names the newest published packet (aql::doorbell_value).
    void ring_doorbell() {
      if (status != HSA_STATUS_SUCCESS) return;
      const uint64_t value = aql::doorbell_value(ClrDomain{}, id, uint64_t{queue->size});
      hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(value));
      ROCREF_TRACE_EVENT(trace::Layer::Clr, "doorbell rung", "value=" + std::to_string(value));
    }
  } ops{*this, packet, what, pending, queue_, lock.owns_lock()};
  aql::producer_program(ClrDomain{}, ops);
  if (!lock.owns_lock()) lock.lock();
  after_doorbell_locked();
  if (ops.status != HSA_STATUS_SUCCESS) {
    give_back_locked(pending);
    return ops.status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualGpu::launch(const KernelDispatch& d) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "KernelCommand", std::string(d.name));
  const uint64_t kernel_object =
      d.kernel_object != 0 ? d.kernel_object : kernel_object_for(d.kernel_id, static_cast<uint32_t>(d.args_size));
  if (kernel_object == 0) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  Pending pending;
  void* kernarg = nullptr;
  // One lock from the kernarg slice to the doorbell (the slow paths drop it while they wait).
  std::unique_lock lock(mutex_);
  if (hsa_status_t s = launch_resources(d.args_size, d.args_align, &kernarg, &pending, lock); s != HSA_STATUS_SUCCESS) {
    return s;
  }
  if (d.args_size != 0) {
    if (d.copy_args) {
      d.copy_args(kernarg, d.args);
    } else {
      std::memcpy(kernarg, d.args, d.args_size);
    }
  }
  hsa_kernel_dispatch_packet_t packet{};
  packet.header = header_for(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  packet.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  packet.workgroup_size_x = static_cast<uint16_t>(d.block.x);
  packet.workgroup_size_y = static_cast<uint16_t>(d.block.y);
  packet.workgroup_size_z = static_cast<uint16_t>(d.block.z);
  packet.grid_size_x = d.grid_groups.x * d.block.x;
  packet.grid_size_y = d.grid_groups.y * d.block.y;
  packet.grid_size_z = d.grid_groups.z * d.block.z;
  packet.group_segment_size = d.static_group_bytes + d.dynamic_group_bytes;  // HIP-LNC-8: dynamic adds to static
  packet.private_segment_size = d.private_bytes;
  packet.kernel_object = kernel_object;
  packet.kernarg_address = kernarg;
  packet.completion_signal = pending.signal;
  return submit_locked(&packet, "KERNEL_DISPATCH", pending, lock);
}

hsa_status_t VirtualGpu::launch_blit(uint64_t kernel_id, const char* name, const void* args, size_t args_size,
                                     size_t bytes) {
  // One work-item per chunk of the range, up to 256 per work-group.
  const auto items = static_cast<uint32_t>((bytes + copy_fill::kChunkBytes - 1) / copy_fill::kChunkBytes);
  const uint32_t block = items < 256 ? items : 256;
  KernelDispatch d;
  d.kernel_id = kernel_id;
  d.name = name;
  d.block = {block, 1, 1};
  d.grid_groups = {(items + block - 1) / block, 1, 1};
  d.args = args;
  d.args_size = args_size;
  return launch(d);
}

hsa_status_t VirtualGpu::copy(void* dst, const void* src, size_t size) {
  if (size == 0) return HSA_STATUS_SUCCESS;
  const copy_fill::CopyArgs args{reinterpret_cast<uint64_t>(dst), reinterpret_cast<uint64_t>(src), size};
  return launch_blit(copy_fill::copy_kernel_id(), copy_fill::kCopyName, &args, sizeof args, size);
}

hsa_status_t VirtualGpu::fill(void* dst, uint32_t pattern, uint32_t pattern_bytes, size_t size) {
  if (size == 0) return HSA_STATUS_SUCCESS;
  const copy_fill::FillArgs args{reinterpret_cast<uint64_t>(dst), size, pattern, pattern_bytes};
  return launch_blit(copy_fill::fill_kernel_id(), copy_fill::kFillName, &args, sizeof args, size);
}

hsa_status_t VirtualGpu::barrier_packet(hsa_signal_t dependency, Pending pending) {
  hsa_barrier_and_packet_t packet{};
  packet.header = header_for(HSA_PACKET_TYPE_BARRIER_AND);
  packet.dep_signal[0] = dependency;
  packet.completion_signal = pending.signal;
  return submit(&packet, "BARRIER_AND", pending);
}

hsa_status_t VirtualGpu::marker(hsa_signal_t* signal) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "MarkerCommand", "");
  Pending pending;
  if (hsa_status_t s = completion_signal(&pending); s != HSA_STATUS_SUCCESS) return s;
  pool().retain(pending.signal);  // the caller's reference; the command keeps its own
  if (hsa_status_t s = barrier_packet(hsa_signal_t{0}, pending); s != HSA_STATUS_SUCCESS) {
    pool().release(pending.signal);
    return s;
  }
  *signal = pending.signal;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t VirtualGpu::wait_for(hsa_signal_t dependency) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "WaitCommand", "");
  Pending pending;
  if (hsa_status_t s = completion_signal(&pending); s != HSA_STATUS_SUCCESS) return s;
  // The packet reads the dependency until it completes: no reuse before that.
  if (!clr_mutant_active(ClrMutant::DependencyNotHeld) && pool().retain(dependency)) pending.dependency = dependency;
  return barrier_packet(dependency, pending);
}

}  // namespace rocref::clr
