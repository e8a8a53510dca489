// kfd/off_stack_call.h - runs driver work off the calling thread's stack.
//
// The KFD model runs on the thread that made the ioctl, where the kernel would run on a
// stack of its own. Work that copies the application's pages and maps something else over
// them (USERPTR registration, kfd/userptr_pin.h) cannot run there when the pages hold the
// calling thread's live stack frames: a store the call chain makes between the copy and the
// remap would be lost. run_off_own_stack runs such work on a helper thread, and starts it only
// once the calling thread is blocked in a futex system call, where it writes nothing.
#pragma once

#include <cstdint>
#include <functional>

namespace rocref::kfd {

// fn's result; fn runs on another thread while this one waits without touching its stack (on
// this thread when no thread can be made).
int run_off_own_stack(const std::function<int()>& fn);

// Whether [lo, hi) overlaps [stack_start, stack_end) and that mapping holds the calling thread's
// current frame.
bool overlaps_own_stack(uint64_t lo, uint64_t hi, uint64_t stack_start, uint64_t stack_end) noexcept;

}  // namespace rocref::kfd
