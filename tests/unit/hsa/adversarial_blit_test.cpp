// tests/unit/hsa/adversarial_blit_test.cpp - the HSA runtime's blit packets (hsa_mutant.h) on
// the adversarial GPU model (gpu/adversary.h): with each planted bug off a fill is seen by the
// host, with it on the adversarial run catches it (a stale host read, an AQL-DB-1 report).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/aql_packet.h"
#include "common/trace.h"
#include "gpu/adversary.h"
#include "hsa/hsa_mutant.h"

namespace {

using rocref::hsa::HsaMutant;
using rocref::hsa::ScopedHsaMutant;
namespace adversary = rocref::gpu::adversary;

constexpr size_t kWords = 1000;

hsa_agent_t first_agent(hsa_device_type_t want) {
  struct Query {
    hsa_device_type_t want;
    hsa_agent_t found{0};
  } query{want};
  hsa_iterate_agents(
      [](hsa_agent_t agent, void* data) {
        auto* q = static_cast<Query*>(data);
        hsa_device_type_t type;
        if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS && type == q->want &&
            q->found.handle == 0) {
          q->found = agent;
        }
        return HSA_STATUS_SUCCESS;
      },
      &query);
  return query.found;
}

hsa_amd_memory_pool_t first_global_pool(hsa_agent_t agent) {
  hsa_amd_memory_pool_t found{0};
  hsa_amd_agent_iterate_memory_pools(
      agent,
      [](hsa_amd_memory_pool_t pool, void* data) {
        hsa_amd_segment_t segment;
        if (hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) != HSA_STATUS_SUCCESS ||
            segment != HSA_AMD_SEGMENT_GLOBAL) {
          return HSA_STATUS_SUCCESS;
        }
        *static_cast<hsa_amd_memory_pool_t*>(data) = pool;
        return HSA_STATUS_INFO_BREAK;
      },
      &found);
  return found;
}

bool logged(const char* clause) {
  const std::vector<std::string> log = adversary::violation_log();
  return std::any_of(log.begin(), log.end(), [&](const std::string& l) { return l.find(clause) != std::string::npos; });
}

class AdversarialBlit : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!adversary::enabled()) adversary::enable(13);
    ASSERT_EQ(hsa_init(), HSA_STATUS_SUCCESS);
  }
  static void TearDownTestSuite() { hsa_shut_down(); }
  void SetUp() override {
    adversary::clear_violations();
    pool = first_global_pool(first_agent(HSA_DEVICE_TYPE_CPU));
    ASSERT_NE(pool.handle, 0u);
    ASSERT_EQ(hsa_amd_memory_pool_allocate(pool, kWords * sizeof(uint32_t), 0, &memory), HSA_STATUS_SUCCESS);
    words = static_cast<uint32_t*>(memory);
    std::fill_n(words, kWords, 0u);
  }
  void TearDown() override { hsa_amd_memory_pool_free(memory); }
  // The fill kernel writes `value` everywhere; true when the host then reads it everywhere.
  bool host_sees_fill(uint32_t value) {
    if (hsa_amd_memory_fill(memory, value, kWords) != HSA_STATUS_SUCCESS) return false;
    return std::all_of(words, words + kWords, [&](uint32_t w) { return w == value; });
  }
  hsa_amd_memory_pool_t pool{0};
  void* memory = nullptr;
  uint32_t* words = nullptr;
};

// covers: AQL-FEN-3, AQL-FEN-4
TEST_F(AdversarialBlit, FillIsReleasedAtSystemScope) {
  EXPECT_TRUE(host_sees_fill(0x1111u)) << adversary::seed_note();
  {
    ScopedHsaMutant bug(HsaMutant::BlitAgentReleaseScope);
    EXPECT_FALSE(host_sees_fill(0x2222u))
        << "BlitAgentReleaseScope: the host read the fill although its release was agent scope"
        << adversary::seed_note();
  }
  EXPECT_TRUE(host_sees_fill(0x3333u)) << adversary::seed_note();
}

