// hip/hip_stream_ext.cpp - stream priorities, CU masks, host functions, callbacks and stream memory operations (HIP-STR-5 to HIP-STR-8).
//
// Host functions and callbacks are command-layer host calls (clr/host_call.h):
// they run once the stream's earlier commands completed and hold its later
// ones until they returned. hipStreamWaitValue holds the stream behind a gate
// that a watcher thread opens when the condition holds; hipStreamWriteValue
// is a host call that stores the value in stream order.
#include <atomic>
#include <thread>

#include "clr/host_call.h"
#include "hip/hip_device_props.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

// The stream's virtual GPU for a command, or the error that prevented it.
rocref::Expected<rocref::clr::VirtualGpu*, hipError_t> stream_gpu(hipStream_t stream) {
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return rocref::unexpected(hipErrorInvalidHandle);
  return rocref::hip::virtual_gpu(s);
}

hipError_t host_call(hipStream_t stream, rocref::clr::HostFunction function, void* data) {
  const auto vgpu = stream_gpu(stream);
  if (!vgpu) return vgpu.error();
  rocref::clr::VirtualGpu* gpu = *vgpu;
  return rocref::hip::from_hsa(rocref::clr::enqueue_host_call(gpu->device(), *gpu, function, data));
}

struct Callback {
  hipStream_t stream;
  hipStreamCallback_t callback;
  void* data;
};

void run_callback(void* arg) {
  auto* c = static_cast<Callback*>(arg);
  c->callback(c->stream, hipSuccess, c->data);
  delete c;
}

struct HostFunc {
  hipHostFn_t fn;
  void* data;
};

void run_host_func(void* arg) {
  auto* h = static_cast<HostFunc*>(arg);
  h->fn(h->data);
  delete h;
}

template <typename T>
bool condition_holds(const void* ptr, T value, unsigned flags, T mask) {
  const T current = std::atomic_ref<T>(*static_cast<T*>(const_cast<void*>(ptr))).load(std::memory_order_acquire);
  switch (flags) {
    // As hip_runtime_api.h words them: the mask applies to *ptr (and, for Nor, to value).
    case hipStreamWaitValueGte: return (current & mask) >= value;
    case hipStreamWaitValueEq: return (current & mask) == value;
    case hipStreamWaitValueAnd: return ((current & mask) & value) != 0;
    case hipStreamWaitValueNor: return static_cast<T>(~((current & mask) | (value & mask))) != 0;
    default: return true;
  }
}

template <typename T>
hipError_t wait_value(hipStream_t stream, void* ptr, T value, unsigned flags, T mask) {
  if (ptr == nullptr || flags > hipStreamWaitValueNor) return hipErrorInvalidValue;
  if (reinterpret_cast<uintptr_t>(ptr) % sizeof(T) != 0) return hipErrorInvalidValue;
  const auto vgpu = stream_gpu(stream);
  if (!vgpu) return vgpu.error();
  rocref::clr::VirtualGpu* gpu = *vgpu;
  rocref::clr::Device* device = &gpu->device();
  hsa_signal_t gate;
  if (hsa_status_t s = rocref::clr::enqueue_gate(*device, *gpu, &gate); s != HSA_STATUS_SUCCESS) {
    return rocref::hip::from_hsa(s);
  }
  // The watcher polls with back-off: nothing signals a store to ordinary memory.
  std::thread([=] {
    unsigned spins = 0;
    while (!condition_holds<T>(ptr, value, flags, mask)) {
      if (++spins < 64) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    }
    hsa_signal_store_screlease(gate, 0);
    device->signal_pool().release(gate);
  }).detach();
  return hipSuccess;
}

template <typename T>
struct WriteValue {
  T* ptr;
  T value;
};

template <typename T>
void run_write_value(void* arg) {
  auto* w = static_cast<WriteValue<T>*>(arg);
  std::atomic_ref<T>(*w->ptr).store(w->value, std::memory_order_release);
  delete w;
}

