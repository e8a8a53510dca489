// hip/hip_state.h - HIP runtime state: streams, events, the last error, status mapping.
//
// Every entry point (hip_*.cpp) checks its arguments, resolves handles here,
// calls one command-layer operation and returns through `result`, which
// records errors for hipGetLastError (HIP-ERR-1).
#pragma once

#include <hsa/hsa.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "clr/device.h"
#include "clr/virtual_gpu.h"
#include "common/expected.h"
#include "hip/hip_capture.h"
#include "hip/hip_runtime.h"

struct ihipStream_t {
  int device = 0;  // the device current when it was made (HIP-DEV-8)
  unsigned flags = hipStreamDefault;
  int priority = 0;                          // hipStreamCreateWithPriority, clamped to the range
  std::vector<uint32_t> cu_mask;             // hipExtStreamCreateWithCUMask; empty: every CU
  std::mutex mutex;                          // creation of the virtual GPU
  // Made on first command; shared with events recorded on it, which may outlive the stream.
  std::shared_ptr<rocref::clr::VirtualGpu> gpu;
  // gpu.get(), published once made: what every later command reads without the lock.
  std::atomic<rocref::clr::VirtualGpu*> made_gpu{nullptr};
  // Set between hipStreamBeginCapture and hipStreamEndCapture (hip_capture.h).
  std::unique_ptr<rocref::hip::Capture> capture;
  // capture != nullptr, written with it under the capture lock; read without it.
  std::atomic<bool> capture_active{false};
};

struct ihipEvent_t {
  unsigned flags = hipEventDefault;
  std::mutex mutex;
  // The latest record's marker signal, 1 while the marker is pending, then 0; the
  // event holds a reference in the device's signal pool, so it is not reused under it.
  hsa_signal_t signal{0};
  bool recorded = false;
  std::shared_ptr<rocref::clr::VirtualGpu> gpu;  // the stream of the latest record
  // Recorded on a capturing stream (HIP-GRAPH-4), under the capture lock: that stream, while its
  // capture lasts, and its leaves at the record.
  ihipStream_t* capture_stream = nullptr;
  std::vector<hipGraphNode_t> capture_nodes;
};

namespace rocref::hip {

// Records an error as the thread's last error (success leaves it as it is).
hipError_t result(hipError_t error);
hipError_t last_error(bool reset);

hipError_t from_hsa(hsa_status_t status);

// The calling thread's current device, or hipErrorNoDevice when there is no GPU.
Expected<clr::Device*, hipError_t> device();
// Device `ordinal`: hipErrorNoDevice when there is no GPU, hipErrorInvalidDevice out of range.
Expected<clr::Device*, hipError_t> device(int ordinal);

// Resolves a stream handle (nullptr: the current device's default stream); nullptr if the handle is unknown.
ihipStream_t* resolve_stream(hipStream_t stream);
// The stream's virtual GPU, made on first use (never nullptr), or the error that prevented it.
Expected<clr::VirtualGpu*, hipError_t> virtual_gpu(ihipStream_t* stream);
// The same, as a reference that keeps the virtual GPU alive after hipStreamDestroy.
Expected<std::shared_ptr<clr::VirtualGpu>, hipError_t> shared_virtual_gpu(ihipStream_t* stream);

// The virtual GPU of device `ordinal`'s null stream: what works on that device's
// memory for a stream of another device that has no mapping of it.
Expected<clr::VirtualGpu*, hipError_t> owner_virtual_gpu(int ordinal);

// The per-thread default stream (hipStreamPerThread) of the calling thread on its current device.
ihipStream_t* per_thread_stream();
// True for the handles that name a default stream (nullptr, hipStreamPerThread).
inline bool is_default_stream(hipStream_t stream) { return stream == nullptr || stream == hipStreamPerThread; }

// The number of devices (one per GPU agent) and the check every device argument gets.
int device_count();
bool valid_device(int device);
// The calling thread's device (hipSetDevice); always a valid ordinal when a device exists.
int current_device();
void set_current_device(int device);
// hipSetDeviceFlags: the device's flags, set once before the device is used.
unsigned& device_flags();

bool register_stream(ihipStream_t* stream);
bool unregister_stream(ihipStream_t* stream);
bool register_event(ihipEvent_t* event);
bool unregister_event(ihipEvent_t* event);
bool known_event(ihipEvent_t* event);

// Synchronizes every stream (hipDeviceSynchronize).
hipError_t synchronize_all();

}  // namespace rocref::hip
