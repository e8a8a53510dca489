// gpu/fiber_switch.h - the bare stack switch under the work-group fibers.
//
// glibc's swapcontext saves and restores the signal mask with a system call
// on every switch (about 600 ns here, 2 per barrier and work-item); fibers of
// one work-group never change the mask, so on x86-64 a switch saves only the
// callee-saved registers and the FPU/SSE control words (about 10 ns). Other
// architectures use makecontext/swapcontext.
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace rocref::gpu {

struct FiberContext {
#if defined(__x86_64__)
  void* sp = nullptr;  // saved stack pointer; registers live on the stack
#else
  ucontext_t context{};
#endif
};

// Makes `context` start `entry` on [stack, stack + bytes) at its first switch-in.
// `entry` must never return: it switches away for the last time instead.
void fiber_prepare(FiberContext& context, void* stack, size_t bytes, void (*entry)()) noexcept;
// Saves the running context in `from` and continues `to`.
void fiber_switch(FiberContext& from, FiberContext& to) noexcept;

}  // namespace rocref::gpu
