// hsa/runtime.h - the open HSA runtime: reference count, agents, regions, registries.
//
// hsa_init opens the KFD through the thunk and builds one Agent per CPU and GPU
// node of the topology (HSA-INIT-1); hsa_shut_down releases everything when the
// count returns to zero (HSA-INIT-2). Entry points (api_*.cpp) check arguments,
// turn handles into objects here and call one method (ROCR's hsa.cpp shape).
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace rocref::hsa {

class Agent;
class MemoryRegion;
class SignalObject;
class AqlQueue;
class AsyncHandler;
class SignalPool;
class BlitKernel;
class AsyncCopies;
class SvmPrefetches;
class ImageRegistry;

// hsa_amd_register_deallocation_callback: called with `ptr` when its allocation is freed.
struct DeallocationNotifier {
  void* ptr = nullptr;
  hsa_amd_deallocation_callback_t callback = nullptr;
  void* user_data = nullptr;
};

// One allocation made through hsa_memory_allocate / hsa_amd_memory_pool_allocate.
struct Allocation {
  MemoryRegion* region = nullptr;
  size_t size = 0;            // rounded to the region's granule, as passed to the thunk (and as ROCR reports it)
  void* user_data = nullptr;  // hsa_amd_pointer_info_set_userdata on the allocation's start
  std::vector<DeallocationNotifier> notifiers;  // HSA-MEM-10, run by free()
};

class Runtime {
 public:
  // The open runtime, or nullptr before hsa_init / after the last hsa_shut_down.
  static Runtime* get() noexcept { return instance_.load(std::memory_order_acquire); }
  static hsa_status_t acquire();  // hsa_init
  static hsa_status_t release();  // hsa_shut_down

  const std::vector<std::unique_ptr<Agent>>& agents() const noexcept { return agents_; }
  Agent* find_agent(hsa_agent_t handle) const noexcept;
  // The KFD nodes of the GPU agents among `agents` (CPU agents add none), or
  // HSA_STATUS_ERROR_INVALID_AGENT for a handle this runtime did not make.
  hsa_status_t gpu_nodes_of(const hsa_agent_t* agents, size_t count, std::vector<HSAuint32>* nodes) const;
  MemoryRegion* find_region(uint64_t handle) const noexcept;
  Agent* cpu_agent() const noexcept { return cpu_agent_; }

  // Model clock (HSA-SYS-2): the KFD's system counter and its frequency.
  uint64_t timestamp() const noexcept;
  uint64_t timestamp_frequency() const noexcept { return timestamp_frequency_; }
  // HSA-PROF-1: GPU clock ticks of `gpu`'s node as system time, from the
  // counters sampled at open and once now (ROCR's linear translation).
  void timestamps_from_gpu_ticks(const Agent& gpu, uint64_t start_ticks, uint64_t end_ticks, uint64_t* start,
                                 uint64_t* end) const noexcept;

  // Allocations (HSA-MEM-*).
  hsa_status_t allocate(MemoryRegion& region, size_t size, void** ptr);
  // Runs the allocation's deallocation callbacks (outside every lock, after it left the map), then frees.
  hsa_status_t free(void* ptr);
  // HSA-MEM-10: a callback on the allocation holding `ptr` (INVALID_ALLOCATION outside every one);
  // removal of every (ptr, callback) pair registered (INVALID_ARGUMENT when there is none).
  hsa_status_t add_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback, void* user_data);
  hsa_status_t remove_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback);
  // The allocation that contains [ptr, ptr + size), or false.
  bool find_allocation(const void* ptr, size_t size, void** base, Allocation* out) const;
  // HSA-PTR-2: user data on an allocation, by its start only (false otherwise).
  bool set_user_data(const void* base, void* user_data);
  Agent* agent_of_node(uint32_t node) const noexcept;  // the first agent of a KFD node, or nullptr

  // Signals (HSA-SIG-*).
  SignalPool& signal_pool() noexcept { return *signal_pool_; }
  void register_signal(SignalObject* signal);
  void unregister_signal(SignalObject* signal);
  SignalObject* find_signal(hsa_signal_t handle) const noexcept;
  // A signal argument as ROCR's Signal::Convert judges it: handle 0 is INVALID_ARGUMENT, a
  // handle this runtime did not make INVALID_SIGNAL; else SUCCESS and *object.
  hsa_status_t checked_signal(hsa_signal_t handle, SignalObject** object) const noexcept;

  // Queues (HSA-QUEUE-*).
  void register_queue(AqlQueue* queue);
  void unregister_queue(AqlQueue* queue);
  AqlQueue* find_queue(const hsa_queue_t* queue) const noexcept;

  // HSA-MEM-4: the blit kernels of `gpu`, made on first use.
  BlitKernel& blit(Agent& gpu);

  // HSA-MEM-7: the thread of hsa_amd_memory_async_copy, started on first use.
  AsyncCopies& async_copies();
  // HSA-PROF-2: hsa_amd_profiling_async_copy_enable's switch (ROCR keeps one per GPU agent and
  // sets them all at once; CPU agents' stay off, so copies between CPUs are never timed).
  void set_async_copy_profiling(bool enable) noexcept {
    async_copy_profiling_.store(enable, std::memory_order_relaxed);
  }
  bool async_copy_profiling() const noexcept { return async_copy_profiling_.load(std::memory_order_relaxed); }

  // HSA-SVM-3: the prefetches still waiting for their dependencies.
  SvmPrefetches& svm_prefetches() noexcept { return *svm_prefetches_; }

  // HSA-IMG-3: the image and sampler objects, made on first use.
  ImageRegistry& images();

  AsyncHandler& async_handler();
  // nullptr until the first registration (no thread is started just to remove nothing).
  AsyncHandler* started_async_handler();

 private:
  Runtime() = default;
  ~Runtime();
  hsa_status_t open();
  void close();

  static std::atomic<Runtime*> instance_;
  static std::mutex lifecycle_mutex_;
  static uint32_t ref_count_;

  std::vector<std::unique_ptr<Agent>> agents_;
  Agent* cpu_agent_ = nullptr;
  uint64_t timestamp_frequency_ = 1'000'000'000;
  HsaClockCounters clock_origin_{};  // of clock_node_, sampled at open
  uint32_t clock_node_ = 0;

  mutable std::shared_mutex allocations_mutex_;
  std::map<uintptr_t, Allocation> allocations_;  // ordered: interior pointers find their base

  std::unique_ptr<SignalPool> signal_pool_;
  mutable std::shared_mutex signals_mutex_;
  std::unordered_map<uint64_t, SignalObject*> signals_;

  mutable std::shared_mutex queues_mutex_;
  std::unordered_map<const hsa_queue_t*, AqlQueue*> queues_;

  std::mutex blit_mutex_;
  std::map<Agent*, std::unique_ptr<BlitKernel>> blits_;

  std::mutex images_mutex_;
  std::unique_ptr<ImageRegistry> images_;  // under images_mutex_

  std::mutex async_mutex_;
  std::unique_ptr<AsyncHandler> async_handler_;
  std::unique_ptr<AsyncCopies> async_copies_;  // under async_mutex_
  std::atomic<bool> async_copy_profiling_{false};
  std::unique_ptr<SvmPrefetches> svm_prefetches_;  // its operations run on the async handler's thread
};

// The runtime, or nullptr; entry points return HSA_STATUS_ERROR_NOT_INITIALIZED on nullptr.
inline Runtime* runtime() noexcept { return Runtime::get(); }

}  // namespace rocref::hsa
