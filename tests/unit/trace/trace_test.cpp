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

}  // namespace
}  // namespace rocref::trace
