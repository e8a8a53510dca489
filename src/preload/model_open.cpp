// preload/model_open.cpp - opens /dev/kfd or a render node in the KFD model.
#include "preload/model_open.h"

#include <fcntl.h>

#include <cerrno>

#include "kfd/kfd_device.h"
#include "preload/debug_log.h"
#include "preload/model_fds.h"
#include "preload/reentry.h"

namespace rocref::preload {

int open_model_device(const ResolvedPath& where, int flags) noexcept {
  ModelScope scope;
  auto& kfd = rocref::kfd::KfdDevice::instance();
  // PRE-OPEN-1: each open is a new model context, as each open of the real device is.
  const int model = where.kind == PathKind::Kfd ? kfd.open_kfd() : kfd.open_render(where.render_minor);
  debug_log("open %s%u -> model %d", where.kind == PathKind::Kfd ? "/dev/kfd" : "/dev/dri/renderD",
            where.kind == PathKind::Kfd ? 0u : where.render_minor, model);
  if (model < 0) {
    errno = -model;
    return -1;
  }
  const int fd = bind_model_fd(model, (flags & O_CLOEXEC) != 0);
  if (fd < 0) {
    const int saved = errno;
    kfd.close(model);
    errno = saved;
    return -1;
  }
  return fd;
}

}  // namespace rocref::preload
