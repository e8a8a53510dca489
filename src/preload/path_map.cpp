// preload/path_map.cpp - matches the device and sysfs paths the interposer answers.
#include "preload/path_map.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

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

// /proc/self/status, /proc/thread-self/status, /proc/<own pid>/status (also under task/<tid>).
bool own_status_file(const char* path) {
  const char* rest = nullptr;
  if (!under(path, "/proc", &rest) || *rest != '/') return false;
  std::string p(rest + 1);
  const auto slash = p.find('/');
  if (slash == std::string::npos) return false;
  const std::string who = p.substr(0, slash);
  std::string tail = p.substr(slash);
  if (who != "self" && who != "thread-self" && who != std::to_string(::getpid())) return false;
  if (tail.rfind("/task/", 0) == 0) {  // task/<tid>/status: any thread of this process
    const auto next = tail.find('/', 6);
    if (next == std::string::npos) return false;
    tail = tail.substr(next);
  }
  return tail == "/status";
}

// A render minor (up to 6 digits) at `digits`: the number and the first character past it, or
// nullptr when no digit is there.
const char* parse_minor(const char* digits, uint32_t* minor) {
  uint32_t v = 0;
  size_t i = 0;
  for (; digits[i] >= '0' && digits[i] <= '9' && i < 6; ++i) v = v * 10 + uint32_t(digits[i] - '0');
  *minor = v;
  return i > 0 ? digits + i : nullptr;
}

// rest = "/226:<minor>..." for a model render minor.
bool model_drm_char(const char* rest) {
  if (std::strncmp(rest, "/226:", 5) != 0) return false;
  uint32_t minor = 0;
  const char* end = parse_minor(rest + 5, &minor);
  return end != nullptr && (*end == '\0' || *end == '/') && is_model_render_minor(minor);
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
    uint32_t minor = 0;
    const char* end = parse_minor(path + 16, &minor);
    if (end != nullptr && *end == '\0' && is_model_render_minor(minor)) {
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
  } else if (under(path, "/sys/devices/system/cpu", &rest) || under(path, "/sys/devices/system/node", &rest) ||
             std::strcmp(path, "/proc/cpuinfo") == 0) {
    // PRE-FS-3: the modelled CPU's own files, laid out under the mirror as under "/".
    ensure_cpu_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + path;
    if (mirror_root().empty()) r.kind = PathKind::Absent;  // never the host's instead
  } else if (under(path, "/sys/dev/char", &rest) && model_drm_char(rest)) {
    // PRE-FS-5: a model render node's sysfs directory, where libdrm finds the device's nodes.
    ensure_drm_mirror();
    r.kind = PathKind::Redirect;
    r.host_path = mirror_root() + "/dev_char" + rest;
  } else if (own_status_file(path)) {
    r.kind = PathKind::Status;
  } else if (under(path, "/sys/bus/event_source/devices/amd_iommu", &rest) ||
             under(path, "/sys/bus/event_source/devices/amd_iommu_0", &rest)) {
    r.kind = PathKind::Absent;  // the modelled machine has no AMD IOMMU (libhsakmt's PMC table probes it)
  }
  if (r.kind == PathKind::Redirect && mirror_root().empty()) r.kind = PathKind::PassThrough;
  return r;
}

bool is_model_render_minor(uint32_t minor) {
  const auto& minors = model_render_minors();
  return std::find(minors.begin(), minors.end(), minor) != minors.end();
}

}  // namespace rocref::preload
