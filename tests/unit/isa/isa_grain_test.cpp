// tests/unit/isa/isa_grain_test.cpp - the adversarial GPU's L2 (gpu/isa/agent_cache.h) under a hipcc-built
// gfx900 kernel on a real amd_queue_t ring (spec/adversarial-gpu.md GPU-GRAIN-1..5).
//
// vadd(a, b, c) reads a and b and writes c. Coarse-grained buffers go through the agent's L2:
// released at AGENT scope, the host reading after the completion signal sees stale c; at SYSTEM
// scope it always sees the sums; fine-grained buffers are always coherent; a host write to an
// input is seen by a later dispatch only through a system-scope acquire. Each check also runs
// with its planted bug (IsaMutant, Mutant) and must then fail.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "code_object.h"
#include "common/aql_packet.h"
#include "common/mutant.h"
#include "gpu/adversary.h"
#include "gpu/isa/agent_cache.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/packet_processor.h"
#include "queue_fixture.h"

namespace rocref::gpu {
namespace {

using testing::barrier_packet;
using testing::dispatch_packet;
using testing::TestQueue;
using testing::TestSignal;

const test::CodeObject& kernels() {
  static const test::CodeObject co(ROCREF_ISA_KERNELS_O2);
  return co;
}

// Identity translation; the pages of the registered ranges are coarse-grained (MTYPE_NC).
class GrainMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access access) noexcept override {
    return flat_.translate(va, size, access);
  }
  Grain grain(uint64_t va) noexcept override {
    for (const auto& [lo, hi] : coarse_) {
      if (va >= lo && va < hi) return Grain::Coarse;
    }
    return Grain::Fine;
  }
  void coarse(const void* p, size_t bytes) {
    const auto lo = reinterpret_cast<uintptr_t>(p);
    coarse_.push_back({lo, lo + bytes});
  }
  void unmap(const void* p, size_t bytes) { unmapped(reinterpret_cast<uintptr_t>(p), bytes); }

 private:
  FlatMemory flat_;
  std::vector<std::pair<uint64_t, uint64_t>> coarse_;
};

constexpr int kN = 256;

struct Run {
  int stale_after_signal = 0;   // elements of c the host read wrong after the completion signal
  int stale_after_barrier = 0;  // ... after a later system-scope release on the agent
  int stale_second = 0;         // second dispatch (after the host rewrote a): elements not a' + b
  int stale_copy = 0;           // a host-compiled kernel's copy of c made right after the dispatch
};

// A host-compiled kernel on the same agent: its body reads memory directly, not through the L2.
struct CopyArgs {
  const float* from;
  float* to;
};
void copy_kernel(const void* kernarg) {
  const auto& a = *static_cast<const CopyArgs*>(kernarg);
  std::memcpy(a.to, a.from, sizeof(float) * kN);
}
uint64_t copy_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("grain_copy", &copy_kernel);
  return id;
}

