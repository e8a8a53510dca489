// tests/unit/isa/isa_parallel_test.cpp - one dispatch on 1 and on N host workers (ISA-PAR-1).
//
// hipcc-built gfx900 kernels (isa_kernels.hip) with LDS and barriers, scratch, atomics and
// divergence, run with IsaDispatch::workers 1 and N on the same inputs: the memory image, the
// statistics and the fault (the first faulting work-group's, in launch order) must not depend
// on N. The planted ParallelStatsOfOneWorker and ParallelFaultOfLastGroup must fail here.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "code_object.h"
#include "gpu/isa/dispatch.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/work_group_pool.h"

namespace rocref::gpu::isa {
namespace {

const test::CodeObject& kernels() {
  static const test::CodeObject co(ROCREF_ISA_KERNELS_O2);
  return co;
}

// Identity translation of the code, the kernargs and the ranges a test allows; the rest faults.
// Read-only while a dispatch runs, so every worker may translate at once.
class RangeMemory final : public MemoryAccess {
 public:
  void allow(const void* p, size_t bytes) {
    const auto lo = reinterpret_cast<uintptr_t>(p);
    ranges_.push_back({lo, lo + bytes});
  }
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const auto& [lo, hi] : ranges_) {
      if (va >= lo && va + size >= va && va + size <= hi) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    }
    return nullptr;
  }

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

struct Outcome {
  std::optional<PacketFault> fault;
  IsaStats stats;
};

template <typename Args>
Outcome launch(const char* name, const Args& args, uint32_t items, uint16_t wg, unsigned workers, RangeMemory& memory) {
  alignas(64) static thread_local uint8_t kernarg[256];
  std::memset(kernarg, 0, sizeof kernarg);
  std::memcpy(kernarg, &args, sizeof args);
  memory.allow(reinterpret_cast<const void*>(static_cast<uintptr_t>(kernels().base())), kernels().size());
  memory.allow(kernarg, sizeof kernarg);
  const uint64_t ko = kernels().kernel_object(name);
  EXPECT_NE(ko, 0u) << name;
  hsa_kernel_dispatch_packet_t p = test::one_dimension_dispatch(ko, kernarg, (items + wg - 1) / wg * wg, wg);
  Outcome o;
  const IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory, nullptr, workers};
  o.fault = run_isa_dispatch(d, &o.stats);
  return o;
}

uint64_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

std::vector<int> random_ints(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> v(n);
  for (int& x : v) x = static_cast<int>(rng() % 2001) - 1000;
  return v;
}

constexpr unsigned kWorkers = 4;
constexpr int kItems = 1 << 16;  // 256 work-groups of 256: every worker gets many

void expect_same_stats(const IsaStats& a, const IsaStats& b) {
  EXPECT_EQ(a.work_groups, b.work_groups);
  EXPECT_EQ(a.waves, b.waves);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.scalar_instructions, b.scalar_instructions);
  EXPECT_EQ(a.lane_instructions, b.lane_instructions);
}

// One kernel over `in` on 1 and on kWorkers workers: outputs and counts equal.
template <typename Out>
void same_for_one_and_n(const char* name, const std::vector<int>& in, size_t out_items, uint16_t wg) {
  std::vector<Out> one(out_items), many(out_items);
  Outcome r1, rn;
  for (auto [out, workers, result] : {std::tuple{&one, 1u, &r1}, std::tuple{&many, kWorkers, &rn}}) {
    RangeMemory memory;
    memory.allow(in.data(), in.size() * sizeof(int));
    memory.allow(out->data(), out->size() * sizeof(Out));
    const struct {
      uint64_t in, out;
      int n;
    } args{addr(in.data()), addr(out->data()), static_cast<int>(in.size())};
    *result = launch(name, args, static_cast<uint32_t>(in.size()), wg, workers, memory);
    ASSERT_FALSE(result->fault) << name << ": " << result->fault->what;
  }
  EXPECT_TRUE(one == many) << name << ": the memory image differs between 1 and " << kWorkers << " workers";
  expect_same_stats(r1.stats, rn.stats);
  EXPECT_EQ(r1.stats.work_groups, (in.size() + wg - 1) / wg);
}

TEST(IsaParallel, ISA_PAR_1_LdsBarriersScratchAndDivergenceGiveOneImage) {
  ASSERT_TRUE(kernels().ok()) << kernels().error();
  const std::vector<int> in = random_ints(kItems, 1);
  same_for_one_and_n<int>("reduce", in, kItems / 256, 256);
  same_for_one_and_n<int>("private_array", in, kItems, 256);
  same_for_one_and_n<int>("divergent", in, kItems, 64);
}

