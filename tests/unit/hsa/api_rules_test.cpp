// tests/unit/hsa/api_rules_test.cpp - timeout hints and queue sizes (hsa/api_rules.h).
#include "hsa/api_rules.h"

#include <gtest/gtest.h>

namespace rocref::hsa {
namespace {

TEST(HsaRules, HSA_SIG_3_TimeoutHintCountsTimestampTicks) {
  EXPECT_EQ(timeout_hint_to_ns(1'000'000, 1'000'000'000), 1'000'000u);  // 1 ms at 1 GHz
  EXPECT_EQ(timeout_hint_to_ns(100, 100'000'000), 1'000u);              // 100 ticks at 100 MHz
  EXPECT_EQ(timeout_hint_to_ns(3, 2), 1'500'000'000u);                  // fractional seconds
  EXPECT_EQ(timeout_hint_to_ns(0, 1'000'000'000), 0u);
}

TEST(HsaRules, HSA_SIG_3_MaximumHintAndOverflowMeanNoTimeout) {
  EXPECT_EQ(timeout_hint_to_ns(UINT64_MAX, 1'000'000'000), UINT64_MAX);
  EXPECT_EQ(timeout_hint_to_ns(UINT64_MAX - 1, 1), UINT64_MAX);  // 2^64 s does not fit in ns
  EXPECT_EQ(timeout_hint_to_ns(5, 0), UINT64_MAX);               // no clock: never time out
  // Large but representable: 10^9 s at 1 Hz.
  EXPECT_EQ(timeout_hint_to_ns(1'000'000'000, 1), 1'000'000'000ull * 1'000'000'000ull);
  // A high-frequency clock must not overflow the remainder arithmetic.
  EXPECT_EQ(timeout_hint_to_ns(99'999'999'999ull, 100'000'000'000ull), 999'999'999u);
}

TEST(HsaRules, HSA_QUEUE_1_SizeIsAPowerOfTwoUpToTheMaximum) {
  EXPECT_TRUE(queue_size_valid(1, 131072));
  EXPECT_TRUE(queue_size_valid(64, 131072));
  EXPECT_TRUE(queue_size_valid(131072, 131072));
  EXPECT_FALSE(queue_size_valid(0, 131072));
  EXPECT_FALSE(queue_size_valid(96, 131072));
  EXPECT_FALSE(queue_size_valid(262144, 131072));
  EXPECT_FALSE(queue_size_valid(0x80000001u, UINT32_MAX));
}

TEST(HsaRules, HSA_QUEUE_1_SizeBelowTheMinimumIsRoundedUp) {
  EXPECT_EQ(effective_queue_size(1, 64), 64u);
  EXPECT_EQ(effective_queue_size(32, 64), 64u);
  EXPECT_EQ(effective_queue_size(64, 64), 64u);
  EXPECT_EQ(effective_queue_size(4096, 64), 4096u);
}

}  // namespace
}  // namespace rocref::hsa
