// hsa/svm_prefetch.cpp - prefetches behind their dependencies, and the pending ranges (see svm_prefetch.h).
#include "hsa/svm_prefetch.h"

#include <hsakmt.h>

#include <algorithm>

#include "common/log.h"
#include "hsa/async_handler.h"
#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

namespace rocref::hsa {

SvmPrefetches::~SvmPrefetches() {
  for (Op* op : ops_) delete op;
}

hsa_status_t SvmPrefetches::start(void* base, uint64_t bytes, uint32_t node, std::vector<SignalObject*> dependencies,
                                  SignalObject* completion) {
  auto* op = new Op{this, reinterpret_cast<uintptr_t>(base), bytes, node, std::move(dependencies), completion};
  {
    std::lock_guard lock(mutex_);
    ops_.insert(op);
    take_over_locked(op->base, op->base + bytes, op);
  }
  AsyncHandler& handler = runtime()->async_handler();
  hsa_status_t status;
  if (op->dependencies.empty() || hsa_mutant_active(HsaMutant::SvmPrefetchSkipsDependencies)) {
    status = handler.add_function(run, op);
  } else {
    SignalObject* last = op->dependencies.back();
    op->dependencies.pop_back();
    status = handler.add(last, HSA_SIGNAL_CONDITION_EQ, 0, on_dependency, op);
  }
  if (status != HSA_STATUS_SUCCESS) {
    std::lock_guard lock(mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) it = it->second.op == op ? pending_.erase(it) : ++it;
    ops_.erase(op);
    delete op;
  }
  return status;
}

// Trims and removes the parts of pending ranges inside [base, end), then gives them to `op`.
void SvmPrefetches::take_over_locked(uintptr_t base, uintptr_t end, Op* op) {
  if (base >= end) return;
  auto it = pending_.upper_bound(base);
  if (it != pending_.begin()) --it;
  while (it != pending_.end() && it->first < end) {
    const uintptr_t from = it->first, to = it->second.end;
    Op* owner = it->second.op;
    if (to <= base) {
      ++it;
      continue;
    }
    it = pending_.erase(it);
    if (from < base) pending_.emplace(from, Pending{base, owner});
    if (to > end) pending_.emplace(end, Pending{to, owner});
  }
  pending_.emplace(base, Pending{end, op});
}

bool SvmPrefetches::on_dependency(hsa_signal_value_t, void* arg) {
  auto* op = static_cast<Op*>(arg);
  if (!op->dependencies.empty()) {
    SignalObject* next = op->dependencies.back();
    op->dependencies.pop_back();
    if (runtime()->async_handler().add(next, HSA_SIGNAL_CONDITION_EQ, 0, on_dependency, op) == HSA_STATUS_SUCCESS)
      return false;
  }
  run(op);
  return false;
}

void SvmPrefetches::run(void* arg) {
  auto* op = static_cast<Op*>(arg);
  HSA_SVM_ATTRIBUTE where{HSA_SVM_ATTR_PREFETCH_LOC, op->node};
  // ROCR asserts that the KFD accepts the prefetch and completes the signal regardless.
  if (hsaKmtSVMSetAttr(reinterpret_cast<void*>(op->base), op->bytes, 1, &where) != HSAKMT_STATUS_SUCCESS)
    ROCREF_LOG(rocref::log::kWarning, "hsa", "hsa_amd_svm_prefetch_async: the KFD refused the prefetch of %p",
               reinterpret_cast<void*>(op->base));
  op->owner->finish(op);
}

void SvmPrefetches::finish(Op* op) {
  SignalObject* completion = op->completion;
  {
    std::lock_guard lock(mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) it = it->second.op == op ? pending_.erase(it) : ++it;
    ops_.erase(op);
  }
  delete op;
  if (completion != nullptr) {
    completion->hold();  // the waiter may destroy it once it sees the value (signal_object.h)
    hsa_signal_subtract_relaxed(completion->handle(), 1);
    completion->let_go();
  }
}

hsa_status_t SvmPrefetches::location(void* base_ptr, uint64_t bytes, uint32_t* node) {
  uintptr_t base = reinterpret_cast<uintptr_t>(base_ptr);
  const uintptr_t end = base + bytes;
  std::vector<std::pair<uintptr_t, uintptr_t>> holes;
  constexpr uint64_t kNoAnswer = UINT64_MAX;
  uint64_t answer = kNoAnswer;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.upper_bound(base);
    if (it != pending_.begin()) --it;
    for (; it != pending_.end() && it->first < end; ++it) {
      const uintptr_t from = std::max(base, it->first), to = std::min(end, it->second.end);
      if (from >= to) continue;
      if (answer != kNoAnswer && answer != it->second.op->node) {
        *node = INVALID_NODEID;
        return HSA_STATUS_SUCCESS;
      }
      answer = it->second.op->node;
      if (base < from) holes.emplace_back(base, from - base);
      base = to;
    }
  }
  if (base < end) holes.emplace_back(base, end - base);
  for (auto [from, size] : holes) {
    HSA_SVM_ATTRIBUTE where{HSA_SVM_ATTR_PREFETCH_LOC, 0};
    if (hsaKmtSVMGetAttr(reinterpret_cast<void*>(from), size, 1, &where) != HSAKMT_STATUS_SUCCESS)
      return HSA_STATUS_ERROR;
    if (where.value == INVALID_NODEID || (answer != kNoAnswer && answer != where.value)) {
      *node = INVALID_NODEID;
      return HSA_STATUS_SUCCESS;
    }
    answer = where.value;
  }
  *node = answer == kNoAnswer ? INVALID_NODEID : static_cast<uint32_t>(answer);
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::hsa
