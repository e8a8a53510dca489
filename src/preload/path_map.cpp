// preload/path_map.cpp - matches the device and sysfs paths the interposer answers.
#include "preload/path_map.h"

#include <algorithm>
#include <cstring>

#include "preload/sysfs_mirror.h"

namespace rocref::preload {
namespace {

// `path` is `prefix` or lies below it; returns the rest ("" or "/...").
bool under(const char* path, const char* prefix, const char** rest) {
  const size_t n = std::strlen(prefix);
  if (std::strncmp(path, prefix, n) != 0) return false;
  if (path[n] != '\0' && path[n] != '/') return false;
  *rest = path + n;
  return true;
}

}  // namespace

ResolvedPath resolve_path(const char* path) {
  ResolvedPath r;
  if (path == nullptr || path[0] != '/') return r;
  const char* rest = nullptr;
  if (std::strcmp(path, "/dev/kfd") == 0) {
    r.kind = PathKind::Kfd;
    return r;
  }
  if (std::strncmp(path, "/dev/dri/renderD", 16) == 0) {
    const char* digits = path + 16;
    uint32_t minor = 0;
    size_t i = 0;
    for (; digits[i] >= '0' && digits[i] <= '9' && i < 6; ++i) minor = minor * 10 + uint32_t(digits[i] - '0');
    if (i > 0 && digits[i] == '\0' && is_model_render_minor(minor)) {
      r.kind = PathKind::Render;
      r.render_minor = minor;
    }
    return r;
  }
  // PRE-FS-1: the topology, under either name.
  if (under(path, "/sys/devices/virtual/kfd/kfd", &rest)) {
    ensure_topology_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + "/kfd" + rest;
  } else if (under(path, "/sys/class/kfd", &rest)) {
    ensure_topology_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + "/class_kfd" + rest;
  } else if (under(path, "/sys/module/amdgpu", &rest)) {  // PRE-FS-2: the driver looks loaded
    ensure_module_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + "/module_amdgpu" + rest;
  } else if (std::strcmp(path, "/proc/modules") == 0) {
    ensure_proc_modules_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + "/proc_modules";
  }
  if (r.kind == PathKind::Redirect && mirror_root().empty()) r.kind = PathKind::PassThrough;
  return r;
}

bool is_model_render_minor(uint32_t minor) {
  const auto& minors = model_render_minors();
  return std::find(minors.begin(), minors.end(), minor) != minors.end();
}

}  // namespace rocref::preload
