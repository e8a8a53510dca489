// tests/unit/log/log_test.cpp - the log level and API trace switches parse as documented; lines have AMD_LOG_LEVEL's shape.
#include <gtest/gtest.h>

#include <string>

#include "common/log.h"

namespace rocref::log {
namespace {

TEST(Log, LevelIsADigitClampedToDebugAndOffOtherwise) {
  EXPECT_EQ(parse_level(nullptr), kNone);
  EXPECT_EQ(parse_level(""), kNone);
  EXPECT_EQ(parse_level("0"), kNone);
  EXPECT_EQ(parse_level("1"), kError);
  EXPECT_EQ(parse_level("3"), kInfo);
  EXPECT_EQ(parse_level("4"), kDebug);
  EXPECT_EQ(parse_level("9"), kDebug);
  EXPECT_EQ(parse_level("-1"), kNone);
  EXPECT_EQ(parse_level("12"), kNone);
  EXPECT_EQ(parse_level("debug"), kNone);
}

TEST(Log, ApiTraceIsOnWhenSetAndNotZero) {
  EXPECT_FALSE(parse_switch(nullptr));
  EXPECT_FALSE(parse_switch(""));
  EXPECT_FALSE(parse_switch("0"));
  EXPECT_TRUE(parse_switch("1"));
  EXPECT_TRUE(parse_switch("01"));
}

TEST(Log, LineHasLevelComponentProcessAndThread) {
  char buf[128];
  const size_t n = format_line(buf, sizeof buf, "3", "hsa", 42, 0x1f, "queue created");
  EXPECT_EQ(std::string(buf, n), ":3:hsa: [pid:42 tid:0x1f] queue created\n");
}

TEST(Log, LongLinesAreCutAndStillEndTheLine) {
  char buf[24];
  const size_t n = format_line(buf, sizeof buf, "4", "preload", 1, 1, "a message longer than the buffer");
  ASSERT_EQ(n, sizeof buf - 1);
  EXPECT_EQ(buf[n - 1], '\n');
  EXPECT_EQ(buf[n], '\0');
}

}  // namespace
}  // namespace rocref::log
