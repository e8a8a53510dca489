// clr/kernarg_ring.h - one stream's kernarg ring: per-dispatch slices of one buffer.
//
// ROCclr's kernarg pool role (roc::VirtualGPU::allocKernArg): one large
// kernarg-pool allocation per virtual GPU, carved into per-dispatch slices, so a
// launch costs a pointer bump instead of an allocation through the KFD. Slices
// are handed out in ring order and wrap at the end. A slice stays live until
// release(): the owner calls it once the dispatch that reads the slice has
// completed (its completion signal reached 0), in any order. Space is reclaimed
// from the oldest slice on, so a slice released out of order waits for the
// older ones: allocate() never returns bytes of a live slice.
//
// Plain data structure, no HSA calls and no lock: the owner serializes calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace rocref::clr {

class KernargRing {
 public:
  // The HSA kernarg segment is 16-byte aligned; every slice starts and ends on it.
  static constexpr size_t kMinAlign = 16;

  struct Slice {
    void* address = nullptr;
    uint64_t ticket = 0;  // names the slice in release()
    size_t offset = 0;    // from the ring's base
    bool reused = false;  // its bytes served an earlier dispatch (the trace says so)
  };

  // `base` must stay valid for the ring's lifetime; `bytes` is rounded down to kMinAlign.
  KernargRing(void* base, size_t bytes) noexcept;

  // `size` bytes at an address aligned to max(align, 16) (align: a power of two),
  // or nullopt while live slices leave no room. Size 0 takes one granule.
  std::optional<Slice> allocate(size_t size, size_t align);
  // Whether the request fits an empty ring; if not, it never will (one-off allocation).
  bool fits(size_t size, size_t align) const noexcept;
  // The dispatch using the slice completed. False for an unknown or released ticket.
  bool release(uint64_t ticket) noexcept;

  size_t capacity() const noexcept { return capacity_; }
  size_t live_slices() const noexcept { return slices_.size(); }
  // Times allocation went back to the start of the buffer (for the trace and tests).
  uint64_t wraps() const noexcept { return wraps_; }

 private:
  struct Record {
    size_t begin, end;  // byte offsets; end is exclusive
    bool released;
  };
  size_t aligned(size_t offset, size_t align) const noexcept;

  uintptr_t base_;
  size_t capacity_;
  std::deque<Record> slices_;  // live slices, oldest first; ticket = first_ticket_ + index
  uint64_t first_ticket_ = 0;
  uint64_t wraps_ = 0;
  size_t high_water_ = 0;  // end of the highest byte ever handed out
};

}  // namespace rocref::clr
