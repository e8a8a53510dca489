// preload/ioctl_fds.h - ioctl arguments that carry file descriptors, seen from the model's side.
//
// Foreign code passes its own (real) descriptor numbers inside ioctl structs;
// the model knows its descriptors. ACQUIRE_VM's drm_fd is the one the thunk
// sends (PRE-IO-3): it is replaced by the model descriptor it stands for.
#pragma once

namespace rocref::preload {

// Calls KfdDevice::ioctl on `model_fd` with descriptor fields translated; 0 or -errno.
int model_ioctl(int model_fd, unsigned long request, void* arg) noexcept;

}  // namespace rocref::preload
