// tests/unit/common/expected_test.cpp - Expected<T, E> (common/expected.h): a value or an error, never both.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <variant>

#include "common/expected.h"

namespace rocref {
namespace {

enum class Err { Busy = 1, Gone = 2 };

Expected<int, Err> half(int x) {
  if (x % 2 != 0) return unexpected(Err::Busy);
  return x / 2;
}

TEST(Expected, HoldsTheValue) {
  const Expected<int, Err> e = half(8);
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(static_cast<bool>(e));
  EXPECT_EQ(e.value(), 4);
  EXPECT_EQ(*e, 4);
  EXPECT_EQ(e.value_or(-1), 4);
  EXPECT_THROW((void)e.error(), std::bad_variant_access);
}

TEST(Expected, HoldsTheError) {
  const Expected<int, Err> e = half(7);
  ASSERT_FALSE(e.has_value());
  EXPECT_FALSE(static_cast<bool>(e));
  EXPECT_EQ(e.error(), Err::Busy);
  EXPECT_EQ(e.value_or(-1), -1);
  EXPECT_THROW((void)e.value(), std::bad_variant_access);
}

// A false or null value is a value, not an error.
TEST(Expected, FalseAndNullAreValues) {
  const Expected<bool, std::string> no = false;
  ASSERT_TRUE(no.has_value());
  EXPECT_FALSE(no.value());
  const Expected<void*, int> null = nullptr;
  ASSERT_TRUE(null.has_value());
  EXPECT_EQ(null.value(), nullptr);
  const Expected<bool, std::string> why = unexpected(std::string("unmapped"));
  ASSERT_FALSE(why.has_value());
  EXPECT_EQ(why.error(), "unmapped");
}

TEST(Expected, MovesOutAMoveOnlyValue) {
  Expected<std::unique_ptr<int>, Err> e = std::make_unique<int>(5);
  ASSERT_TRUE(e);
  EXPECT_EQ(*e.value(), 5);
  std::unique_ptr<int> taken = std::move(e).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 5);
  Expected<std::unique_ptr<int>, Err> none = unexpected(Err::Gone);
  EXPECT_EQ(std::move(none).value_or(nullptr), nullptr);
}

}  // namespace
}  // namespace rocref
