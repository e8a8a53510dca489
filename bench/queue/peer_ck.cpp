// bench/queue/peer_ck.cpp - Concurrency Kit ck_ring, SPSC and MPSC, through the C instantiation.
//
// One call per operation crosses into ck_ring_packets.c (no LTO), which a
// C++ user of ck pays too; the instruction counts include it.
#include <new>

#include "bench/queue/ck_ring_packets.h"
#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

template <bool Multi>
class CkRing {
 public:
  CkRing() : ring_(rocref_ck_ring_create(kRingSize)) {
    if (ring_ == nullptr) throw std::bad_alloc();
  }
  ~CkRing() { rocref_ck_ring_destroy(ring_); }
  CkRing(const CkRing&) = delete;
  CkRing& operator=(const CkRing&) = delete;

  class Producer {
   public:
    Producer(CkRing& q, uint32_t) : ring_(q.ring_) {}
    void push(const Packet& p) {
      push_with_backoff([&] {
        return Multi ? rocref_ck_ring_enqueue_mpsc(ring_, &p) : rocref_ck_ring_enqueue_spsc(ring_, &p);
      });
    }
    void flush() {}

   private:
    rocref_ck_ring* ring_;
  };
  bool try_pop(Packet& out) {
    return Multi ? rocref_ck_ring_dequeue_mpsc(ring_, &out) : rocref_ck_ring_dequeue_spsc(ring_, &out);
  }

 private:
  rocref_ck_ring* ring_;
};

}  // namespace

void add_ck_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<CkRing<false>>("ck_ring_spsc", "Concurrency Kit ck_ring SPSC", false));
  out.push_back(make_impl<CkRing<true>>("ck_ring_mpsc", "Concurrency Kit ck_ring MPSC", true));
}

}  // namespace rocref::bench
