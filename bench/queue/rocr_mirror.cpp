// bench/queue/rocr_mirror.cpp - the API table, the checking functions and the core objects.
#include "bench/queue/rocr_mirror.h"

#include <atomic>
#include <stdexcept>

#include "common/memory_order.h"

namespace rocref::bench::rocr_mirror {
namespace {

class AqlQueue final : public CoreQueue {
 public:
  explicit AqlQueue(amd_queue_t* q) : q_(q) {}
  uint64_t AddWriteIndexRelease(uint64_t value) override {
    return atomic_field(q_->write_dispatch_id).fetch_add(value, std::memory_order_release);
  }
  uint64_t LoadReadIndexAcquire() override {
    return atomic_field(q_->read_dispatch_id).load(std::memory_order_acquire);
  }

 private:
  amd_queue_t* q_;
};

class DoorbellSignal final : public CoreSignal {
 public:
  explicit DoorbellSignal(amd_signal_t* s) : s_(s) {}
  void StoreRelease(hsa_signal_value_t value) override {
    std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(s_->hardware_doorbell_ptr))
        .store(static_cast<uint64_t>(value), std::memory_order_release);
  }

 private:
  amd_signal_t* s_;
};

CoreQueue* convert(const hsa_queue_t* queue) {
  if (queue == nullptr) throw std::invalid_argument("queue");
  return reinterpret_cast<const SharedQueue*>(queue)->core_queue;
}

CoreSignal* convert(hsa_signal_t signal) {
  if (signal.handle == 0) throw std::invalid_argument("signal");
  const auto* shared = reinterpret_cast<const SharedSignal*>(static_cast<uintptr_t>(signal.handle));
  if (shared->id != kSharedSignalId) throw std::invalid_argument("signal");
  return shared->core_signal;
}

// hsa.cpp's layer: check, convert, one virtual call, exceptions become a neutral result.
__attribute__((noinline)) uint64_t add_write_index_screlease(const hsa_queue_t* queue, uint64_t value) {
  try {
    return convert(queue)->AddWriteIndexRelease(value);
  } catch (...) {
    return 0;
  }
}

__attribute__((noinline)) uint64_t load_read_index_scacquire(const hsa_queue_t* queue) {
  try {
    return convert(queue)->LoadReadIndexAcquire();
  } catch (...) {
    return 0;
  }
}

__attribute__((noinline)) void signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  try {
    convert(signal)->StoreRelease(value);
  } catch (...) {
  }
}

const ApiTable g_table{&add_write_index_screlease, &load_read_index_scacquire, &signal_store_screlease};
// The table is reached through a pointer the compiler cannot see through, as ROCR's is.
const ApiTable* volatile g_table_ptr = &g_table;

}  // namespace

const ApiTable& api() noexcept { return *g_table_ptr; }

void attach(SharedQueue* shared, SharedSignal* signal) noexcept {
  shared->core_queue = new AqlQueue(&shared->amd_queue);
  signal->id = kSharedSignalId;
  signal->core_signal = new DoorbellSignal(&signal->amd_signal);
}

void detach(SharedQueue* shared, SharedSignal* signal) noexcept {
  delete shared->core_queue;
  delete signal->core_signal;
  shared->core_queue = nullptr;
  signal->core_signal = nullptr;
  signal->id = 0;
}

}  // namespace rocref::bench::rocr_mirror
