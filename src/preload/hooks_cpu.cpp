// preload/hooks_cpu.cpp - the processor counts glibc answers without a path (PRE-FS-3).
//
// get_nprocs, get_nprocs_conf and sysconf(_SC_NPROCESSORS_*) read the host's
// /sys/devices/system/cpu inside glibc, where no path hook sees it; libhsakmt
// sizes its /proc/cpuinfo table with get_nprocs, ROCR its thread affinity masks
// with get_nprocs_conf, libnuma its CPU count with sysconf. They answer the
// modelled CPU's count, as the files the interposer serves do.
#include <sys/sysinfo.h>
#include <unistd.h>

#include "preload/real_calls.h"
#include "preload/reentry.h"
#include "preload/sysfs_mirror.h"

namespace rp = rocref::preload;

namespace {

long do_sysconf(int name) {
  if (!rp::inside_model() && (name == _SC_NPROCESSORS_CONF || name == _SC_NPROCESSORS_ONLN))
    return rp::model_cpu_count();
  return rp::real::sysconf(name);
}

}  // namespace

extern "C" {

#define ROCREF_EXPORT __attribute__((visibility("default")))

ROCREF_EXPORT int get_nprocs() {
  return rp::inside_model() ? rp::real::get_nprocs() : int(rp::model_cpu_count());
}
ROCREF_EXPORT int get_nprocs_conf() {
  return rp::inside_model() ? rp::real::get_nprocs_conf() : int(rp::model_cpu_count());
}
ROCREF_EXPORT long sysconf(int name) { return do_sysconf(name); }
ROCREF_EXPORT long __sysconf(int name) { return do_sysconf(name); }

}  // extern "C"
