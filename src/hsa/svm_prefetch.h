// hsa/svm_prefetch.h - hsa_amd_svm_prefetch_async and the prefetches still pending (HSA-SVM-3).
//
// ROCR 5.2.3's Runtime::SvmPrefetch: the prefetch waits on the runtime's async-handler thread
// for its dependency signals to reach 0 (the last first), then sets the KFD's PREFETCH_LOC
// over the range's pages and subtracts 1 from the completion signal (if one is given).
// Until then its range is pending: a later prefetch takes over the part it overlaps, and a
// query of HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION answers a pending prefetch's destination
// there and the KFD's PREFETCH_LOC elsewhere (Runtime::GetSVMPrefetchAgent).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include <hsa/hsa.h>

namespace rocref::hsa {

class SignalObject;

class SvmPrefetches {
 public:
  SvmPrefetches() = default;
  ~SvmPrefetches();  // prefetches still waiting never run
  SvmPrefetches(const SvmPrefetches&) = delete;
  SvmPrefetches& operator=(const SvmPrefetches&) = delete;

  // `node`: the destination's KFD node (0 for a CPU agent). HSA_STATUS_ERROR_OUT_OF_RESOURCES
  // when the async-handler thread cannot start.
  hsa_status_t start(void* base, uint64_t bytes, uint32_t node, std::vector<SignalObject*> dependencies,
                     SignalObject* completion);
  // The one destination of the range's pages (INVALID_NODEID when they differ or one has none);
  // HSA_STATUS_ERROR when the KFD refuses the range.
  hsa_status_t location(void* base, uint64_t bytes, uint32_t* node);

 private:
  struct Op {
    SvmPrefetches* owner;
    uintptr_t base;
    uint64_t bytes;
    uint32_t node;
    std::vector<SignalObject*> dependencies;  // waited for from the back
    SignalObject* completion;
  };
  struct Pending {
    uintptr_t end;
    Op* op;
  };

  static bool on_dependency(hsa_signal_value_t value, void* arg);
  static void run(void* arg);
  void finish(Op* op);
  void take_over_locked(uintptr_t base, uintptr_t end, Op* op);

  std::mutex mutex_;
  std::map<uintptr_t, Pending> pending_;  // disjoint ranges by start
  std::set<Op*> ops_;                     // owned; removed when they finish
};

}  // namespace rocref::hsa
