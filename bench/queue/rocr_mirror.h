// bench/queue/rocr_mirror.h - ROCR 5.2.3's producer path mirrored, three calls deep.
//
// A ROCR user calls hsa_queue_add_write_index_screlease, ...load_read_index_scacquire
// and hsa_signal_store_screlease through the API table (function pointers),
// into hsa.cpp's checking function (null check, handle -> object, try/catch),
// then a virtual call on core::Queue / core::Signal, which does one atomic.
// These are the same three layers with the same work, under our own names (the
// real symbols belong to the HSA library). Defined out of line on purpose: the
// calls must not be inlined away.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include <cstdint>

namespace rocref::bench::rocr_mirror {

struct ApiTable {
  uint64_t (*hsa_queue_add_write_index_screlease)(const hsa_queue_t* queue, uint64_t value);
  uint64_t (*hsa_queue_load_read_index_scacquire)(const hsa_queue_t* queue);
  void (*hsa_signal_store_screlease)(hsa_signal_t signal, hsa_signal_value_t value);
};

const ApiTable& api() noexcept;

// core::Queue's shape: the amd_queue_t first (hsa_queue_t* converts to it), the object beside it.
class CoreQueue {
 public:
  virtual ~CoreQueue() = default;
  virtual uint64_t AddWriteIndexRelease(uint64_t value) = 0;
  virtual uint64_t LoadReadIndexAcquire() = 0;
};

class CoreSignal {
 public:
  virtual ~CoreSignal() = default;
  virtual void StoreRelease(hsa_signal_value_t value) = 0;
};

// ROCR's SharedQueue / SharedSignal: the ABI struct, then the owning object.
struct alignas(64) SharedQueue {
  amd_queue_t amd_queue;
  CoreQueue* core_queue;
};

struct alignas(64) SharedSignal {
  amd_signal_t amd_signal;
  uint64_t id;  // kSharedSignalId when valid, as ROCR checks
  CoreSignal* core_signal;
};

inline constexpr uint64_t kSharedSignalId = 0x71FCCA6A3D5D5276ull;

// Makes the objects behind `shared` and `signal`; `shared->amd_queue` must already describe the ring.
void attach(SharedQueue* shared, SharedSignal* signal) noexcept;
void detach(SharedQueue* shared, SharedSignal* signal) noexcept;

}  // namespace rocref::bench::rocr_mirror