TEST(IsaParallel, ISA_PAR_1_AtomicsFromEveryWorkerAllLand) {
  std::vector<int> in = random_ints(kItems, 2);
  for (int& x : in) x &= 0x7fff;
  std::vector<unsigned> one(17), many(17);
  for (auto [bins, workers] : {std::pair{&one, 1u}, std::pair{&many, kWorkers}}) {
    RangeMemory memory;
    memory.allow(in.data(), in.size() * sizeof(int));
    memory.allow(bins->data(), bins->size() * sizeof(unsigned));
    const struct {
      uint64_t in, bins;
      int n;
    } args{addr(in.data()), addr(bins->data()), kItems};
    const Outcome o = launch("histogram", args, kItems, 256, workers, memory);
    ASSERT_FALSE(o.fault) << o.fault->what;
  }
  EXPECT_EQ(one, many);
  unsigned total = 0;
  for (int i = 0; i < 16; ++i) total += many[i];
  EXPECT_EQ(total, static_cast<unsigned>(kItems));
}

// vadd over n items whose output is mapped only up to item `mapped`: every work-group from
// mapped / wg on faults, and the reported fault must be that first one's, for any worker count.
float* faulting_c() {
  static std::vector<float> c(kItems);
  return c.data();
}
Outcome faulting_vadd(unsigned workers, int mapped) {
  static std::vector<float> a(kItems, 1.0f), b(kItems, 2.0f);
  float* const c = faulting_c();
  RangeMemory memory;
  memory.allow(a.data(), a.size() * sizeof(float));
  memory.allow(b.data(), b.size() * sizeof(float));
  memory.allow(c, static_cast<size_t>(mapped) * sizeof(float));
  const struct {
    uint64_t a, b, c;
    int n;
  } args{addr(a.data()), addr(b.data()), addr(c), kItems};
  return launch("vadd", args, kItems, 64, workers, memory);
}

TEST(IsaParallel, ISA_PAR_1_TheFaultIsTheFirstFaultingWorkGroups) {
  const int mapped = kItems / 2 + 64 * 3;  // work-group 515 is the first whose stores fault
  const Outcome one = faulting_vadd(1, mapped);
  ASSERT_TRUE(one.fault);
  EXPECT_GE(one.fault->address, addr(faulting_c()) + static_cast<uint64_t>(mapped) * sizeof(float));
  for (int round = 0; round < 20; ++round) {
    const Outcome many = faulting_vadd(kWorkers, mapped);
    ASSERT_TRUE(many.fault);
    ASSERT_EQ(many.fault->address, one.fault->address) << "round " << round;
    ASSERT_EQ(many.fault->what, one.fault->what);
    EXPECT_EQ(many.fault->status, one.fault->status);
  }
}

TEST(IsaParallel, ISA_PAR_1_WorkerCountIsARuntimeChoice) {
  EXPECT_GE(WorkGroupPool::configured_workers(), 1u);
  // More workers than work-groups, and one work-group: both run on what there is.
  std::vector<int> in = random_ints(100, 3);
  same_for_one_and_n<int>("private_array", in, in.size(), 256);
}

#ifdef ROCREF_ISA_MUTANTS
struct Planted {
  explicit Planted(IsaMutant m) : m_(m) { set_isa_mutant(m_, true); }
  ~Planted() { set_isa_mutant(m_, false); }
  IsaMutant m_;
};

TEST(IsaParallel, ISA_PAR_1_PlantedStatsOfOneWorkerIsCaught) {
  const Planted planted(IsaMutant::ParallelStatsOfOneWorker);
  const std::vector<int> in = random_ints(kItems, 4);
  std::vector<int> out(kItems);
  RangeMemory memory;
  memory.allow(in.data(), in.size() * sizeof(int));
  memory.allow(out.data(), out.size() * sizeof(int));
  const struct {
    uint64_t in, out;
    int n;
  } args{addr(in.data()), addr(out.data()), kItems};
  const Outcome o = launch("private_array", args, kItems, 64, kWorkers, memory);
  ASSERT_FALSE(o.fault);
  EXPECT_LT(o.stats.work_groups, static_cast<uint64_t>(kItems / 64)) << "the planted bug went unseen";
}

TEST(IsaParallel, ISA_PAR_1_PlantedFaultOfLastGroupIsCaught) {
  const int mapped = kItems / 2 + 64 * 3;
  const Outcome one = faulting_vadd(1, mapped);
  ASSERT_TRUE(one.fault);
  const Planted planted(IsaMutant::ParallelFaultOfLastGroup);
  bool seen = false;
  for (int round = 0; round < 50 && !seen; ++round)
    seen = faulting_vadd(kWorkers, mapped).fault->address != one.fault->address;
  EXPECT_TRUE(seen) << "the planted bug went unseen";
}
#endif

}  // namespace
}  // namespace rocref::gpu::isa
