// bench/queue/peer_rocref.cpp - rocref's submission core: QueueRing as the HSA layer uses it, CachedProducer
// and SingleProducer.
//
// The consumer is RingReader, the packet processor's fetch path (acquire the
// header, copy, reset to INVALID, advance read_index): per packet for the
// QueueRing rows, read_index published every 32 packets for the cached rows.
#include "bench/queue/aql_queue_memory.h"
#include "bench/queue/harness.h"
#include "common/aql_producer.h"
#include "common/aql_reader.h"
#include "common/aql_ring.h"

namespace rocref::bench {
namespace {

inline constexpr uint32_t kReaderBatch = 32;
inline constexpr uint32_t kSubmitBatch = 8;

template <aql::Reservation How>
class RocrefQueueRing {
 public:
  RocrefQueueRing() : reader_(memory_.queue(), 1) {}
  class Producer {
   public:
    Producer(RocrefQueueRing& q, uint32_t) : ring_(q.memory_.queue()) {}
    void push(const Packet& p) { ring_.submit(&p, How); }
    void flush() {}

   private:
    aql::QueueRing ring_;
  };
  bool try_pop(Packet& out) { return reader_.try_fetch(&out); }

 private:
  AqlQueueMemory memory_;
  aql::RingReader reader_;
};

// CachedProducer (fetch_add, any number of producers) or SingleProducer (a SINGLE
// queue's one producer: plain load+store reservation, AQL-IDX-7).
template <class CoreProducer>
class RocrefCached {
 public:
  RocrefCached() : reader_(memory_.queue(), kReaderBatch) {}
  class Producer {
   public:
    Producer(RocrefCached& q, uint32_t) : producer_(q.memory_.queue()) {}
    void push(const Packet& p) { producer_.submit(&p); }
    void flush() {}

   private:
    CoreProducer producer_;
  };
  bool try_pop(Packet& out) { return reader_.try_fetch(&out); }

 private:
  AqlQueueMemory memory_;
  aql::RingReader reader_;
};

// k packets per reservation and per doorbell store (AQL-IDX-1 with k > 1).
class RocrefCachedBatch {
 public:
  RocrefCachedBatch() : reader_(memory_.queue(), kReaderBatch) {}
  class Producer {
   public:
    Producer(RocrefCachedBatch& q, uint32_t) : producer_(q.memory_.queue()) {}
    void push(const Packet& p) {
      pending_[count_++] = p;
      if (count_ == kSubmitBatch) flush();
    }
    void flush() {
      if (count_ == 0) return;
      producer_.submit_batch(pending_, count_);
      count_ = 0;
    }

   private:
    aql::CachedProducer producer_;
    Packet pending_[kSubmitBatch];
    uint32_t count_ = 0;
  };
  bool try_pop(Packet& out) { return reader_.try_fetch(&out); }

 private:
  AqlQueueMemory memory_;
  aql::RingReader reader_;
};

}  // namespace

void add_rocref_cores(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<RocrefQueueRing<aql::Reservation::FetchAdd>>(
      "rocref_queue_ring", "rocref QueueRing (fetch_add)", true));
  out.push_back(make_impl<RocrefQueueRing<aql::Reservation::Cas>>("rocref_queue_ring_cas",
                                                                   "rocref QueueRing (CAS)", true));
  out.push_back(make_impl<RocrefCached<aql::CachedProducer>>("rocref_cached", "rocref CachedProducer", true));
  out.push_back(
      make_impl<RocrefCached<aql::SingleProducer>>("rocref_single", "rocref SingleProducer (SINGLE queue)", false));
  out.push_back(make_impl<RocrefCachedBatch>("rocref_cached_batch8", "rocref CachedProducer, batches of 8", true,
                                             /*fifo_across=*/true, /*batched=*/true));
}

}  // namespace rocref::bench
