// hsa/runtime.cpp - hsa_init / hsa_shut_down, topology, and the object registries.
#include "hsa/runtime.h"

#include <hsakmt.h>

#include "hsa/agent.h"
#include "hsa/aql_queue.h"
#include "hsa/async_copy.h"
#include "hsa/async_handler.h"
#include "hsa/blit_kernel.h"
#include "hsa/hsa_mutant.h"
#include "hsa/image_registry.h"
#include "hsa/memory_region.h"
#include "hsa/signal_object.h"
#include "hsa/svm_prefetch.h"

namespace rocref::hsa {

std::atomic<Runtime*> Runtime::instance_{nullptr};
std::mutex Runtime::lifecycle_mutex_;
uint32_t Runtime::ref_count_ = 0;

hsa_status_t Runtime::acquire() {
  std::lock_guard lock(lifecycle_mutex_);
  // HSA-INIT-1: reference counted; only the first call opens the KFD.
  if (ref_count_ > 0) {
    ++ref_count_;
    return HSA_STATUS_SUCCESS;
  }
  auto* runtime = new Runtime();
  if (hsa_status_t status = runtime->open(); status != HSA_STATUS_SUCCESS) {
    delete runtime;
    return status;
  }
  ref_count_ = 1;
  instance_.store(runtime, std::memory_order_release);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::release() {
  std::lock_guard lock(lifecycle_mutex_);
  if (ref_count_ == 0) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (--ref_count_ > 0) return HSA_STATUS_SUCCESS;
  // HSA-INIT-2: the last shut-down releases every queue, signal and allocation.
  // The objects reach the runtime while they are torn down, so it is unpublished after.
  delete instance_.load(std::memory_order_acquire);
  instance_.store(nullptr, std::memory_order_release);
  return HSA_STATUS_SUCCESS;
}

Runtime::~Runtime() { close(); }

hsa_status_t Runtime::open() {
  // Without a KFD ROCR answers OUT_OF_RESOURCES (0x1008), and so do we.
  if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  HsaSystemProperties system{};
  if (hsaKmtAcquireSystemProperties(&system) != HSAKMT_STATUS_SUCCESS) {
    hsaKmtCloseKFD();
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  std::vector<Agent*> gpus;
  for (uint32_t node = 0; node < system.NumNodes; ++node) {
    HsaNodeProperties properties{};
    if (hsaKmtGetNodeProperties(node, &properties) != HSAKMT_STATUS_SUCCESS) continue;
    std::vector<HsaMemoryProperties> banks(properties.NumMemoryBanks);
    if (!banks.empty() &&
        hsaKmtGetNodeMemoryProperties(node, properties.NumMemoryBanks, banks.data()) != HSAKMT_STATUS_SUCCESS)
      banks.clear();
    uint64_t system_bytes = 0, local_bytes = 0;
    const HsaMemoryProperties* vram = nullptr;  // the last frame-buffer bank
    uint64_t mmio_page = 0;
    for (const HsaMemoryProperties& bank : banks) {
      if (bank.HeapType == HSA_HEAPTYPE_MMIO_REMAP) mmio_page = bank.VirtualBaseAddress;
      if (bank.HeapType == HSA_HEAPTYPE_SYSTEM) system_bytes += bank.SizeInBytes;
      if (bank.HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC || bank.HeapType == HSA_HEAPTYPE_FRAME_BUFFER_PRIVATE) {
        local_bytes += bank.SizeInBytes;
        vram = &bank;
      }
    }
    // HSA-AGENT-1: a node with CPU cores is a CPU agent, one with SIMDs a GPU agent.
    if (properties.NumCPUCores > 0 && properties.NumFComputeCores == 0) {
      auto agent = std::make_unique<Agent>(node, properties, HSA_DEVICE_TYPE_CPU);
      agent->add_region(std::make_unique<MemoryRegion>(*agent, MemoryRegion::Kind::System, system_bytes));
      agent->add_region(std::make_unique<MemoryRegion>(*agent, MemoryRegion::Kind::Kernarg, system_bytes));
      agent->add_region(std::make_unique<MemoryRegion>(*agent, MemoryRegion::Kind::SystemCoarse, system_bytes));
      if (cpu_agent_ == nullptr) cpu_agent_ = agent.get();
      agents_.push_back(std::move(agent));
    } else if (properties.NumFComputeCores > 0) {
      auto agent = std::make_unique<Agent>(node, properties, HSA_DEVICE_TYPE_GPU);
      if (vram != nullptr) agent->set_vram_bank(*vram);
      if (mmio_page != 0) agent->set_hdp_flush_page(mmio_page);
      if (local_bytes > 0)
        agent->add_region(std::make_unique<MemoryRegion>(*agent, MemoryRegion::Kind::DeviceLocal, local_bytes));
      agent->add_region(
          std::make_unique<MemoryRegion>(*agent, MemoryRegion::Kind::Group, uint64_t{properties.LDSSizeInKB} * 1024));
      gpus.push_back(agent.get());
      agents_.push_back(std::move(agent));
    }
  }
  if (cpu_agent_ == nullptr) {
    agents_.clear();
    hsaKmtReleaseSystemProperties();
    hsaKmtCloseKFD();
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  for (Agent* gpu : gpus)
    for (const auto& region : cpu_agent_->owned_regions()) gpu->add_visible_region(region.get());
  clock_node_ = gpus.empty() ? cpu_agent_->node_id() : gpus.front()->node_id();
  HsaClockCounters clocks{};
  if (hsaKmtGetClockCounters(clock_node_, &clocks) == HSAKMT_STATUS_SUCCESS && clocks.SystemClockFrequencyHz != 0) {
    timestamp_frequency_ = clocks.SystemClockFrequencyHz;
    clock_origin_ = clocks;
  }
  signal_pool_ = std::make_unique<SignalPool>();
  svm_prefetches_ = std::make_unique<SvmPrefetches>();
  return HSA_STATUS_SUCCESS;
}

void Runtime::close() {
  // Reverse order of dependence: handlers watch signals and queues; queues own signals;
  // copies wait on signals and run on the blit queues.
  async_copies_.reset();
  async_handler_.reset();
  svm_prefetches_.reset();
  blits_.clear();
  images_.reset();  // the descriptors' memory goes with the allocations below
  std::vector<AqlQueue*> queues;
  for (auto& [key, queue] : queues_) queues.push_back(queue);
  queues_.clear();
  for (AqlQueue* queue : queues) delete queue;
  std::vector<SignalObject*> signals;
  for (auto& [key, signal] : signals_) signals.push_back(signal);
  signals_.clear();
  for (SignalObject* signal : signals) signal_pool_->destroy(signal);
  for (auto& [base, allocation] : allocations_)
    allocation.region->free_pages(reinterpret_cast<void*>(base), allocation.size);
  allocations_.clear();
  signal_pool_.reset();
  agents_.clear();
  hsaKmtReleaseSystemProperties();
  hsaKmtCloseKFD();
}

Agent* Runtime::find_agent(hsa_agent_t handle) const noexcept {
  for (const auto& agent : agents_)
    if (agent->handle().handle == handle.handle) return agent.get();
  return nullptr;
}

MemoryRegion* Runtime::find_region(uint64_t handle) const noexcept {
  for (const auto& agent : agents_)
    for (const auto& region : agent->owned_regions())
      if (region->handle() == handle) return region.get();
  return nullptr;
}

uint64_t Runtime::timestamp() const noexcept {
  HsaClockCounters clocks{};
  if (hsaKmtGetClockCounters(clock_node_, &clocks) != HSAKMT_STATUS_SUCCESS) return 0;
  return clocks.SystemClockCounter;
}

void Runtime::timestamps_from_gpu_ticks(const Agent& gpu, uint64_t start_ticks, uint64_t end_ticks, uint64_t* start,
                                        uint64_t* end) const noexcept {
  HsaClockCounters now{};
  if (hsaKmtGetClockCounters(gpu.node_id(), &now) != HSAKMT_STATUS_SUCCESS) {
    *start = *end = 0;
    return;
  }
  // The system and GPU counters advance at a fixed ratio; measure it over the
  // runtime's life so far, then extrapolate back from now to each tick.
  const uint64_t gpu_span = now.GPUClockCounter - clock_origin_.GPUClockCounter;
  if (gpu_span == 0 || clock_origin_.SystemClockCounter == 0) {
    *start = *end = now.SystemClockCounter;
    return;
  }
  const double ratio = double(now.SystemClockCounter - clock_origin_.SystemClockCounter) / double(gpu_span);
  auto translate = [&](uint64_t ticks) {
    const auto back = static_cast<int64_t>(ticks - now.GPUClockCounter);
    return now.SystemClockCounter + static_cast<uint64_t>(static_cast<int64_t>(ratio * double(back)));
  };
  *start = translate(start_ticks);
  *end = translate(end_ticks);
}

hsa_status_t Runtime::allocate(MemoryRegion& region, size_t size, void** ptr) {
  const size_t granule = MemoryRegion::kGranule;
  const size_t rounded = (size + granule - 1) / granule * granule;
  void* address = nullptr;
  if (hsa_status_t status = region.allocate_pages(rounded, &address); status != HSA_STATUS_SUCCESS) return status;
  {
    std::unique_lock lock(allocations_mutex_);
    allocations_[reinterpret_cast<uintptr_t>(address)] = Allocation{&region, rounded, nullptr};
  }
  *ptr = address;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::free(void* ptr) {
  Allocation allocation;
  {
    std::unique_lock lock(allocations_mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    allocation = std::move(it->second);
    allocations_.erase(it);
  }
  // ROCR's order: gone from the map first, so a callback that allocates or frees cannot see it.
  if (!hsa_mutant_active(HsaMutant::FreeSkipsDeallocationCallbacks)) {
    for (const DeallocationNotifier& n : allocation.notifiers) n.callback(n.ptr, n.user_data);
  }
  allocation.region->free_pages(ptr, allocation.size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::add_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback, void* user_data) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  std::unique_lock lock(allocations_mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  --it;
  if (address - it->first >= it->second.size) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  it->second.notifiers.push_back({ptr, callback, user_data});
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Runtime::remove_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  std::unique_lock lock(allocations_mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  --it;
  if (address - it->first >= it->second.size) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const size_t removed = std::erase_if(it->second.notifiers, [&](const DeallocationNotifier& n) {
    return n.ptr == ptr && n.callback == callback;
  });
  return removed > 0 ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

bool Runtime::find_allocation(const void* ptr, size_t size, void** base, Allocation* out) const {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  std::shared_lock lock(allocations_mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  if (address - it->first > it->second.size || size > it->second.size - (address - it->first)) return false;
  if (base != nullptr) *base = reinterpret_cast<void*>(it->first);
  if (out != nullptr) *out = it->second;
  return true;
}

bool Runtime::set_user_data(const void* base, void* user_data) {
  std::unique_lock lock(allocations_mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  if (it == allocations_.end()) return false;
  it->second.user_data = user_data;
  return true;
}

hsa_status_t Runtime::gpu_nodes_of(const hsa_agent_t* agents, size_t count, std::vector<HSAuint32>* nodes) const {
  for (size_t i = 0; i < count; ++i) {
    const Agent* agent = find_agent(agents[i]);
    if (agent == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
    if (agent->is_gpu()) nodes->push_back(agent->node_id());
  }
  return HSA_STATUS_SUCCESS;
}

Agent* Runtime::agent_of_node(uint32_t node) const noexcept {
  for (const auto& agent : agents_)
    if (agent->node_id() == node) return agent.get();
  return nullptr;
}

void Runtime::register_signal(SignalObject* signal) {
  std::unique_lock lock(signals_mutex_);
  signals_[signal->handle().handle] = signal;
}

void Runtime::unregister_signal(SignalObject* signal) {
  std::unique_lock lock(signals_mutex_);
  signals_.erase(signal->handle().handle);
}

SignalObject* Runtime::find_signal(hsa_signal_t handle) const noexcept {
  std::shared_lock lock(signals_mutex_);
  auto it = signals_.find(handle.handle);
  return it == signals_.end() ? nullptr : it->second;
}

hsa_status_t Runtime::checked_signal(hsa_signal_t handle, SignalObject** object) const noexcept {
  if (handle.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // hsa.h: "the handle is 0"
  *object = find_signal(handle);
  return *object == nullptr ? HSA_STATUS_ERROR_INVALID_SIGNAL : HSA_STATUS_SUCCESS;
}

void Runtime::register_queue(AqlQueue* queue) {
  std::unique_lock lock(queues_mutex_);
  queues_[queue->public_queue()] = queue;
}

void Runtime::unregister_queue(AqlQueue* queue) {
  std::unique_lock lock(queues_mutex_);
  queues_.erase(queue->public_queue());
}

AqlQueue* Runtime::find_queue(const hsa_queue_t* queue) const noexcept {
  std::shared_lock lock(queues_mutex_);
  auto it = queues_.find(queue);
  return it == queues_.end() ? nullptr : it->second;
}

AsyncHandler& Runtime::async_handler() {
  std::lock_guard lock(async_mutex_);
  if (!async_handler_) async_handler_ = std::make_unique<AsyncHandler>();
  return *async_handler_;
}

AsyncCopies& Runtime::async_copies() {
  std::lock_guard lock(async_mutex_);
  if (!async_copies_) async_copies_ = std::make_unique<AsyncCopies>(*this);
  return *async_copies_;
}

BlitKernel& Runtime::blit(Agent& gpu) {
  std::lock_guard lock(blit_mutex_);
  std::unique_ptr<BlitKernel>& slot = blits_[&gpu];
  if (!slot) slot = std::make_unique<BlitKernel>(gpu);
  return *slot;
}

ImageRegistry& Runtime::images() {
  std::lock_guard lock(images_mutex_);
  if (!images_) images_ = std::make_unique<ImageRegistry>();
  return *images_;
}

AsyncHandler* Runtime::started_async_handler() {
  std::lock_guard lock(async_mutex_);
  return async_handler_.get();
}

}  // namespace rocref::hsa
