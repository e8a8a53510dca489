// tests/unit/thunk/key_values_test.cpp - the sysfs "name value" parser.
#include "thunk/key_values.h"

#include <gtest/gtest.h>

namespace rocref::thunk {
namespace {

TEST(KeyValues, ReadsEveryNameValueLine) {
  const auto kv = KeyValues::parse("simd_count 256\nlocal_mem_size 8589934592\n\ngfx_target_version 90000\n");
  EXPECT_EQ(kv.size(), 3u);
  EXPECT_EQ(kv.get("simd_count"), 256u);
  EXPECT_EQ(kv.get("local_mem_size"), 8589934592u);
  EXPECT_EQ(kv.get("gfx_target_version"), 90000u);
  EXPECT_EQ(kv.get("absent", 7), 7u);
}

// libhsakmt's sscanf loop stops at the first line that is not "name number".
TEST(KeyValues, StopsAtTheFirstMalformedLine) {
  const auto kv = KeyValues::parse("a 1\nb not-a-number\nc 3\n");
  EXPECT_TRUE(kv.has("a"));
  EXPECT_FALSE(kv.has("b"));
  EXPECT_FALSE(kv.has("c"));
}

TEST(KeyValues, RejectsOverflowAndTrailingJunk) {
  const auto kv = KeyValues::parse("big 99999999999999999999999\n");
  EXPECT_EQ(kv.size(), 0u);
  uint64_t v = 0;
  EXPECT_FALSE(parse_u64("12x", &v));
  EXPECT_FALSE(parse_u64("", &v));
  EXPECT_TRUE(parse_u64(" 42\n", &v));
  EXPECT_EQ(v, 42u);
}

TEST(KeyValues, SiblingMapIsCommaSeparatedAndBounded) {
  const auto all = parse_sibling_map("level 1\nsibling_map 1,0,1,1\n", 256);
  EXPECT_EQ(all, (std::vector<uint32_t>{1, 0, 1, 1}));
  EXPECT_EQ(parse_sibling_map("sibling_map 1,1,1,1", 2).size(), 2u);
  EXPECT_TRUE(parse_sibling_map("level 1\n", 256).empty());
  EXPECT_EQ(parse_sibling_map("sibling_map 1,x,1", 256), (std::vector<uint32_t>{1}));
}

}  // namespace
}  // namespace rocref::thunk
