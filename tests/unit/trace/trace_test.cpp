// tests/unit/trace/trace_test.cpp - the trace recorder and its renderings.
#include <gtest/gtest.h>

#include "common/trace.h"
#include "common/trace_format.h"

namespace rocref::trace {
namespace {

class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    enable(true);
    clear();
  }
  void TearDown() override {
    enable(false);
    clear();
  }
};

TEST_F(TraceTest, RecordsNothingWhenOff) {
  enable(false);
  { ROCREF_TRACE_SPAN(Layer::Hip, "hipMalloc", "size=16"); }
  ROCREF_TRACE_EVENT(Layer::Gpu, "doorbell", "");
  EXPECT_TRUE(snapshot().empty());
}

TEST_F(TraceTest, SpansNestAndTextIndentsByDepth) {
  {
    ROCREF_TRACE_SPAN(Layer::Hip, "hipMalloc", "size=16");
    ROCREF_TRACE_SPAN(Layer::Thunk, "hsaKmtAllocMemory", "");
    ROCREF_TRACE_EVENT(Layer::Kfd, "ALLOC_MEMORY_OF_GPU", "flags=VRAM");
  }
  const std::vector<Event> events = snapshot();
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events[0].phase, Phase::Begin);
  EXPECT_EQ(events[4].phase, Phase::End);
  const std::string text = to_text(events);
  EXPECT_NE(text.find("> hipMalloc  size=16"), std::string::npos) << text;
  EXPECT_NE(text.find("    - ALLOC_MEMORY_OF_GPU  flags=VRAM"), std::string::npos) << text;
}

TEST_F(TraceTest, ChromeJsonHasOneProcessPerLayerAndEscapes) {
  ROCREF_TRACE_EVENT(Layer::Hsa, "quote\"name", "line\nbreak");
  ROCREF_TRACE_EVENT(Layer::Gpu, "launch", "");
  const std::string json = to_chrome_json(snapshot());
  EXPECT_NE(json.find("\"name\":\"process_name\",\"pid\":4,\"args\":{\"name\":\"hsa\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\":\"process_name\",\"pid\":7,\"args\":{\"name\":\"gpu\"}"), std::string::npos);
  EXPECT_NE(json.find("quote\\\"name"), std::string::npos);
  EXPECT_NE(json.find("line\\nbreak"), std::string::npos);
}

// ISA-TRACE-1: the GPU model's per-dispatch events as the table `rocref trace` prints and as JSON numbers.
TEST(TraceFormat, ISA_TRACE_1_DispatchStatsTableAndJson) {
  enable(true);
  clear();
  ROCREF_TRACE_EVENT(
      Layer::Gpu, "dispatch stats",
      "id=3 code=gfx900 work-groups=2 waves=4 instructions=40 scalar=12 vector=28 lane-instructions=2560");
  ROCREF_TRACE_EVENT(Layer::Gpu, "launch", "id=9 waves=1");
  ROCREF_TRACE_EVENT(Layer::Gpu, "dispatch stats", "id=4 code=host work-groups=5 waves=10");
  const std::vector<Event> events = snapshot();
  enable(false);
  clear();
  const std::vector<DispatchStats> stats = dispatch_stats(events);
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_EQ(stats[0].code, "gfx900");
  EXPECT_EQ(stats[0].counts.at("scalar"), 12u);
  EXPECT_EQ(stats[1].counts.at("waves"), 10u);
  EXPECT_EQ(
      dispatch_table(events),
      "   dispatch 3 (gfx900): 2 work-groups, 4 waves, 40 instructions (12 scalar, 28 vector), 2560 lane-instructions\n"
      "   dispatch 4 (host): 5 work-groups, 10 waves\n");
  const std::string json = to_chrome_json(events);
  EXPECT_NE(json.find("\"code\":\"gfx900\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"instructions\":40"), std::string::npos) << json;
  EXPECT_NE(json.find("\"waves\":10"), std::string::npos) << json;
}

}  // namespace
}  // namespace rocref::trace
