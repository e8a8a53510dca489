// tests/unit/aql_fast/aql_fast_mutant_test.cpp - the checks of aql_fast_test catch CachedProducer's planted bugs.
#include <gtest/gtest.h>

#include "common/mutant.h"
#include "tests/unit/aql_fast/aql_fast_queue.h"

namespace rocref::aql::testing {
namespace {

TEST(AqlFastMutant, AQL_IDX_2_SkipFullCheckIsCaught) {
  EXPECT_FALSE(submits_into_full_ring(8));
  ScopedMutant bug(Mutant::SkipFullCheck);
  EXPECT_TRUE(submits_into_full_ring(8)) << "the full-ring check did not notice a producer writing into a full ring";
}

TEST(AqlFastMutant, AQL_DB_1_DoorbellBeforeHeaderIsCaught) {
  // The doorbell must never name a packet whose header is still INVALID: watch
  // it from the side while batches of 256 widen the window a planted bug opens.
  auto doorbell_ahead_of_header = [] {
    FastQueue q(1024);
    std::atomic<bool> stop{false}, seen{false};
    std::thread watcher([&] {
      while (!stop.load()) {
        const uint64_t bell = q.doorbell_value();
        if (bell == 0) continue;
        const uint16_t header =
            std::atomic_ref<uint16_t>(const_cast<uint16_t&>(q.slot(bell).header)).load(std::memory_order_acquire);
        if (header_type(header) == HSA_PACKET_TYPE_INVALID) seen.store(true);
      }
    });
    CachedProducer producer(&q.queue);
    std::vector<hsa_kernel_dispatch_packet_t> batch(256);
    for (uint64_t b = 0; b < 4 && !seen.load(); ++b) {
      for (uint64_t i = 0; i < batch.size(); ++i) batch[i] = dispatch(0, b * batch.size() + i);
      producer.submit_batch(batch.data(), static_cast<uint32_t>(batch.size()));
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    stop.store(true);
    watcher.join();
    return seen.load();
  };
  EXPECT_FALSE(doorbell_ahead_of_header());
  ScopedMutant bug(Mutant::DoorbellBeforeHeader);
  bool caught = false;
  for (int attempt = 0; attempt < 20 && !caught; ++attempt) caught = doorbell_ahead_of_header();
  EXPECT_TRUE(caught) << "a doorbell rung before the header went unnoticed";
}

}  // namespace
}  // namespace rocref::aql::testing
