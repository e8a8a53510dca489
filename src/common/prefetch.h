// common/prefetch.h - ask for a cache line ahead of the access that needs it.
//
// The GPU model's packet processor reads lines the host wrote just before (the packet, the
// kernarg segment) and writes lines the host holds (the ring slot's header, the completion
// signal). Each such access waits for a transfer between cores; asked for early, the
// transfers overlap with the checks and the grid instead of adding to them. A prefetch
// changes no value and never faults, so it may name any address.
#pragma once

namespace rocref {

// For a write: the line comes exclusive (x86 PREFETCHW), so the later store or locked
// instruction finds it owned. Where PREFETCHW is not known the instruction is a NOP.
inline void prefetch_for_write(const void* address) noexcept {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(address)));
#else
  __builtin_prefetch(address, 1);
#endif
}

inline void prefetch_for_read(const void* address) noexcept { __builtin_prefetch(address, 0); }

}  // namespace rocref