// One vadd (or two, `rewrite`) on a fresh adversarial queue with seed `seed`.
Run run_vadd(uint64_t seed, bool coarse, hsa_fence_scope_t release, hsa_fence_scope_t second_acquire, bool rewrite,
             bool copy = false) {
  adversary::enable(seed);
  std::vector<float> a(kN), b(kN), c(kN, -1.0f);
  for (int i = 0; i < kN; ++i) {
    a[i] = i * 0.5f;
    b[i] = 3.0f * i;
  }
  GrainMemory memory;
  if (coarse) {
    memory.coarse(a.data(), sizeof(float) * kN);
    memory.coarse(b.data(), sizeof(float) * kN);
    memory.coarse(c.data(), sizeof(float) * kN);
  }
  TestQueue queue(16);
  QueueBinding binding;
  binding.queue = &queue.queue;
  binding.memory = &memory;
  PacketProcessor proc(std::move(binding));
  struct {
    uint64_t a, b, c;
    int n;
  } args{reinterpret_cast<uintptr_t>(a.data()), reinterpret_cast<uintptr_t>(b.data()),
         reinterpret_cast<uintptr_t>(c.data()), kN};
  alignas(64) uint8_t kernarg[64] = {};
  std::memcpy(kernarg, &args, sizeof args);
  auto stale = [&](const std::vector<float>& in) {
    int wrong = 0;
    for (int i = 0; i < kN; ++i) wrong += c[i] != in[i] + b[i];
    return wrong;
  };
  auto dispatch = [&](hsa_fence_scope_t acquire, hsa_fence_scope_t rel) {
    TestSignal done(1);
    auto p = dispatch_packet(kernels().kernel_object("vadd"), done.handle(), kN, 64, kernarg);
    p.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, acquire, rel);
    queue.submit(p);
    for (int k = 0; k < 10000 && done.value() != 0; ++k) proc.step();
    EXPECT_EQ(done.value(), 0) << "seed " << seed;
  };
  auto system_barrier = [&] {
    TestSignal marker(1);
    queue.submit(barrier_packet<hsa_barrier_and_packet_t>(HSA_PACKET_TYPE_BARRIER_AND, {}, marker.handle()));
    for (int k = 0; k < 10000 && marker.value() != 0; ++k) proc.step();
    EXPECT_EQ(marker.value(), 0) << "seed " << seed;
  };
  Run r;
  dispatch(HSA_FENCE_SCOPE_SYSTEM, release);
  r.stale_after_signal = stale(a);
  if (copy) {
    std::vector<float> out(kN, -2.0f);
    CopyArgs ca{c.data(), out.data()};
    testing::TestKernelObject object(copy_kernel_id(), 0, sizeof ca);
    TestSignal done(1);
    queue.submit(dispatch_packet(object.address(), done.handle(), 1, 1, &ca));
    for (int k = 0; k < 10000 && done.value() != 0; ++k) proc.step();
    EXPECT_EQ(done.value(), 0) << "seed " << seed;
    for (int i = 0; i < kN; ++i) r.stale_copy += out[i] != a[i] + b[i];
  }
  // (Not before the rewrite: the barrier's own system-scope acquire would forget a's lines.)
  if (!rewrite) system_barrier();
  r.stale_after_barrier = stale(a);
  if (rewrite) {
    std::vector<float> fresh(kN);
    for (int i = 0; i < kN; ++i) a[i] = fresh[i] = 100.0f + i;  // host writes to the input
    dispatch(second_acquire, HSA_FENCE_SCOPE_SYSTEM);
    r.stale_second = stale(fresh);
  }
  EXPECT_FALSE(proc.in_error()) << "seed " << seed;
  adversary::disable();
  return r;
}

class IsaGrain : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(kernels().ok()) << kernels().error(); }
  void TearDown() override {
    adversary::disable();
    isa::set_isa_mutant(isa::IsaMutant::FineGrainCached, false);
    isa::set_isa_mutant(isa::IsaMutant::L2WritesThrough, false);
    isa::set_isa_mutant(isa::IsaMutant::UnmapKeepsL2Lines, false);
    set_mutant(Mutant::SystemReleaseSkipsL2WriteBack, false);
    set_mutant(Mutant::SystemAcquireKeepsL2Lines, false);
    set_mutant(Mutant::BypassingEngineSkipsL2WriteBack, false);
  }
};

// Seeds (of 8) whose host read after the completion signal was stale; and whether a later
// system-scope release always made every sum visible.
int stale_agent_release_seeds(bool coarse, bool* visible_after_barrier) {
  int seeds = 0;
  *visible_after_barrier = true;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Run r = run_vadd(seed, coarse, HSA_FENCE_SCOPE_AGENT, HSA_FENCE_SCOPE_SYSTEM, false);
    seeds += r.stale_after_signal > 0;
    *visible_after_barrier &= r.stale_after_barrier == 0;
  }
  return seeds;
}

int stale_system_release_seeds() {
  int seeds = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    seeds += run_vadd(seed, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM, false).stale_after_signal > 0;
  }
  return seeds;
}

int stale_second_dispatch_seeds(hsa_fence_scope_t acquire) {
  int seeds = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    seeds += run_vadd(seed, true, HSA_FENCE_SCOPE_SYSTEM, acquire, true).stale_second > 0;
  }
  return seeds;
}

