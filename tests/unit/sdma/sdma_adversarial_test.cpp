// tests/unit/sdma/sdma_adversarial_test.cpp - the SDMA engine's adversarial freedoms
// (spec/adversarial-gpu.md SDMA-ADV-*): doorbell values reach the engine late and coalesce,
// interrupts are raised late but in order and never lost. Choices are scripted per kind, so
// each scenario is exact; the KFD's SDMA queues draw them from the seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu/sdma/sdma_mutant.h"
#include "sdma_ring.h"

namespace rocref::gpu::sdma::test {
namespace {

// Answers each kind of choice from its own script (the last entry repeats).
struct Script {
  std::vector<uint32_t> doorbell_late{1}, trap_late{1}, trap_delay{0};
  size_t d = 0, l = 0, y = 0;
  static uint32_t next(const std::vector<uint32_t>& v, size_t& i) { return v[std::min(i++, v.size() - 1)]; }
  uint32_t operator()(uint32_t n, const char* what) {
    const std::string w = what;
    uint32_t value = 0;
    if (w == "sdma doorbell late") value = next(doorbell_late, d);
    else if (w == "sdma trap late") value = next(trap_late, l);
    else if (w == "sdma trap delay") value = next(trap_delay, y);
    return value % n;
  }
};

std::vector<uint32_t> trap(uint32_t ctx) { return {hdr(kOpTrap), ctx}; }

uint32_t load(const uint32_t& w) { return std::atomic_ref<const uint32_t>(w).load(); }

// Steps until the engine has no work left; at most `limit` steps.
int run_to_idle(TestQueue& q, int limit = 64) {
  int steps = 0;
  while (q.engine->has_work() && steps < limit) {
    q.engine->step();
    ++steps;
  }
  q.engine->step();  // the idle step
  return steps;
}

TEST(SdmaAdversarial, SDMA_ADV_1_DoorbellValuesArriveLateAndCoalesce) {
  auto script = std::make_shared<Script>();
  script->doorbell_late = {0};  // always late: the engine caps a value's wait at 3 steps
  TestQueue q(4096, true, [script](uint32_t n, const char* w) { return (*script)(n, w); });
  alignas(8) uint32_t a = 0, b = 0;
  q.submit(write_linear(&a, {1}));
  EXPECT_EQ(q.engine->step().action, SdmaAction::Waiting);  // the value has not reached the engine
  q.submit(write_linear(&b, {2}));                           // a second store before it did
  EXPECT_EQ(q.engine->step().action, SdmaAction::Waiting);
  EXPECT_EQ(q.engine->step().action, SdmaAction::Waiting);
  EXPECT_TRUE(q.engine->owes());
  EXPECT_EQ(load(a), 0u);
  // The fourth step delivers the newest value: both packets, with no further wait.
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);
  EXPECT_EQ(load(a), 1u);
  EXPECT_EQ(load(b), 2u);
  EXPECT_FALSE(q.engine->has_work());
}

// The TRAP is held 3 steps: the WRITE_LINEAR after it lands before the interrupt.
std::vector<uint32_t> traps_after_a_late_trap(uint32_t* written_before_trap) {
  auto script = std::make_shared<Script>();
  script->trap_late = {0, 1};
  script->trap_delay = {2};
  TestQueue q(4096, true, [script](uint32_t n, const char* w) { return (*script)(n, w); });
  alignas(8) uint32_t x = 0;
  std::vector<uint32_t> packets = trap(7);
  const std::vector<uint32_t> write = write_linear(&x, {1});
  packets.insert(packets.end(), write.begin(), write.end());
  q.submit(packets);
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);  // the TRAP: its interrupt held back
  EXPECT_TRUE(q.traps.empty());
  EXPECT_EQ(q.engine->step().action, SdmaAction::Executed);  // the write
  *written_before_trap = q.traps.empty() ? load(x) : 0;
  run_to_idle(q);
  return q.traps;
}

TEST(SdmaAdversarial, SDMA_ADV_2_LateInterruptIsRaisedBeforeTheEngineIdles) {
  uint32_t written = 0;
  EXPECT_EQ(traps_after_a_late_trap(&written), std::vector<uint32_t>{7});
  EXPECT_EQ(written, 1u) << "the later packet's effect came before the interrupt";
}

TEST(SdmaAdversarial, SDMA_ADV_2_LateTrapDroppedAtIdleIsCaught) {
  set_sdma_mutant(SdmaMutant::LateTrapDroppedAtIdle, true);
  uint32_t written = 0;
  const std::vector<uint32_t> traps = traps_after_a_late_trap(&written);
  set_sdma_mutant(SdmaMutant::LateTrapDroppedAtIdle, false);
  EXPECT_TRUE(traps.empty()) << "the mutant loses the held interrupt";
}

TEST(SdmaAdversarial, SDMA_ADV_2_InterruptsKeepTheirOrder) {
  auto script = std::make_shared<Script>();
  script->trap_late = {0, 1};  // the first held, the second not chosen late: it waits behind it
  script->trap_delay = {2};
  TestQueue q(4096, true, [script](uint32_t n, const char* w) { return (*script)(n, w); });
  std::vector<uint32_t> packets = trap(1);
  const std::vector<uint32_t> second = trap(2);
  packets.insert(packets.end(), second.begin(), second.end());
  q.submit(packets);
  run_to_idle(q);
  EXPECT_EQ(q.traps, (std::vector<uint32_t>{1, 2}));
}

}  // namespace
}  // namespace rocref::gpu::sdma::test
