// tests/unit/sdma/sdma_mutant_test.cpp - the unit checks catch each planted SDMA bug.
#include <gtest/gtest.h>

#include <array>

#include "gpu/sdma/sdma_mutant.h"
#include "sdma_ring.h"

namespace rocref::gpu::sdma::test {
namespace {

struct Planted {
  explicit Planted(SdmaMutant m) : m_(m) { set_sdma_mutant(m_, true); }
  ~Planted() { set_sdma_mutant(m_, false); }
  SdmaMutant m_;
};

TEST(SdmaMutant, SDMA_PKT_1_FixedLengthWriteLinearIsCaught) {
  Planted p(SdmaMutant::FixedLengthWriteLinear);
  TestQueue q;
  alignas(4) std::array<uint32_t, 4> dst{};
  alignas(4) uint32_t flag = 0;
  const std::array<uint32_t, 4> data{0, hdr(kOpTrap), 5, hdr(kOpTrap)};
  q.submit(write_linear(dst.data(), {data.begin(), data.end()}));
  q.submit(fence(&flag, 1));
  q.engine->drain();
  // The same checks as Sdma.SDMA_PKT_1_WriteLinearLengthComesFromItsCount; one must fail.
  const bool correct = dst == data && q.traps.empty() && flag == 1 && !q.engine->in_error();
  EXPECT_FALSE(correct) << "the mis-parse went unnoticed";
  EXPECT_FALSE(q.traps.empty()) << "data dwords executed as packets";
}

TEST(SdmaMutant, SDMA_COPY_1_CountAsBytesIsCaught) {
  Planted p(SdmaMutant::CopyCountIsBytes);
  TestQueue q;
  std::array<uint8_t, 8> src{1, 2, 3, 4, 5, 6, 7, 8}, dst{};
  q.submit(copy_linear(dst.data(), src.data(), 8));
  q.engine->drain();
  EXPECT_NE(dst, src);
}

TEST(SdmaMutant, SDMA_POLL_1_PollThatNeverWaitsIsCaught) {
  Planted p(SdmaMutant::PollNeverWaits);
  TestQueue q;
  alignas(4) uint32_t word = 0;
  q.submit(poll_mem(&word, 1, 0xffffffff));
  EXPECT_NE(q.engine->step().action, SdmaAction::Waiting);
}

}  // namespace
}  // namespace rocref::gpu::sdma::test
