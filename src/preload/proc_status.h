// preload/proc_status.h - the process's /proc status file with the modelled CPU and NUMA masks.
//
// libnuma sizes and fills its "all CPUs" and "all nodes" masks from the
// Cpus_allowed and Mems_allowed lines (PRE-FS-3). The rest of the file is the
// process's own and changes while it runs, so each open reads the host file
// afresh and rewrites only those four lines into a private memfd.
#pragma once

namespace rocref::preload {

// A readable descriptor (close-on-exec if `flags` asks) or -1 with errno.
int open_proc_status(int flags) noexcept;

}  // namespace rocref::preload
