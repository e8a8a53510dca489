// common/tsan_sync.h - happens-before edges ThreadSanitizer cannot see by itself.
//
// The GPU model reaches host memory through GPUVM at the backing arena's own
// mapping: another virtual address of the same pages. Its atomic decrement of a
// completion signal and the host's acquire load of that signal then touch two
// addresses TSan takes as unrelated, so the ordering the signal gives (the
// packet's release fence, AQL-FEN-1, before the decrement; the host's scacquire
// load) is invisible to it, and so is the packet publication the other way (the
// producer's release store of the header, the processor's acquire load). So the
// GPU model releases on the signal's handle (its host address) before the
// decrement, and host acquire loads of a signal acquire on it; a producer
// releases on the packet slot's host address before its header store, and the
// packet processor acquires on that address after loading the header.
// Outside TSan builds these are no-ops.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define ROCREF_TSAN_SYNC 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ROCREF_TSAN_SYNC 1
#endif
#endif

#ifdef ROCREF_TSAN_SYNC
#include <sanitizer/tsan_interface.h>
#endif

namespace rocref::tsan {

inline void release(const void* address) noexcept {
#ifdef ROCREF_TSAN_SYNC
  __tsan_release(const_cast<void*>(address));
#else
  (void)address;
#endif
}

inline void acquire(const void* address) noexcept {
#ifdef ROCREF_TSAN_SYNC
  __tsan_acquire(const_cast<void*>(address));
#else
  (void)address;
#endif
}

}  // namespace rocref::tsan