template <typename T>
hipError_t write_value(hipStream_t stream, void* ptr, T value, unsigned flags) {
  if (ptr == nullptr || flags != 0) return hipErrorInvalidValue;
  if (reinterpret_cast<uintptr_t>(ptr) % sizeof(T) != 0) return hipErrorInvalidValue;
  auto* w = new WriteValue<T>{static_cast<T*>(ptr), value};
  hipError_t e = host_call(stream, &run_write_value<T>, w);
  if (e != hipSuccess) delete w;
  return e;
}

int clamp_priority(int priority) {
  // Lower numbers are higher priorities: -1 (high) .. 1 (low), as hipamd clamps.
  if (priority < rocref::hip::kStreamPriorityGreatest) return rocref::hip::kStreamPriorityGreatest;
  if (priority > rocref::hip::kStreamPriorityLeast) return rocref::hip::kStreamPriorityLeast;
  return priority;
}

uint32_t cu_mask_words() {
  const auto d = rocref::hip::device();
  return d ? ((*d)->info().compute_units + 31) / 32 : 0;
}

}  // namespace

hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
  if (hipError_t e = hipStreamCreateWithFlags(stream, flags); e != hipSuccess) return e;
  (*stream)->priority = clamp_priority(priority);
  return hipSuccess;
}

hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  if (priority == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  *priority = s->priority;
  return hipSuccess;
}

hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cuMaskSize, const uint32_t* cuMask) {
  if (stream == nullptr || cuMaskSize == 0 || cuMask == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = hipStreamCreateWithFlags(stream, hipStreamDefault); e != hipSuccess) return e;
  (*stream)->cu_mask.assign(cuMask, cuMask + cuMaskSize);
  return hipSuccess;
}

hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize, uint32_t* cuMask) {
  if (cuMask == nullptr) return result(hipErrorInvalidValue);
  ihipStream_t* s = rocref::hip::resolve_stream(stream);
  if (s == nullptr) return result(hipErrorInvalidHandle);
  const uint32_t words = cu_mask_words();
  if (cuMaskSize < words) return result(hipErrorInvalidValue);
  const uint32_t cus = rocref::hip::device().value()->info().compute_units;
  // The device's CUs, narrowed by the stream's mask where it set one.
  for (uint32_t i = 0; i < cuMaskSize; ++i) {
    uint32_t device_bits = 0;
    for (uint32_t b = 0; b < 32; ++b) {
      if (i * 32 + b < cus) device_bits |= 1u << b;
    }
    const uint32_t stream_bits = s->cu_mask.empty() ? ~0u : (i < s->cu_mask.size() ? s->cu_mask[i] : 0u);
    cuMask[i] = device_bits & stream_bits;
  }
  return hipSuccess;
}

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* userData, unsigned int flags) {
  if (callback == nullptr || flags != 0) return result(hipErrorInvalidValue);
  auto* c = new Callback{stream, callback, userData};
  hipError_t e = host_call(stream, run_callback, c);
  if (e != hipSuccess) delete c;
  return result(e);
}

hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData) {
  if (fn == nullptr) return result(hipErrorInvalidValue);
  if (ihipStream_t* s = rocref::hip::resolve_stream(stream); rocref::hip::capturing(s)) {
    const hipHostNodeParams params{fn, userData};
    return result(rocref::hip::capture_node(
        s,
        [](hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t count, const void* p) {
          return hipGraphAddHostNode(n, g, deps, count, static_cast<const hipHostNodeParams*>(p));
        },
        &params));
  }
  auto* h = new HostFunc{fn, userData};
  hipError_t e = host_call(stream, run_host_func, h);
  if (e != hipSuccess) delete h;
  return result(e);
}

hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags, uint32_t mask) {
  return result(wait_value<uint32_t>(stream, ptr, value, flags, mask));
}

hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags, uint64_t mask) {
  return result(wait_value<uint64_t>(stream, ptr, value, flags, mask));
}

hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags) {
  return result(write_value<uint32_t>(stream, ptr, value, flags));
}

hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags) {
  return result(write_value<uint64_t>(stream, ptr, value, flags));
}

int hipGetStreamDeviceId(hipStream_t stream) {
  return rocref::hip::resolve_stream(stream) == nullptr ? -1 : 0;
}