TEST_F(IsaGrain, GPU_GRAIN_2_AgentScopeReleaseLeavesCoarseWritesInTheL2) {
  bool visible = false;
  EXPECT_GT(stale_agent_release_seeds(true, &visible), 0) << "a release one scope too narrow went unseen";
  EXPECT_TRUE(visible) << "a later system-scope release must write the L2 back";
  isa::set_isa_mutant(isa::IsaMutant::L2WritesThrough, true);
  EXPECT_EQ(stale_agent_release_seeds(true, &visible), 0) << "planted: a write-through L2 is never stale";
}

TEST_F(IsaGrain, GPU_GRAIN_2_SystemScopeReleaseMakesCoarseWritesVisible) {
  EXPECT_EQ(stale_system_release_seeds(), 0);
  set_mutant(Mutant::SystemReleaseSkipsL2WriteBack, true);
  EXPECT_GT(stale_system_release_seeds(), 0) << "planted: the release left dirty lines, unseen";
}

TEST_F(IsaGrain, GPU_GRAIN_1_FineGrainedMemoryIsAlwaysCoherent) {
  bool visible = false;
  EXPECT_EQ(stale_agent_release_seeds(false, &visible), 0) << "fine-grained memory bypasses the L2";
  isa::set_isa_mutant(isa::IsaMutant::FineGrainCached, true);
  EXPECT_GT(stale_agent_release_seeds(false, &visible), 0) << "planted: fine-grained memory cached, unseen";
}

int stale_copy_seeds() {
  int seeds = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    seeds += run_vadd(seed, true, HSA_FENCE_SCOPE_AGENT, HSA_FENCE_SCOPE_SYSTEM, false, true).stale_copy > 0;
  }
  return seeds;
}

TEST_F(IsaGrain, GPU_GRAIN_5_EnginesBesideTheL2SeeTheAgentsWrites) {
  EXPECT_EQ(stale_copy_seeds(), 0) << "agent scope covers the agent's own later packets";
  set_mutant(Mutant::BypassingEngineSkipsL2WriteBack, true);
  EXPECT_GT(stale_copy_seeds(), 0) << "planted: a host-compiled kernel read memory under dirty lines, unseen";
}

TEST_F(IsaGrain, GPU_GRAIN_3_HostWritesNeedASystemScopeAcquire) {
  EXPECT_EQ(stale_second_dispatch_seeds(HSA_FENCE_SCOPE_SYSTEM), 0) << "a system-scope acquire sees host writes";
  EXPECT_GT(stale_second_dispatch_seeds(HSA_FENCE_SCOPE_AGENT), 0) << "an agent-scope acquire may read old lines";
  set_mutant(Mutant::SystemAcquireKeepsL2Lines, true);
  EXPECT_GT(stale_second_dispatch_seeds(HSA_FENCE_SCOPE_SYSTEM), 0) << "planted: the acquire kept old lines, unseen";
}

// GPU-GRAIN-4: an unmapped range's lines are discarded, never written back to memory that may be
// someone else's by then.
bool unmap_discards_lines() {
  std::vector<uint32_t> page(1024, 0);
  GrainMemory memory;
  memory.coarse(page.data(), page.size() * 4);
  isa::AgentCache l2(1);
  const uint64_t va = reinterpret_cast<uintptr_t>(page.data());
  void* host = memory.translate(va, 4, Access::Write);
  auto* line = static_cast<uint32_t*>(l2.access(memory, va, host, 4, Access::Write));
  if (line == host || l2.dirty_lines() != 1) return false;
  *line = 7;  // a store that stays in the L2
  memory.unmap(page.data(), page.size() * 4);
  const bool discarded = l2.lines() == 0;
  l2.write_back();  // a later system-scope release must not write to the unmapped page
  return discarded && page[0] == 0;
}

TEST_F(IsaGrain, GPU_GRAIN_4_UnmapDiscardsTheLines) {
  EXPECT_TRUE(unmap_discards_lines());
  isa::set_isa_mutant(isa::IsaMutant::UnmapKeepsL2Lines, true);
  EXPECT_FALSE(unmap_discards_lines()) << "planted: lines of an unmapped range kept and written back, unseen";
}

}  // namespace
}  // namespace rocref::gpu
