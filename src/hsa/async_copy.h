// hsa/async_copy.h - the runtime thread behind hsa_amd_memory_async_copy (HSA-MEM-7).
//
// ROCR puts an asynchronous copy on a blit queue of the GPU agent it names (behind a wait
// for its dependencies) or, between two CPU agents, on a thread of its own. rocref keeps
// one first-in first-out list of copies per runtime and one thread that takes them in
// order: it waits until every dependency signal is 0, copies (the GPU's copy kernel when an
// agent is a GPU, HSA-MEM-4, else on the host) and subtracts 1 from the completion signal.
// As on ROCR's queue, a copy waiting for a dependency holds back the copies behind it.
// A profiled copy (HSA-PROF-2) leaves the GPU clock ticks of its dispatches' launch and
// completion in the completion signal's start_ts and end_ts before the decrement.
#pragma once

#include <hsa/hsa.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "hsa/copy_rect.h"

namespace rocref::hsa {

class Agent;
class Runtime;
class SignalObject;

struct AsyncCopy {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t size = 0;
  std::optional<CopyRect> rect;  // HSA-MEM-8: a 3D pitched copy in place of dst, src, size
  Agent* gpu = nullptr;  // the agent whose copy kernel runs it; nullptr: a host copy
  std::vector<SignalObject*> dependencies;
  SignalObject* completion = nullptr;
  bool profiled = false;  // HSA-PROF-2: record the GPU times on the completion signal
};

class AsyncCopies {
 public:
  explicit AsyncCopies(Runtime& runtime) : runtime_(runtime) {}
  // Stops the thread; copies still waiting for a dependency never run (nor complete).
  ~AsyncCopies();
  AsyncCopies(const AsyncCopies&) = delete;
  AsyncCopies& operator=(const AsyncCopies&) = delete;

  // HSA_STATUS_ERROR_OUT_OF_RESOURCES when the thread cannot start.
  hsa_status_t submit(AsyncCopy copy);

 private:
  void run();
  bool wait_for_dependencies(const AsyncCopy& copy);  // false: stopping
  void copy(const AsyncCopy& copy, uint64_t early_start);  // early_start: the planted bug's, else 0

  Runtime& runtime_;  // owns this; its blit kernels run the GPU copies
  std::mutex mutex_;
  std::condition_variable more_;
  std::deque<AsyncCopy> copies_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace rocref::hsa
