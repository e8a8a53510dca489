// bench/queue/peer_dpdk.cpp - DPDK rte_ring with 64-byte elements, on our own aligned memory.
//
// rte_ring_init works on caller memory without the EAL or hugepages. The ring
// of count 1024 holds 1023 elements (DPDK keeps one slot empty unless
// RING_F_EXACT_SZ doubles the memory). The _elem calls pick SP/MP/RTS from
// the flags the ring was made with, as an application would call them.
#include <rte_ring.h>
#include <rte_ring_elem.h>

#include <cstdlib>
#include <new>

#include "bench/queue/harness.h"

namespace rocref::bench {
namespace {

template <unsigned Flags>
class RteRing {
 public:
  RteRing() {
    const ssize_t bytes = rte_ring_get_memsize_elem(sizeof(Packet), kRingSize);
    memory_ = std::aligned_alloc(4096, (static_cast<size_t>(bytes) + 4095) & ~size_t{4095});
    if (memory_ == nullptr) throw std::bad_alloc();
    ring_ = static_cast<rte_ring*>(memory_);
    if (rte_ring_init(ring_, "bench", kRingSize, Flags) != 0) std::abort();
  }
  ~RteRing() { std::free(memory_); }
  RteRing(const RteRing&) = delete;
  RteRing& operator=(const RteRing&) = delete;

  class Producer {
   public:
    Producer(RteRing& q, uint32_t) : ring_(q.ring_) {}
    void push(const Packet& p) {
      push_with_backoff([&] { return rte_ring_enqueue_elem(ring_, const_cast<Packet*>(&p), sizeof(Packet)) == 0; });
    }
    void flush() {}

   private:
    rte_ring* ring_;
  };

  bool try_pop(Packet& out) { return rte_ring_dequeue_elem(ring_, &out, sizeof(Packet)) == 0; }

 private:
  void* memory_ = nullptr;
  rte_ring* ring_ = nullptr;
};

}  // namespace

void add_dpdk_peers(std::vector<ImplInfo>& out) {
  out.push_back(make_impl<RteRing<RING_F_SP_ENQ | RING_F_SC_DEQ>>("rte_ring_sp_sc", "DPDK rte_ring SP/SC", false));
  out.push_back(make_impl<RteRing<RING_F_SC_DEQ>>("rte_ring_mp_sc", "DPDK rte_ring MP/SC", true));
  out.push_back(make_impl<RteRing<RING_F_MP_RTS_ENQ | RING_F_MC_RTS_DEQ>>("rte_ring_rts", "DPDK rte_ring RTS", true));
}

}  // namespace rocref::bench
