// hsa/blit_kernel.cpp - the copy and fill kernels' descriptors and their dispatch (see blit_kernel.h).
#include "hsa/blit_kernel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>

#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "common/copy_fill_kernels.h"
#include "common/kernel_abi.h"
#include "common/own_memory.h"
#include "hsa/agent.h"
#include "hsa/aql_queue.h"
#include "hsa/copy_rect.h"
#include "hsa/hsa_mutant.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

namespace rocref::hsa {
namespace {

namespace kabi = rocref::kernel_abi;

constexpr size_t kPage = 4096;
constexpr uint32_t kWorkGroup = 64;
constexpr uint32_t kMaxItems = 1024;
constexpr size_t kStagingBytes = 256 * 1024;  // copy_with_host's chunk
// The kernels' bodies are the command layer's too (common/copy_fill_kernels.h).
namespace cf = rocref::copy_fill;

MemoryRegion* system_region() {
  for (const auto& region : runtime()->cpu_agent()->owned_regions())
    if (region->kind() == MemoryRegion::Kind::System) return region.get();
  return nullptr;
}

// The runtime's value domain for the protocol's step functions: concrete, and its planted
// doorbell bug (hsa_mutant.h) asked through the protocol's own mutant point, so it takes the
// same branch of aql::producer_program as the protocol's mutant. Without ROCREF_HSA_MUTANTS
// this is ConcreteDomain.
struct BlitDomain : aql::ConcreteDomain {
  static bool mutant(Mutant m) noexcept {
    if (m == Mutant::DoorbellBeforeHeader && hsa_mutant_active(HsaMutant::BlitDoorbellBeforeHeader)) return true;
    return aql::ConcreteDomain::mutant(m);
  }
};

uint32_t items_for(uint64_t chunks) {
  const uint64_t items = std::clamp<uint64_t>(chunks, 1, kMaxItems);
  return static_cast<uint32_t>((items + kWorkGroup - 1) / kWorkGroup * kWorkGroup);
}

}  // namespace

BlitKernel::~BlitKernel() {
  delete queue_;
  Runtime* rt = runtime();
  if (done_ != nullptr) rt->signal_pool().destroy(done_);
  if (MemoryRegion* system = system_region()) {
    if (code_ != nullptr) system->free_pages(code_, kPage);
    if (kernarg_ != nullptr) system->free_pages(kernarg_, kPage);
    if (staging_ != nullptr) system->free_pages(staging_, kStagingBytes);
  }
}

hsa_status_t BlitKernel::ensure_ready_locked() {
  if (queue_ != nullptr) return HSA_STATUS_SUCCESS;
  Runtime* rt = runtime();
  MemoryRegion* system = system_region();
  if (system == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (code_ == nullptr && system->allocate_pages(kPage, &code_) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (kernarg_ == nullptr && system->allocate_pages(kPage, &kernarg_) != HSA_STATUS_SUCCESS) {
    kernarg_ = nullptr;
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  // [descriptor copy][code copy][descriptor fill][code fill], 64 bytes each.
  const uint64_t ids[2] = {cf::copy_kernel_id(), cf::fill_kernel_id()};
  const uint32_t sizes[2] = {sizeof(cf::CopyArgs), sizeof(cf::FillArgs)};
  for (int k = 0; k < 2; ++k) {
    kabi::KernelDescriptor descriptor;
    descriptor.kernarg_size = sizes[k];
    descriptor.kernel_code_entry_byte_offset = sizeof(kabi::KernelDescriptor);
    kabi::KernelCode code;
    code.id = ids[k];
    auto* base = static_cast<uint8_t*>(code_) + k * 2 * sizeof(kabi::KernelDescriptor);
    std::memcpy(base, &descriptor, sizeof descriptor);
    std::memcpy(base + sizeof descriptor, &code, sizeof code);
  }
  if (done_ == nullptr) done_ = rt->signal_pool().create(0, AMD_SIGNAL_KIND_USER, true);
  if (done_ == nullptr) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  return AqlQueue::create(gpu_, 64, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, &queue_);
}

hsa_status_t BlitKernel::dispatch_locked(int kernel, const void* args, size_t args_size, uint32_t items,
                                         TickSpan* span) {
  if (hsa_status_t status = ensure_ready_locked(); status != HSA_STATUS_SUCCESS) return status;
  std::memcpy(kernarg_, args, args_size);
  done_->store(1, MemoryOrder::Relaxed, true);
  hsa_kernel_dispatch_packet_t packet{};
  packet.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  packet.workgroup_size_x = kWorkGroup;
  packet.workgroup_size_y = packet.workgroup_size_z = 1;
  packet.grid_size_x = items;
  packet.grid_size_y = packet.grid_size_z = 1;
  packet.kernel_object = reinterpret_cast<uint64_t>(code_) + kernel * 2 * sizeof(kabi::KernelDescriptor);
  packet.kernarg_address = kernarg_;
  packet.completion_signal = done_->handle();
  // AQL-FEN-6: the kernarg segment was just written by the host, so the acquire is system
  // scope. AQL-FEN-3: the host reads the result after the signal, so is the release.
  const hsa_fence_scope_t acquire =
      hsa_mutant_active(HsaMutant::BlitAgentAcquireScope) ? HSA_FENCE_SCOPE_AGENT : HSA_FENCE_SCOPE_SYSTEM;
  const hsa_fence_scope_t release =
      hsa_mutant_active(HsaMutant::BlitAgentReleaseScope) ? HSA_FENCE_SCOPE_AGENT : HSA_FENCE_SCOPE_SYSTEM;
  packet.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true, acquire, release);
  // The protocol's producer program (common/aql_protocol.h) through QueueRing's steps. The
  // blit queue is SINGLE and mutex_ makes this its one producer: a plain reservation (AQL-IDX-7).
  aql::QueueRing(queue_->amd()).submit(&packet, aql::Reservation::Plain, aql::DoorbellStore::Plain, BlitDomain{});
  // A queue error never completes the signal: check between bounded waits.
  for (;;) {
    const sig::WaitResult result = done_->view().wait(HSA_SIGNAL_CONDITION_EQ, 0, std::chrono::milliseconds(50));
    if (result.satisfied) {
      if (span != nullptr)
        span->add(std::atomic_ref<uint64_t>(done_->amd.start_ts).load(std::memory_order_acquire),
                  std::atomic_ref<uint64_t>(done_->amd.end_ts).load(std::memory_order_acquire));
      return HSA_STATUS_SUCCESS;
    }
    if (queue_->in_error()) {
      // A GPU page fault ends this queue; the next blit starts on a new one.
      delete queue_;
      queue_ = nullptr;
      return HSA_STATUS_ERROR;
    }
  }
}

hsa_status_t BlitKernel::copy_locked(void* dst, const void* src, size_t size, TickSpan* span) {
  const cf::CopyArgs args{reinterpret_cast<uint64_t>(dst), reinterpret_cast<uint64_t>(src), size};
  return dispatch_locked(0, &args, sizeof args, items_for((size + cf::kChunkBytes - 1) / cf::kChunkBytes), span);
}

hsa_status_t BlitKernel::copy(void* dst, const void* src, size_t size, TickSpan* span) {
  std::lock_guard lock(mutex_);
  return copy_locked(dst, src, size, span);
}

hsa_status_t BlitKernel::copy_rect(const CopyRect& rect, TickSpan* span) {
  std::lock_guard lock(mutex_);
  hsa_status_t status = HSA_STATUS_SUCCESS;
  for_each_copy_rect_run(rect, [&](void* dst, const void* src, size_t bytes) {
    if (status == HSA_STATUS_SUCCESS) status = copy_locked(dst, src, bytes, span);
  });
  return status;
}

hsa_status_t BlitKernel::copy_with_host(void* dst, bool dst_is_host, const void* src, bool src_is_host, size_t size) {
  std::lock_guard lock(mutex_);
  if (staging_ == nullptr) {
    MemoryRegion* system = system_region();
    if (system == nullptr || system->allocate_pages(kStagingBytes, &staging_) != HSA_STATUS_SUCCESS) {
      staging_ = nullptr;
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  // ROCR locks the whole range before the GPU touches it: a destination the process cannot
  // write fails before anything is copied (its bytes are read and written back unchanged).
  for (size_t done = 0; dst_is_host && done < size; done += kStagingBytes) {
    const size_t n = std::min(kStagingBytes, size - done);
    void* at = static_cast<uint8_t*>(dst) + done;
    if (!read_own_memory(staging_, at, n) || !write_own_memory(at, staging_, n)) return HSA_STATUS_ERROR;
  }
  for (size_t done = 0; done < size; done += kStagingBytes) {
    const size_t n = std::min(kStagingBytes, size - done);
    const void* from = static_cast<const uint8_t*>(src) + done;
    void* to = static_cast<uint8_t*>(dst) + done;
    if (src_is_host && !read_own_memory(staging_, from, n)) return HSA_STATUS_ERROR;
    if (hsa_status_t s = copy_locked(dst_is_host ? staging_ : to, src_is_host ? staging_ : from, n);
        s != HSA_STATUS_SUCCESS) {
      return s;
    }
    if (dst_is_host && !write_own_memory(to, staging_, n)) return HSA_STATUS_ERROR;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t BlitKernel::fill(uint32_t* dst, uint32_t value, size_t count) {
  std::lock_guard lock(mutex_);
  const cf::FillArgs args{reinterpret_cast<uint64_t>(dst), count * sizeof(uint32_t), value, sizeof(uint32_t)};
  return dispatch_locked(1, &args, sizeof args, items_for((args.size + cf::kChunkBytes - 1) / cf::kChunkBytes));
}

}  // namespace rocref::hsa
