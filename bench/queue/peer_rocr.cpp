// bench/queue/peer_rocr.cpp - a ROCR application's submission: the mirrored API calls around a packet copy.
//
// Per packet, as ROCR's users write it: id = add_write_index_screlease(1);
// wait while id - load_read_index_scacquire() >= size (full check every
// time); copy the whole packet with an INVALID header; release-store the
// 32-bit header+setup; signal_store_screlease(doorbell, id). The consumer is
// the same RingReader the rocref rows use.
#include <cstdlib>
#include <cstring>
#include <new>

#include "bench/queue/harness.h"
#include "bench/queue/rocr_mirror.h"
#include "common/aql_reader.h"
#include "common/aql_ring.h"

namespace rocref::bench {
namespace {

class RocrMirror {
 public:
  RocrMirror() {
    ring_ = std::aligned_alloc(4096, size_t{kRingSize} * sizeof(Packet));
    if (ring_ == nullptr) throw std::bad_alloc();
    aql::invalidate_ring(ring_, kRingSize);
    signal_.amd_signal.kind = AMD_SIGNAL_KIND_DOORBELL;
    signal_.amd_signal.hardware_doorbell_ptr = &doorbell_word_;
    queue_.amd_queue.hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
    queue_.amd_queue.hsa_queue.base_address = ring_;
    queue_.amd_queue.hsa_queue.size = kRingSize;
    queue_.amd_queue.hsa_queue.doorbell_signal.handle = reinterpret_cast<uintptr_t>(&signal_);
    rocr_mirror::attach(&queue_, &signal_);
    reader_ = new aql::RingReader(&queue_.amd_queue, 1);
  }
  ~RocrMirror() {
    delete reader_;
    rocr_mirror::detach(&queue_, &signal_);
    std::free(ring_);
  }
  RocrMirror(const RocrMirror&) = delete;
  RocrMirror& operator=(const RocrMirror&) = delete;

  class Producer {
   public:
    Producer(RocrMirror& q, uint32_t) : queue_(&q.queue_.amd_queue.hsa_queue) {}
    void push(const Packet& p) {
      const auto& api = rocr_mirror::api();
      const uint64_t id = api.hsa_queue_add_write_index_screlease(queue_, 1);
      if (id - api.hsa_queue_load_read_index_scacquire(queue_) >= queue_->size) {
        Backoff backoff;
        while (id - api.hsa_queue_load_read_index_scacquire(queue_) >= queue_->size) backoff.pause();
      }
      auto* slot = static_cast<Packet*>(queue_->base_address) + (id & (queue_->size - 1));
      Packet body = p;
      body.header = aql::kInvalidHeader;
      std::memcpy(static_cast<void*>(slot), &body, sizeof body);
      std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot))
          .store(aql::make_header_setup(p.header, p.setup), std::memory_order_release);
      api.hsa_signal_store_screlease(queue_->doorbell_signal, static_cast<hsa_signal_value_t>(id));
    }
    void flush() {}

   private:
    const hsa_queue_t* queue_;
  };
  bool try_pop(Packet& out) { return reader_->try_fetch(&out); }

 private:
  void* ring_ = nullptr;
  rocr_mirror::SharedQueue queue_{};
  rocr_mirror::SharedSignal signal_{};
  alignas(64) uint64_t doorbell_word_ = 0;
  aql::RingReader* reader_ = nullptr;
};

}  // namespace

void add_rocr_mirror(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<RocrMirror>("rocr_mirror", "ROCR 5.2.3 path (mirrored)", true));
}

}  // namespace rocref::bench
