// bench/queue/impl.h - what the suite knows about each queue implementation it measures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rocref::bench {

struct RunConfig {
  uint32_t producers = 1;
  double seconds = 0.05;  // producers stop pushing after this long
};

struct RunResult {
  uint64_t items = 0;         // packets the consumer received
  double seconds = 0;         // consumer's time from the start barrier to the last packet
  uint64_t order_errors = 0;  // packets out of per-producer order, or lost
  bool realtime = false;      // every measured thread got SCHED_FIFO
};

struct ImplInfo {
  std::string name;   // benchmark name part, e.g. rte_ring_mp_sc
  std::string label;  // the table's wording
  bool multi_producer = false;
  bool fifo_across_producers = true;  // false: keeps only each producer's order
  bool batched = false;               // moves packets in batches (not per-packet work)
  RunResult (*run)(const RunConfig&) = nullptr;
  // Single thread: `pairs` push+pop pairs after a warm-up; `planted` adds work
  // per pair (the regression check's mutant). Returns a value the caller must use.
  uint64_t (*pairs)(uint64_t pairs, bool planted, bool measure) = nullptr;
};

// Every implementation, rte_ring first (the reference of every ratio).
const std::vector<ImplInfo>& implementations();
const ImplInfo* find_implementation(const std::string& name);

// Each peer's translation unit adds its own entries.
void add_dpdk_peers(std::vector<ImplInfo>& out);
void add_boost_peers(std::vector<ImplInfo>& out);
void add_moodycamel_peers(std::vector<ImplInfo>& out);
void add_atomic_queue_peers(std::vector<ImplInfo>& out);
void add_tbb_peers(std::vector<ImplInfo>& out);
void add_ck_peers(std::vector<ImplInfo>& out);
void add_rocr_mirror(std::vector<ImplInfo>& out);
void add_rocref_cores(std::vector<ImplInfo>& out);

}  // namespace rocref::bench
