// hip/hip_state.cpp - handle registries, the last error and HSA status mapping.
#include "hip/hip_state.h"

#include <hsa/hsa_ext_amd.h>

#include <array>
#include <set>
#include <vector>

#include "clr/monitor.h"
#include "hip/hip_mutant.h"

namespace rocref::hip {
namespace {

thread_local hipError_t t_last_error = hipSuccess;

// The live handles of one kind: an unknown or destroyed handle is not in the set.
template <typename T>
class HandleSet {
 public:
  bool insert(T* handle) {
    std::lock_guard lock(mutex_);
    return handles_.insert(handle).second;
  }
  bool erase(T* handle) {
    std::lock_guard lock(mutex_);
    return handles_.erase(handle) == 1;
  }
  bool contains(T* handle) const {
    std::lock_guard lock(mutex_);
    return handles_.count(handle) == 1;
  }
  std::vector<T*> snapshot() const {
    std::lock_guard lock(mutex_);
    return {handles_.begin(), handles_.end()};
  }
  // Calls f on each live handle with the set locked: a handle cannot be erased, so not destroyed, meanwhile.
  template <typename F>
  void for_each(F f) const {
    std::lock_guard lock(mutex_);
    for (T* handle : handles_) f(handle);
  }

 private:
  mutable clr::Monitor mutex_;  // every launch asks: one atomic instruction each way while free
  std::set<T*> handles_;
};

HandleSet<ihipStream_t> g_streams;
HandleSet<ihipEvent_t> g_events;

constexpr int kMaxDevices = 64;

// The null stream of each device, made on first use; lives as long as the process,
// so once published it is read without the lock.
ihipStream_t& default_stream(int device) {
  static std::mutex mutex;
  static std::array<std::atomic<ihipStream_t*>, kMaxDevices> streams{};
  if (ihipStream_t* s = streams[device].load(std::memory_order_acquire)) return *s;
  std::lock_guard lock(mutex);
  if (streams[device].load(std::memory_order_relaxed) == nullptr) {
    auto* s = new ihipStream_t();
    s->device = device;
    streams[device].store(s, std::memory_order_release);
  }
  return *streams[device].load(std::memory_order_relaxed);
}

std::vector<ihipStream_t*> default_streams() {
  std::vector<ihipStream_t*> out;
  for (int d = 0; d < clr::Device::count() && d < kMaxDevices; ++d) out.push_back(&default_stream(d));
  return out;
}

}  // namespace

hipError_t result(hipError_t error) {
  if (error != hipSuccess) t_last_error = error;
  return error;
}

hipError_t last_error(bool reset) {
  const hipError_t e = t_last_error;
  if (reset) t_last_error = hipSuccess;
  return e;
}

hipError_t from_hsa(hsa_status_t status) {
  switch (status) {
    case HSA_STATUS_SUCCESS: return hipSuccess;
    case HSA_STATUS_ERROR_OUT_OF_RESOURCES: return hipErrorOutOfMemory;
    case HSA_STATUS_ERROR_INVALID_ARGUMENT:
    case HSA_STATUS_ERROR_INVALID_ALLOCATION: return hipErrorInvalidValue;

    case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT:
    case HSA_STATUS_ERROR_EXCEPTION: return hipErrorLaunchFailure;
    case HSA_STATUS_ERROR_NOT_INITIALIZED: return hipErrorNotInitialized;
    default: break;
  }
  if (static_cast<int>(status) == HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION) return hipErrorIllegalAddress;
  return hipErrorUnknown;
}

Expected<clr::Device*, hipError_t> device(int ordinal) {
  if (clr::Device::count() == 0) return unexpected(hipErrorNoDevice);
  clr::Device* d = clr::Device::get(ordinal);
  if (d == nullptr) return unexpected(hipErrorInvalidDevice);
  return d;
}

namespace {

// The calling thread's hipStreamPerThread stream: registered while the thread lives, so
// hipDeviceSynchronize waits for it too.
struct PerThreadStream {
  ihipStream_t* streams[kMaxDevices] = {};  // one per device
  ~PerThreadStream() {
    for (ihipStream_t* stream : streams) {
      if (stream == nullptr) continue;
      g_streams.erase(stream);
      delete stream;  // the virtual GPU waits for its work
    }
  }
};
thread_local PerThreadStream t_per_thread;
thread_local int t_device = 0;

// What the calling thread's current device resolved to last: devices and null streams
// live as long as the process, so an entry is stale only when the current device
// changed, which the ordinal it was made for tells (every launch resolves both).
struct CurrentDeviceCache {
  int device_ordinal = -1;
  clr::Device* device = nullptr;
  int stream_ordinal = -1;
  ihipStream_t* null_stream = nullptr;
};
thread_local CurrentDeviceCache t_current;

// HipMutant::CurrentDeviceCacheUnkeyed: the entry is used whatever device it was made for.
bool cached_for(int ordinal) {
  return ordinal == t_device || (hip_mutant_active(HipMutant::CurrentDeviceCacheUnkeyed) && ordinal >= 0);
}

}  // namespace

Expected<clr::Device*, hipError_t> device() {
  if (cached_for(t_current.device_ordinal)) return t_current.device;
  const Expected<clr::Device*, hipError_t> d = device(t_device);
  if (d) {
    t_current.device_ordinal = t_device;
    t_current.device = *d;
  }
  return d;
}

ihipStream_t* per_thread_stream() {
  ihipStream_t*& stream = t_per_thread.streams[t_device];
  if (stream == nullptr) {
    stream = new ihipStream_t();
    stream->device = t_device;
    g_streams.insert(stream);
  }
  return stream;
}

int device_count() { return clr::Device::count(); }
bool valid_device(int device) { return device >= 0 && device < device_count(); }
int current_device() { return t_device; }
void set_current_device(int device) { t_device = device; }
unsigned& device_flags() {
  static unsigned flags = 0;
  return flags;
}

ihipStream_t* resolve_stream(hipStream_t stream) {
  if (stream == nullptr) {
    if (!cached_for(t_current.stream_ordinal)) {
      t_current.null_stream = &default_stream(t_device);
      t_current.stream_ordinal = t_device;
    }
    return t_current.null_stream;
  }
  if (stream == hipStreamPerThread) return per_thread_stream();
  return g_streams.contains(stream) ? stream : nullptr;
}

Expected<std::shared_ptr<clr::VirtualGpu>, hipError_t> shared_virtual_gpu(ihipStream_t* stream) {
  // A capturing stream runs nothing: what is not captured is refused (HIP-GRAPH-3).
  if (capturing(stream)) return unexpected(refuse_in_capture(stream));
  const Expected<clr::Device*, hipError_t> d = device(stream->device);
  if (!d) return unexpected(d.error());
  std::lock_guard lock(stream->mutex);
  if (!stream->gpu) {
    auto made = clr::VirtualGpu::create(**d);
    if (!made) return unexpected(from_hsa(made.error()));
    stream->gpu = std::move(made).value();
    stream->made_gpu.store(stream->gpu.get(), std::memory_order_release);
  }
  return stream->gpu;
}

Expected<clr::VirtualGpu*, hipError_t> virtual_gpu(ihipStream_t* stream) {
  // Every command after the first: the virtual GPU lives as long as the stream (the
  // caller's handle), so no lock and no reference count; a capturing stream still refuses.
  const bool check_capture = !hip_mutant_active(HipMutant::MadeGpuIgnoresCapture);
  if (!(check_capture && capturing(stream))) {
    if (clr::VirtualGpu* gpu = stream->made_gpu.load(std::memory_order_acquire)) return gpu;
  }
  Expected<std::shared_ptr<clr::VirtualGpu>, hipError_t> gpu = shared_virtual_gpu(stream);
  if (!gpu) return unexpected(gpu.error());
  return gpu->get();
}

Expected<clr::VirtualGpu*, hipError_t> owner_virtual_gpu(int ordinal) {
  if (ordinal < 0 || ordinal >= kMaxDevices || ordinal >= clr::Device::count())
    return unexpected(hipErrorInvalidDevice);
  return virtual_gpu(&default_stream(ordinal));
}

bool register_stream(ihipStream_t* stream) { return g_streams.insert(stream); }
bool unregister_stream(ihipStream_t* stream) { return g_streams.erase(stream); }
bool register_event(ihipEvent_t* event) { return g_events.insert(event); }
bool unregister_event(ihipEvent_t* event) { return g_events.erase(event); }
bool known_event(ihipEvent_t* event) { return g_events.contains(event); }

hipError_t synchronize_all() {
  // HIP-STR-10: the virtual GPUs are collected as references while no stream can be destroyed, then
  // waited on without any lock, so another thread may destroy its stream (or make its virtual GPU)
  // meanwhile. A stream's gpu is written once, before made_gpu is published, and never again.
  std::vector<std::shared_ptr<clr::VirtualGpu>> gpus;
  auto collect = [&gpus](ihipStream_t* s) {
    if (s->made_gpu.load(std::memory_order_acquire) != nullptr) gpus.push_back(s->gpu);
  };
  for (ihipStream_t* s : default_streams()) collect(s);
  if (!hip_mutant_active(HipMutant::SyncAllSkipsStreams)) g_streams.for_each(collect);
  hipError_t first = hipSuccess;
  for (const auto& gpu : gpus) {
    const hipError_t e = from_hsa(gpu->synchronize());
    if (first == hipSuccess) first = e;
  }
  return first;
}

}  // namespace rocref::hip
