// bench/queue/peer_boost.cpp - Boost.Lockfree spsc_queue and queue, fixed capacity 1024.
#include <boost/lockfree/queue.hpp>
#include <boost/lockfree/spsc_queue.hpp>

#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

class BoostSpsc {
 public:
  class Producer {
   public:
    Producer(BoostSpsc& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.push(p); });
    }
    void flush() {}

   private:
    boost::lockfree::spsc_queue<Packet, boost::lockfree::capacity<kRingSize>>& q_;
  };
  bool try_pop(Packet& out) { return q_.pop(out); }

 private:
  boost::lockfree::spsc_queue<Packet, boost::lockfree::capacity<kRingSize>> q_;
};

class BoostQueue {
 public:
  class Producer {
   public:
    Producer(BoostQueue& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.bounded_push(p); });
    }
    void flush() {}

   private:
    boost::lockfree::queue<Packet, boost::lockfree::capacity<kRingSize>>& q_;
  };
  bool try_pop(Packet& out) { return q_.pop(out); }

 private:
  boost::lockfree::queue<Packet, boost::lockfree::capacity<kRingSize>> q_;
};

}  // namespace

void add_boost_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<BoostSpsc>("boost_spsc_queue", "Boost.Lockfree spsc_queue", false));
  out.push_back(make_impl<BoostQueue>("boost_queue", "Boost.Lockfree queue", true));
}

}  // namespace rocref::bench
