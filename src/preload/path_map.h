// preload/path_map.h - which paths the interposer answers, and where each one really lives.
//
// /dev/kfd and /dev/dri/renderD<minor> are model devices. The sysfs topology
// (/sys/devices/virtual/kfd/kfd, /sys/class/kfd), /sys/module/amdgpu and
// /proc/modules are served from a private temporary directory tree filled from
// the KFD model on first use (PRE-FS-1), so every libc path to them (fopen,
// opendir + readdir, openat relative to an opened directory, stat) sees
// ordinary files. What the host kernel says about its CPUs, caches and NUMA
// nodes (/proc/cpuinfo, /sys/devices/system/cpu, /sys/devices/system/node) is
// replaced by the modelled CPU's files, /proc/self/status carries the model's
// CPU and node masks, and host devices the model does not have are absent
// (PRE-FS-3).
#pragma once

#include <cstdint>
#include <string>

namespace rocref::preload {

// Status: the process's own /proc status file, rewritten per open (proc_status.h).
// Absent: a host file the modelled machine does not have (ENOENT).
enum class PathKind : uint8_t { PassThrough, Kfd, Render, Redirect, Status, Absent };

struct ResolvedPath {
  PathKind kind = PathKind::PassThrough;
  uint32_t render_minor = 0;
  std::string host_path;  // Redirect: the file in the private tree
};

// Only absolute paths are matched; anything else passes through untouched.
ResolvedPath resolve_path(const char* path);

// True when `minor` is the drm_render_minor of a modeled GPU node.
bool is_model_render_minor(uint32_t minor);

}  // namespace rocref::preload
