// preload/model_fds.h - real descriptors that stand for model descriptors of /dev/kfd and render nodes.
//
// Each model descriptor is backed by a real memfd, so whatever foreign code does
// with the number (fcntl, fstat, poll, close after fork) hits a real, harmless
// file; ioctl, mmap and close of it are answered by the KFD model (PRE-FD-1).
#pragma once

namespace rocref::preload {

inline constexpr int kMaxTrackedFd = 1 << 16;

// -1 when `real_fd` is not a model descriptor.
int model_fd_of(int real_fd) noexcept;
// Opens a backing memfd, records the pair, returns the real descriptor (or -1, errno set).
int bind_model_fd(int model_fd, bool cloexec) noexcept;
// True once any model descriptor was opened in this process (until then munmap never asks the model).
bool model_in_use() noexcept;
// Forgets the pair and returns the model descriptor, or -1.
int unbind_model_fd(int real_fd) noexcept;

}  // namespace rocref::preload
