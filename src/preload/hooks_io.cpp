// preload/hooks_io.cpp - close, ioctl, mmap and munmap of model descriptors and mappings.
//
// ioctl and mmap on a model descriptor are answered by the KFD model with the
// real request numbers, argument structs and errno values (PRE-IO-1); a model
// mapping is unmapped by the model (PRE-IO-2); a duplicate of a model descriptor stands for the
// same model descriptor (PRE-FD-2); all else passes through.
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdarg>

#include "kfd/kfd_device.h"
#include "preload/debug_log.h"
#include "preload/ioctl_fds.h"
#include "preload/model_fds.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rp = rocref::preload;

namespace {

void* do_mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  if (!rp::inside_model()) {
    const int model = rp::model_fd_of(fd);
    if (model >= 0) {
      rp::ModelScope scope;
      const auto r = rocref::kfd::KfdDevice::instance().mmap(addr, length, prot, flags, model, offset);
      const int error = r ? 0 : r.error();
      void* p = r.value_or(nullptr);
      if (p == nullptr || p == MAP_FAILED) {
        errno = error < 0 ? -error : (error > 0 ? error : EINVAL);
        rp::debug_log("mmap fd %d offset 0x%llx len 0x%zx -> errno %d", fd, (unsigned long long)offset, length, errno);
        return MAP_FAILED;
      }
      rp::debug_log("mmap fd %d offset 0x%llx len 0x%zx -> %p", fd, (unsigned long long)offset, length, p);
      return p;
    }
  }
  return rp::real::mmap(addr, length, prot, flags, fd, offset);
}

// Closes the model descriptor `real_fd` stood for when it was the last one (close, or the
// implicit close of dup2/dup3's target).
void release_model_fd(int real_fd) {
  const int model = rp::unbind_model_fd(real_fd);
  if (model >= 0) {
    rp::ModelScope scope;
    rocref::kfd::KfdDevice::instance().close(model);
  }
}

// PRE-FD-2: `copy` (a successful dup of `original`) stands for the same model descriptor.
int record_duplicate(int original, int copy) {
  if (copy < 0 || copy == original || rp::inside_model()) return copy;
  const int model = rp::model_fd_of(original);
  if (model >= 0) rp::share_model_fd(copy, model);
  return copy;
}

// dup2/dup3: the target is closed first if open; a model descriptor it stood for goes with it.
int duplicate_onto(int original, int target, int result) {
  if (result < 0 || original == target || rp::inside_model()) return result;
  release_model_fd(target);
  return record_duplicate(original, result);
}

int do_fcntl(int fd, int cmd, unsigned long arg) {
  const int r = rp::real::fcntl(fd, cmd, arg);
  return (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) ? record_duplicate(fd, r) : r;
}

}  // namespace

extern "C" {

#define ROCREF_EXPORT __attribute__((visibility("default")))

ROCREF_EXPORT int close(int fd) {
  if (!rp::inside_model()) release_model_fd(fd);
  return rp::real::close(fd);
}

ROCREF_EXPORT int dup(int fd) { return record_duplicate(fd, rp::real::dup(fd)); }
ROCREF_EXPORT int dup2(int fd, int fd2) { return duplicate_onto(fd, fd2, rp::real::dup2(fd, fd2)); }
ROCREF_EXPORT int dup3(int fd, int fd2, int flags) { return duplicate_onto(fd, fd2, rp::real::dup3(fd, fd2, flags)); }
ROCREF_EXPORT int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  const unsigned long arg = va_arg(ap, unsigned long);  // an int or a pointer: glibc reads it so too
  va_end(ap);
  return do_fcntl(fd, cmd, arg);
}
ROCREF_EXPORT int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  const unsigned long arg = va_arg(ap, unsigned long);
  va_end(ap);
  return do_fcntl(fd, cmd, arg);
}

ROCREF_EXPORT int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  if (!rp::inside_model()) {
    const int model = rp::model_fd_of(fd);
    if (model >= 0) {
      rp::ModelScope scope;
      const int rc = rp::model_ioctl(model, request, arg);
      rp::debug_log("ioctl fd %d nr 0x%02lx size %lu -> %d", fd, request & 0xff, (request >> 16) & 0x3fff, rc);
      if (request == AMDKFD_IOC_CREATE_QUEUE && rc == 0 && rp::debug_enabled()) {
        const auto* q = static_cast<const kfd_ioctl_create_queue_args*>(arg);
        rp::debug_log("  queue %u type %u ring 0x%llx size %u", q->queue_id, q->queue_type,
                      static_cast<unsigned long long>(q->ring_base_address), q->ring_size);
      }
      if (rc < 0) {
        errno = -rc;
        return -1;
      }
      return rc;
    }
  }
  return rp::real::ioctl(fd, request, arg);
}

ROCREF_EXPORT void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return do_mmap(addr, length, prot, flags, fd, offset);
}
ROCREF_EXPORT void* mmap64(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  return do_mmap(addr, length, prot, flags, fd, offset);
}

ROCREF_EXPORT int munmap(void* addr, size_t length) {
  if (!rp::inside_model() && rp::model_in_use()) {
    rp::ModelScope scope;
    auto& kfd = rocref::kfd::KfdDevice::instance();
    if (kfd.owns_mapping(addr)) {
      const int rc = kfd.munmap(addr, length);
      if (rc < 0) {
        errno = -rc;
        return -1;
      }
      return rc;
    }
  }
  return rp::real::munmap(addr, length);
}

}  // extern "C"
