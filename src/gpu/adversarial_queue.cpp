// gpu/adversarial_queue.cpp - doorbell delivery, bounded delays and doorbell checks of one queue.
#include "gpu/adversarial_queue.h"

#include <hsa/amd_hsa_signal.h>

#include "common/aql_packet.h"
#include "common/memory_order.h"
#include "common/trace_checks.h"

namespace rocref::gpu {
namespace {

// Modular order of packet ids: how far `later` is past `earlier` (AQL-IDX-5).
int64_t ahead(uint64_t later, uint64_t earlier) noexcept { return static_cast<int64_t>(later - earlier); }

constexpr uint32_t kMaxDelays = 3;      // AQL-ADV-3: consecutive idle steps at most
constexpr uint32_t kMaxLateSteps = 4;   // AQL-ADV-2: steps a doorbell value may wait for delivery

}  // namespace

AdversarialQueue::AdversarialQueue(amd_queue_t* queue, MemoryAccess* memory) noexcept
    : queue_(queue), memory_(memory), chooser_(adversary::next_stream()) {
  if (queue_ != nullptr) delivered_ = atomic_field(queue_->read_dispatch_id).load(std::memory_order_acquire);
  fetched_.store(delivered_, std::memory_order_relaxed);
  last_checked_.store(delivered_ == 0 ? 0 : delivered_ - 1, std::memory_order_relaxed);
}

bool AdversarialQueue::bind() noexcept {
  if (bound_.load(std::memory_order_relaxed)) return true;
  if (queue_ == nullptr || memory_ == nullptr) return false;
  const uint64_t handle = queue_->hsa_queue.doorbell_signal.handle;
  const auto* signal = handle != 0 ? memory_->as<amd_signal_t>(handle, Access::Read) : nullptr;
  if (signal == nullptr) return false;
  const uint32_t size = queue_->hsa_queue.size;
  const auto ring = reinterpret_cast<uint64_t>(queue_->hsa_queue.base_address);
  const auto* bytes = static_cast<const uint8_t*>(memory_->translate(ring, uint64_t{size} * aql::kPacketBytes, Access::Read));
  // The doorbell page is a host page at the producer's own address (KFD-DB-3).
  const auto* bell = const_cast<const uint64_t*>(signal->hardware_doorbell_ptr);
  if (bytes == nullptr || bell == nullptr || size == 0) return false;
  doorbell_ = bell;
  ring_ = bytes;
  size_ = size;
  read_index_ = const_cast<const uint64_t*>(&queue_->read_dispatch_id);
  // A recycled doorbell slot still holds the last value of the queue that had it
  // (KFD-DB-*): that value is no ring of this queue, so it is neither checked nor delivered.
  doorbell(&bind_value_);
  last_sample_ = bind_value_;
  last_checked_.store(bind_value_, std::memory_order_relaxed);
  bound_.store(true, std::memory_order_release);
  return true;
}

bool AdversarialQueue::doorbell(uint64_t* value) const noexcept {
  *value = std::atomic_ref<const uint64_t>(*doorbell_).load(std::memory_order_acquire);
  return true;
}

bool AdversarialQueue::published(uint64_t id) const noexcept {
  const auto* slot = ring_ + (id & (size_ - 1)) * aql::kPacketBytes;
  const uint32_t word =
      std::atomic_ref<const uint32_t>(*reinterpret_cast<const uint32_t*>(slot)).load(std::memory_order_acquire);
  return aql::header_type(static_cast<uint16_t>(word)) != HSA_PACKET_TYPE_INVALID;
}

bool AdversarialQueue::rung(uint64_t id) noexcept {
  // No doorbell to read (a binding without one): launch as the fast mode does.
  if (!bind()) return true;
  if (ahead(id, delivered_) < 0 || scan_) return true;
  // AQL-ADV-2: the doorbell's value reaches the processor late (bounded), so
  // stores in between coalesce into the last one delivered.
  if (!chooser_.one_in(2, "deliver doorbell") && ++late_ < kMaxLateSteps) return false;
  late_ = 0;
  uint64_t value = 0;
  doorbell(&value);
  // A store seen since the last look is a ring: like the CP, fetch every published packet
  // until an INVALID header (stores from two producers may go backwards, AQL-DB-2).
  if (value != last_sample_) {
    last_sample_ = value;
    moved_ = true;
    scan_ = true;
  }
  // Unchanged since binding: a ring (the first may repeat a recycled value) only if the
  // packet it names is published.
  if (!moved_ && !published(value)) return false;
  if (ahead(value + 1, delivered_) > 0) delivered_ = value + 1;
  return ahead(id, delivered_) < 0 || scan_;
}

void AdversarialQueue::fetched_invalid() noexcept { scan_ = false; }

void AdversarialQueue::launched(uint64_t id) noexcept { fetched_.store(id + 1, std::memory_order_release); }

bool AdversarialQueue::delay() noexcept {
  if (delays_ < kMaxDelays && chooser_.one_in(4, "delay step")) {
    ++delays_;
    return true;
  }
  delays_ = 0;
  return false;
}

std::optional<std::string> AdversarialQueue::take_violation() {
  if (!has_violation_.load(std::memory_order_acquire)) return std::nullopt;
  std::lock_guard lock(violation_mu_);
  has_violation_.store(false, std::memory_order_relaxed);
  return std::move(violation_);
}

void AdversarialQueue::check_doorbell() noexcept {
  if (!bound_.load(std::memory_order_acquire)) return;
  uint64_t value = 0;
  doorbell(&value);
  if (last_checked_.exchange(value, std::memory_order_acq_rel) == value) return;  // not this queue's doorbell
  const uint64_t read = std::atomic_ref<const uint64_t>(*read_index_).load(std::memory_order_acquire);
  ROCREF_CHECKED("AQL-IDX-2");
  ROCREF_CHECKED("AQL-DB-1");
  std::string what;
  if (ahead(value, read) >= static_cast<int64_t>(size_)) {
    // AQL-IDX-2: a producer waits until id - read_index < size; a doorbell at or past
    // read_index + size names a packet written over one the processor has not read.
    what = "AQL-IDX-2: doorbell " + std::to_string(value) + " with read_index " + std::to_string(read) +
           " and " + std::to_string(size_) + " slots: a packet was written into a slot not yet consumed";
  } else {
    // An INVALID header the processor has not fetched yet: the doorbell came first
    // (a slot reset after its launch is excluded by the fetch position, released at launch).
    if (!published(value) && ahead(value, fetched_.load(std::memory_order_acquire)) >= 0) {
      what = "AQL-DB-1: doorbell rung with packet id " + std::to_string(value) +
             " before its header was published (read_index " + std::to_string(read) + ")";
    }
  }
  if (what.empty()) return;
  adversary::report(what);
  std::lock_guard lock(violation_mu_);
  if (!violation_) violation_ = what + adversary::seed_note();
  has_violation_.store(true, std::memory_order_release);
}

std::string AdversarialQueue::stuck(uint64_t read, bool idle_fetch) {
  if (!idle_fetch || !bound_.load(std::memory_order_relaxed)) return "";
  uint64_t value = 0;
  doorbell(&value);
  // Published, and some ring came since the queue was bound: a correct producer rings
  // after publishing, and a ring makes the processor fetch every published packet.
  if (!published(read) || (value == bind_value_ && !moved_)) return "";
  return "queue stream " + std::to_string(chooser_.stream()) + ": packet " + std::to_string(read) +
         " published and rung (doorbell " + std::to_string(value) + ") but not launched after " +
         std::to_string(chooser_.count()) + " choices";
}

}  // namespace rocref::gpu
