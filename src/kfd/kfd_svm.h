// kfd/kfd_svm.h - a process's SVM range table (amdkfd kfd_svm.c's svm_range_list).
//
// Ranges are page-granular [start, last] intervals of the process's host VA with the
// attributes AMDKFD_IOC_SVM sets. Setting attributes on part of a range splits it;
// neighbours left with equal attributes are merged again (the split is not visible
// through the ABI, only the attributes are). Kept apart from kfd_process.h's other
// state so the table has one job; guarded by the device lock like the rest of Process.
#pragma once

#include <cstdint>
#include <map>

namespace rocref::kfd {

struct SvmRange {
  uint64_t last = 0;              // last page (inclusive); the map key is the first page
  uint32_t preferred_loc = 0;     // gpu_id, 0 = system memory, or KFD_IOCTL_SVM_LOCATION_UNDEFINED
  uint32_t prefetch_loc = 0;
  uint32_t flags = 0;             // KFD_IOCTL_SVM_FLAG_*
  uint32_t granularity = 0;       // log2 of the migration granule in pages
  bool access = false;            // the (one) GPU may access it: mapped in its page table
  bool access_in_place = false;   // mapped too, but never migrated
  bool mapped = false;            // PTEs written for [first, last]

  bool same_attributes(const SvmRange& o) const {
    return preferred_loc == o.preferred_loc && prefetch_loc == o.prefetch_loc && flags == o.flags &&
           granularity == o.granularity && access == o.access && access_in_place == o.access_in_place;
  }
};

struct SvmRangeTable {
  std::map<uint64_t, SvmRange> ranges;  // first page -> range; never overlapping
};

struct Process;
// Unmaps every SVM range from the process's GPU VM and empties the table (process release).
void svm_release_locked(Process& p);

}  // namespace rocref::kfd