// Fills of separate parts of one buffer, one value each: the blit's one kernarg segment is rewritten for
// every fill, so a dispatch that reads an older copy fills the previous buffer again.
// covers: AQL-FEN-6
TEST_F(AdversarialBlit, FillIsAcquiredAtSystemScope) {
  constexpr uint32_t kFills = 12;
  constexpr size_t kFillWords = 64;
  auto each_fill_lands = [&] {
    static_assert(kFills * kFillWords <= kWords);
    std::fill_n(words, kWords, 0u);
    bool landed = true;
    for (uint32_t i = 0; i < kFills; ++i) {
      uint32_t* buffer = words + i * kFillWords;
      if (hsa_amd_memory_fill(buffer, 0x100u + i, kFillWords) != HSA_STATUS_SUCCESS) return false;
      landed &= std::all_of(buffer, buffer + kFillWords, [&](uint32_t w) { return w == 0x100u + i; });
    }
    return landed;
  };
  EXPECT_TRUE(each_fill_lands()) << adversary::seed_note();
  {
    ScopedHsaMutant bug(HsaMutant::BlitAgentAcquireScope);
    EXPECT_FALSE(each_fill_lands())
        << "BlitAgentAcquireScope: every fill used its own arguments although the acquire was agent scope"
        << adversary::seed_note();
  }
  EXPECT_TRUE(each_fill_lands()) << adversary::seed_note();
}

// The blit dispatch as the GPU model launched it (its "packet processor: launch" trace): the
// kernarg is a host write, so the acquire is SYSTEM scope as the release is. The model keeps
// every launch coherent whatever its acquire scope (spec/adversarial-gpu.md, "Not modelled"),
// so the header is checked as launched.
// covers: AQL-FEN-3
TEST_F(AdversarialBlit, FillHeaderIsFencedAtSystemScope) {
  auto fill_headers = [&](uint32_t value) {
    rocref::trace::clear();
    rocref::trace::enable(true);
    EXPECT_EQ(hsa_amd_memory_fill(memory, value, kWords), HSA_STATUS_SUCCESS);
    rocref::trace::enable(false);
    std::vector<uint16_t> headers;
    for (const rocref::trace::Event& e : rocref::trace::snapshot()) {
      if (e.layer != rocref::trace::Layer::Gpu || e.name != "packet processor: launch") continue;
      const size_t at = e.detail.find(" header=0x");
      if (at != std::string::npos) {
        headers.push_back(static_cast<uint16_t>(std::strtoul(e.detail.c_str() + at + 10, nullptr, 16)));
      }
    }
    rocref::trace::clear();
    return headers;
  };
  const std::vector<uint16_t> headers = fill_headers(0x6666u);
  ASSERT_FALSE(headers.empty()) << "the fill launched no traced packet";
  for (uint16_t h : headers) {
    EXPECT_TRUE(rocref::aql::header_barrier(h)) << std::hex << h;
    EXPECT_EQ(rocref::aql::header_acquire_scope(h), HSA_FENCE_SCOPE_SYSTEM) << std::hex << h;
    EXPECT_EQ(rocref::aql::header_release_scope(h), HSA_FENCE_SCOPE_SYSTEM) << std::hex << h;
  }
  ScopedHsaMutant bug(HsaMutant::BlitAgentAcquireScope);
  const std::vector<uint16_t> buggy = fill_headers(0x7777u);
  ASSERT_FALSE(buggy.empty());
  for (uint16_t h : buggy) {
    EXPECT_EQ(rocref::aql::header_acquire_scope(h), HSA_FENCE_SCOPE_AGENT)
        << "BlitAgentAcquireScope not seen in the launched header " << std::hex << h;
  }
}

// Last: the caught bug leaves the blit queue in error for the rest of the process.
// covers: AQL-DB-1
TEST_F(AdversarialBlit, ZZ_BlitDoorbellAfterTheHeader) {
  EXPECT_TRUE(host_sees_fill(0x4444u));  // the blit queue is bound by now
  EXPECT_EQ(adversary::violations(), 0u) << adversary::seed_note();
  ScopedHsaMutant bug(HsaMutant::BlitDoorbellBeforeHeader);
  hsa_amd_memory_fill(memory, 0x5555u, kWords);  // fails or succeeds: the report is what counts
  EXPECT_TRUE(logged("AQL-DB-1")) << "BlitDoorbellBeforeHeader not caught" << adversary::seed_note();
}

}  // namespace
