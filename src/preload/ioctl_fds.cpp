// preload/ioctl_fds.cpp - translates descriptor fields of ioctl arguments for the model.
#include "preload/ioctl_fds.h"

#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <cstring>

#include "kfd/kfd_device.h"
#include "preload/model_fds.h"

namespace rocref::preload {

int model_ioctl(int model_fd, unsigned long request, void* arg) noexcept {
  auto& kfd = rocref::kfd::KfdDevice::instance();
  if (request == AMDKFD_IOC_ACQUIRE_VM && arg != nullptr) {
    // PRE-IO-3: a copy with the model's descriptor; ACQUIRE_VM writes nothing back.
    kfd_ioctl_acquire_vm_args args;
    std::memcpy(&args, arg, sizeof args);
    const int model_drm = model_fd_of(int(args.drm_fd));
    if (model_drm >= 0) args.drm_fd = uint32_t(model_drm);
    return kfd.ioctl(model_fd, request, &args);
  }
  return kfd.ioctl(model_fd, request, arg);
}

}  // namespace rocref::preload
