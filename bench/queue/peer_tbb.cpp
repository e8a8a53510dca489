// bench/queue/peer_tbb.cpp - oneTBB concurrent_bounded_queue with capacity 1024 (try_push/try_pop).
#include <tbb/concurrent_queue.h>

#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

class TbbBounded {
 public:
  TbbBounded() { q_.set_capacity(kRingSize); }
  class Producer {
   public:
    Producer(TbbBounded& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.try_push(p); });
    }
    void flush() {}

   private:
    tbb::concurrent_bounded_queue<Packet>& q_;
  };
  bool try_pop(Packet& out) { return q_.try_pop(out); }

 private:
  tbb::concurrent_bounded_queue<Packet> q_;
};

}  // namespace

void add_tbb_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<TbbBounded>("tbb_bounded", "TBB concurrent_bounded_queue", true));
}

}  // namespace rocref::bench
