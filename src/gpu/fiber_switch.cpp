// gpu/fiber_switch.cpp - register-only stack switch on x86-64, ucontext elsewhere.
#include "gpu/fiber_switch.h"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
// rocref_gpu_fiber_switch(void** save_sp, void* load_sp): System V callee-saved
// registers (rbx, rbp, r12-r15) and the x87 control word and MXCSR, which the
// ABI also makes callee-saved, are pushed on the current stack; the stack
// pointer is swapped; the other side's are popped; ret resumes it.
asm(R"(
  .text
  .globl rocref_gpu_fiber_switch
  .hidden rocref_gpu_fiber_switch
  .type rocref_gpu_fiber_switch, @function
rocref_gpu_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  fldcw (%rsp)
  ldmxcsr 8(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size rocref_gpu_fiber_switch, .-rocref_gpu_fiber_switch
)");
extern "C" void rocref_gpu_fiber_switch(void** save_sp, void* load_sp);
#endif

namespace rocref::gpu {

#if defined(__x86_64__)
void fiber_prepare(FiberContext& context, void* stack, size_t bytes, void (*entry)()) noexcept {
  auto top = (reinterpret_cast<uintptr_t>(stack) + bytes) & ~uintptr_t{15};
  auto* words = reinterpret_cast<uint64_t*>(top);
  // From the top: a null return address (unwinders stop there; entry never
  // returns), entry as the address `ret` jumps to, six zeroed registers, then
  // the control words. At entry rsp + 8 is 16-byte aligned, as after a call.
  words[-1] = 0;
  words[-2] = reinterpret_cast<uint64_t>(entry);
  for (int r = 3; r <= 8; ++r) words[-r] = 0;
  const uint32_t mxcsr = 0x1F80;  // all exceptions masked, round to nearest
  const uint16_t fpu_control = 0x037F;
  auto* control = reinterpret_cast<uint8_t*>(&words[-10]);
  std::memset(control, 0, 16);
  std::memcpy(control, &fpu_control, sizeof fpu_control);
  std::memcpy(control + 8, &mxcsr, sizeof mxcsr);
  context.sp = control;
}

void fiber_switch(FiberContext& from, FiberContext& to) noexcept { rocref_gpu_fiber_switch(&from.sp, to.sp); }
#else
void fiber_prepare(FiberContext& context, void* stack, size_t bytes, void (*entry)()) noexcept {
  getcontext(&context.context);
  context.context.uc_stack.ss_sp = stack;
  context.context.uc_stack.ss_size = bytes;
  context.context.uc_link = nullptr;
  makecontext(&context.context, entry, 0);
}

void fiber_switch(FiberContext& from, FiberContext& to) noexcept { swapcontext(&from.context, &to.context); }
#endif

}  // namespace rocref::gpu
