// clr/kernarg_ring.cpp - slices of one kernarg buffer, reclaimed oldest first (see kernarg_ring.h).
#include "clr/kernarg_ring.h"

#include <algorithm>

#include "clr/clr_mutant.h"

namespace rocref::clr {
namespace {

bool power_of_two(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

size_t granules(size_t size) { return (std::max<size_t>(size, 1) + KernargRing::kMinAlign - 1) & ~(KernargRing::kMinAlign - 1); }

}  // namespace

KernargRing::KernargRing(void* base, size_t bytes) noexcept
    : base_(reinterpret_cast<uintptr_t>(base)), capacity_(bytes & ~(kMinAlign - 1)) {}

size_t KernargRing::aligned(size_t offset, size_t align) const noexcept {
  const uintptr_t address = (base_ + offset + align - 1) & ~static_cast<uintptr_t>(align - 1);
  return address - base_;
}

bool KernargRing::fits(size_t size, size_t align) const noexcept {
  if (!power_of_two(align) || size > capacity_) return false;
  return aligned(0, std::max(align, kMinAlign)) + granules(size) <= capacity_;
}

std::optional<KernargRing::Slice> KernargRing::allocate(size_t size, size_t align) {
  if (!fits(size, align)) return std::nullopt;
  align = clr_mutant_active(ClrMutant::AlignmentIgnored) ? kMinAlign : std::max(align, kMinAlign);
  size = granules(size);
  std::optional<size_t> at;
  if (slices_.empty()) {
    // Nothing live: start over at the base (keeps the hot bytes few and warm).
    at = aligned(0, align);
  } else {
    const size_t head = slices_.back().end;   // one past the newest slice
    const size_t tail = slices_.front().begin;  // the oldest live byte
    if (head > tail) {
      // Live bytes are [tail, head): room after head, else wrap to the start, before tail.
      if (const size_t a = aligned(head, align); a + size <= capacity_) {
        at = a;
      } else if (const size_t b = aligned(0, align);
                 b + size <= (clr_mutant_active(ClrMutant::WrapOverLiveSlices) ? capacity_ : tail)) {
        at = b;
        ++wraps_;
      }
    } else if (const size_t a = aligned(head, align); a + size <= tail) {
      at = a;  // wrapped: live bytes are [tail, end) and [0, head); room is [head, tail)
    }
  }
  if (!at) return std::nullopt;
  const uint64_t ticket = first_ticket_ + slices_.size();
  slices_.push_back(Record{*at, *at + size, false});
  const bool reused = *at < high_water_;
  high_water_ = std::max(high_water_, *at + size);
  return Slice{reinterpret_cast<void*>(base_ + *at), ticket, *at, reused};
}

bool KernargRing::release(uint64_t ticket) noexcept {
  if (ticket < first_ticket_ || ticket - first_ticket_ >= slices_.size()) return false;
  Record& r = slices_[ticket - first_ticket_];
  if (r.released) return false;
  r.released = true;
  // Space comes back only from the oldest slice on: the ring stays one contiguous live range.
  while (!slices_.empty() && slices_.front().released) {
    slices_.pop_front();
    ++first_ticket_;
  }
  return true;
}

}  // namespace rocref::clr
