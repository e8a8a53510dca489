// kfd/off_stack_call.cpp - driver work off the calling thread's stack (see off_stack_call.h).
#include "kfd/off_stack_call.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <thread>

namespace rocref::kfd {
namespace {

// Whether thread `tid` is inside the futex system call: the first field of
// /proc/self/task/TID/syscall is the number of the call it is blocked in. Raw system calls:
// the LD_PRELOAD interposer hooks open and close.
bool blocked_in_futex(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/syscall", static_cast<int>(tid));
  const int fd = static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
  if (fd < 0) return true;  // no way to ask (a restricted /proc): go on, as before this existed
  char text[32] = {};
  const ssize_t n = ::syscall(SYS_read, fd, text, sizeof text - 1);
  ::syscall(SYS_close, fd);
  return n > 0 && std::strtol(text, nullptr, 10) == SYS_futex;
}

}  // namespace

bool overlaps_own_stack(uint64_t lo, uint64_t hi, uint64_t stack_start, uint64_t stack_end) noexcept {
  const auto frame = reinterpret_cast<uint64_t>(__builtin_frame_address(0));
  return frame >= stack_start && frame < stack_end && lo < stack_end && hi > stack_start;
}

int run_off_own_stack(const std::function<int()>& fn) {
  // A private futex: keyed by address, so the wake still finds the waiter after fn has put
  // other pages (a memfd) under the word.
  std::atomic<uint32_t> done{0};
  int result = 0;
  const auto waiter = static_cast<pid_t>(::syscall(SYS_gettid));
  std::thread helper;
  try {
    helper = std::thread([&] {
      while (!blocked_in_futex(waiter)) sched_yield();
      result = fn();
      done.store(1, std::memory_order_release);
      ::syscall(SYS_futex, &done, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    });
  } catch (const std::system_error&) {
    return fn();
  }
  while (done.load(std::memory_order_acquire) == 0) {
    ::syscall(SYS_futex, &done, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
  }
  helper.join();
  return result;
}

}  // namespace rocref::kfd
