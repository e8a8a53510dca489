// preload/sysfs_mirror.h - the private directory tree that mirrors the model's sysfs files.
//
// Each part is built once per process on first use (PRE-FS-1); libnuma's and
// libhsakmt's constructors may be the first callers, so nothing here relies on
// static constructors having run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rocref::preload {

// Host directory holding the mirror ("" if it could not be created).
const std::string& mirror_root();
// <root>/kfd (topology from KfdDevice::list_sysfs/read_sysfs) and <root>/class_kfd/kfd -> ../kfd.
void ensure_topology_mirror();
// <root>/sys/devices/system/{cpu,node} and <root>/proc/cpuinfo: the modelled CPU (PRE-FS-3).
void ensure_cpu_mirror();
// The modelled CPU's logical processors (its /sys/devices/system/cpu/online), at least 1.
long model_cpu_count();
// <root>/proc_modules: the host's /proc/modules plus an amdgpu line (PRE-FS-2).
void ensure_proc_modules_mirror();
// <root>/module_amdgpu: initstate "live", refcnt, holders/, parameters/ (PRE-FS-2).
void ensure_module_mirror();
// drm_render_minor of every modeled GPU node (reads the topology mirror).
const std::vector<uint32_t>& model_render_minors();
// <root>/dev_char/226:<minor>/device/drm/{card<minor - 128>,renderD<minor>} for every model
// render minor: the directories libdrm looks a DRM device's nodes up in (PRE-FS-5).
void ensure_drm_mirror();

}  // namespace rocref::preload
