// preload/model_fds.cpp - the real-fd -> model-fd table (lock-free reads: ioctl is the hot path).
#include "preload/model_fds.h"

#include <sys/mman.h>

#include <atomic>
#include <cerrno>

#include "kfd/kfd_device.h"
#include "preload/real_calls.h"

namespace rocref::preload {
namespace {
// Zero-initialised static storage: valid before any constructor runs. Stored as model_fd + 1.
std::atomic<int> g_table[kMaxTrackedFd];
std::atomic<bool> g_used{false};
// Real descriptors per model descriptor, by model_fd - KfdDevice::kFirstFd. A model descriptor
// past the table never counts more than its first real descriptor (duplicates then close it).
constexpr int kTrackedModelFds = 1 << 16;
std::atomic<int> g_refs[kTrackedModelFds];

std::atomic<int>* refs_of(int model_fd) noexcept {
  const int i = model_fd - kfd::KfdDevice::kFirstFd;
  return i >= 0 && i < kTrackedModelFds ? &g_refs[i] : nullptr;
}
}  // namespace

int model_fd_of(int real_fd) noexcept {
  if (real_fd < 0 || real_fd >= kMaxTrackedFd) return -1;
  return g_table[real_fd].load(std::memory_order_acquire) - 1;
}

int bind_model_fd(int model_fd, bool cloexec) noexcept {
  const int fd = ::memfd_create("rocref-kfd", cloexec ? MFD_CLOEXEC : 0);
  if (fd < 0) return -1;
  if (fd >= kMaxTrackedFd) {
    real::close(fd);
    errno = EMFILE;
    return -1;
  }
  g_used.store(true, std::memory_order_release);
  if (std::atomic<int>* refs = refs_of(model_fd)) refs->store(1, std::memory_order_relaxed);
  g_table[fd].store(model_fd + 1, std::memory_order_release);
  return fd;
}

void share_model_fd(int real_fd, int model_fd) noexcept {
  if (real_fd < 0 || real_fd >= kMaxTrackedFd) return;
  if (std::atomic<int>* refs = refs_of(model_fd)) refs->fetch_add(1, std::memory_order_relaxed);
  g_table[real_fd].store(model_fd + 1, std::memory_order_release);
}

bool model_in_use() noexcept { return g_used.load(std::memory_order_acquire); }

int unbind_model_fd(int real_fd) noexcept {
  if (real_fd < 0 || real_fd >= kMaxTrackedFd) return -1;
  const int model_fd = g_table[real_fd].exchange(0, std::memory_order_acq_rel) - 1;
  if (model_fd < 0) return -1;
  std::atomic<int>* refs = refs_of(model_fd);
  return refs == nullptr || refs->fetch_sub(1, std::memory_order_acq_rel) == 1 ? model_fd : -1;
}

}  // namespace rocref::preload
