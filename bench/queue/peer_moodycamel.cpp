// bench/queue/peer_moodycamel.cpp - moodycamel ConcurrentQueue (implicit producers) and ReaderWriterQueue.
//
// ConcurrentQueue keeps each producer's order but not the order between
// producers (one sub-queue per producer): the table marks it. try_enqueue
// never allocates, so the capacity stays the 1024 reserved up front.
#include <concurrentqueue/concurrentqueue.h>
#include <readerwriterqueue/readerwriterqueue.h>

#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

class MoodycamelConcurrent {
 public:
  MoodycamelConcurrent() : q_(kRingSize) {}
  class Producer {
   public:
    Producer(MoodycamelConcurrent& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.try_enqueue(p); });
    }
    void flush() {}

   private:
    moodycamel::ConcurrentQueue<Packet>& q_;
  };
  bool try_pop(Packet& out) { return q_.try_dequeue(out); }

 private:
  moodycamel::ConcurrentQueue<Packet> q_;
};

// ReaderWriterQueue(n) with its default 512-entry blocks holds about 2n entries
// (1024 -> about 2044): one block of kRingSize entries keeps one empty, so
// maxSize kRingSize - 1 gives 1023 usable entries, rte_ring's capacity at this size.
using RwQueue = moodycamel::ReaderWriterQueue<Packet, kRingSize>;

class MoodycamelReaderWriter {
 public:
  MoodycamelReaderWriter() : q_(kRingSize - 1) {}
  class Producer {
   public:
    Producer(MoodycamelReaderWriter& q, uint32_t) : q_(q.q_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return q_.try_enqueue(p); });
    }
    void flush() {}

   private:
    RwQueue& q_;
  };
  bool try_pop(Packet& out) { return q_.try_dequeue(out); }

 private:
  RwQueue q_;
};

}  // namespace

void add_moodycamel_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<MoodycamelReaderWriter>("moodycamel_rwq", "moodycamel ReaderWriterQueue", false));
  out.push_back(make_impl<MoodycamelConcurrent>("moodycamel_cq", "moodycamel ConcurrentQueue", true,
                                                /*fifo_across=*/false));
}

}  // namespace rocref::bench
