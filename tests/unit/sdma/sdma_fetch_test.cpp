// tests/unit/sdma/sdma_fetch_test.cpp - SDMA-PKT-4: a packet's ring dwords are read once.
//
// A producer rewrites the header of the packet being fetched (COPY_LINEAR, 7 dwords ->
// COPY_LINEAR_RECT, 13 dwords) right after the engine read it (the header-read seam of
// sdma_mutant.h makes the moment deterministic) while only 7 dwords are published. An
// engine that takes the length from one read of the header and decodes a second read runs
// a RECT over 7 dwords, reading past its copy of the packet (the fuzzer's heap over-read);
// the engine that reads each dword once runs the COPY_LINEAR it measured.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <vector>

#include "gpu/sdma/sdma_mutant.h"
#include "sdma_ring.h"

namespace rocref::gpu::sdma::test {
namespace {

// Memory that translates only the buffers the test owns, so a mis-decoded packet faults.
class OwnedMemory final : public MemoryAccess {
 public:
  void allow(const void* p, size_t n) { ranges_.push_back({reinterpret_cast<uintptr_t>(p), n}); }
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const auto& [base, n] : ranges_) {
      if (va >= base && size <= n && va - base <= n - size) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    }
    return nullptr;
  }

 private:
  std::vector<std::pair<uint64_t, size_t>> ranges_;
};

struct RewrittenHeader {
  std::array<uint32_t, 1024> ring{};
  alignas(8) uint64_t rptr = 0, doorbell = 0;
  std::array<uint8_t, 8> src{1, 2, 3, 4, 5, 6, 7, 8}, dst{};
  OwnedMemory memory;
  std::vector<SdmaError> errors;
  int rewrites = 0;

  static void rewrite(void* self) {
    auto& t = *static_cast<RewrittenHeader*>(self);
    if (t.rewrites++ == 0) t.ring[0] = hdr(kOpCopy, kSubCopyLinearRect);  // the producer, once
  }

  SdmaStep run() {
    memory.allow(ring.data(), sizeof ring);
    memory.allow(&rptr, sizeof rptr);
    memory.allow(src.data(), src.size());
    memory.allow(dst.data(), dst.size());
    const auto pkt = copy_linear(dst.data(), src.data(), 8);
    std::copy(pkt.begin(), pkt.end(), ring.begin());
    doorbell = pkt.size() * 4;
    SdmaBinding b;
    b.ring_base = reinterpret_cast<uintptr_t>(ring.data());
    b.ring_size = sizeof ring;
    b.rptr_va = reinterpret_cast<uintptr_t>(&rptr);
    b.doorbell = &doorbell;
    b.memory = &memory;
    b.on_error = [this](SdmaError e, uint64_t, const std::string&) { errors.push_back(e); };
    SdmaEngine engine(std::move(b));
    set_sdma_header_read_hook(&RewrittenHeader::rewrite, this);
    const SdmaStep s = engine.step();
    set_sdma_header_read_hook(nullptr, nullptr);
    return s;
  }
};

TEST(Sdma, SDMA_PKT_4_HeaderRewrittenAfterItsReadDoesNotChangeThePacket) {
  RewrittenHeader t;
  const SdmaStep s = t.run();
  EXPECT_EQ(t.rewrites, 1);
  EXPECT_EQ(s.action, SdmaAction::Executed);
  EXPECT_TRUE(t.errors.empty()) << "the packet was decoded from a second read of its header";
  EXPECT_EQ(t.dst, t.src) << "the COPY_LINEAR whose length was taken ran";
  EXPECT_EQ(t.rptr, 28u);
}

TEST(SdmaMutant, SDMA_PKT_4_PacketReadTwiceIsCaught) {
  set_sdma_mutant(SdmaMutant::PacketReadTwice, true);
  RewrittenHeader t;
  t.run();
  set_sdma_mutant(SdmaMutant::PacketReadTwice, false);
  EXPECT_FALSE(t.errors.empty()) << "the re-read went unnoticed";
}

}  // namespace
}  // namespace rocref::gpu::sdma::test
