// bench/queue/peer_atomic_queue.cpp - atomic_queue's AtomicQueue2 (non-atomic elements, per-slot state).
#include <atomic_queue/atomic_queue.h>

#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

class AtomicQueue {
 public:
  class Producer {
   public:
    Producer(AtomicQueue& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.try_push(p); });
    }
    void flush() {}

   private:
    atomic_queue::AtomicQueue2<Packet, kRingSize>& q_;
  };
  bool try_pop(Packet& out) { return q_.try_pop(out); }

 private:
  atomic_queue::AtomicQueue2<Packet, kRingSize> q_;
};

}  // namespace

void add_atomic_queue_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<AtomicQueue>("atomic_queue", "atomic_queue AtomicQueue2", true));
}

}  // namespace rocref::bench
