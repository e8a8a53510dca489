// preload/model_fds.h - real descriptors that stand for model descriptors of /dev/kfd and render nodes.
//
// Each model descriptor is backed by a real memfd, so whatever foreign code does
// with the number (fcntl, fstat, poll, close after fork) hits a real, harmless
// file; ioctl, mmap and close of it are answered by the KFD model (PRE-FD-1). Duplicates of
// one are model descriptors too; the model's closes with the last of them (PRE-FD-2).
#pragma once

namespace rocref::preload {

inline constexpr int kMaxTrackedFd = 1 << 16;

// -1 when `real_fd` is not a model descriptor.
int model_fd_of(int real_fd) noexcept;
// Opens a backing memfd, records the pair, returns the real descriptor (or -1, errno set).
int bind_model_fd(int model_fd, bool cloexec) noexcept;
// True once any model descriptor was opened in this process (until then munmap never asks the model).
bool model_in_use() noexcept;
// PRE-FD-2: records real_fd, a duplicate of a model descriptor (dup, dup2, dup3, fcntl
// F_DUPFD), as one more real descriptor standing for model_fd: the same open file.
void share_model_fd(int real_fd, int model_fd) noexcept;
// Forgets real_fd. Returns its model descriptor when real_fd was the last real descriptor
// standing for it (the caller closes it in the model), else -1.
int unbind_model_fd(int real_fd) noexcept;

}  // namespace rocref::preload
