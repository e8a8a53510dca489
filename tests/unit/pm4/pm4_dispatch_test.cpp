// tests/unit/pm4/pm4_dispatch_test.cpp - a PM4 compute queue's SET_SH_REG / DISPATCH_DIRECT and its one-dword NOP.
//
// The kernel is gfx900 code assembled by `llvm-mc-15 -arch=amdgcn -mcpu=gfx900 -show-encoding`
// (words below, with the assembler's text); each test runs once as written and once with the
// planted bug of gpu/pm4/pm4_mutant.h or gpu/isa/isa_mutant.h it must catch.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "gpu/isa/agent_cache.h"
#include "gpu/isa/compute_registers.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/pm4/pm4_mutant.h"
#include "gpu/pm4/pm4_packets.h"
#include "gpu/pm4/pm4_queue.h"

namespace rocref::gpu::pm4 {
namespace {

// s[0:1] = a buffer, s2 = a value (USER_DATA_0..2), s3 = the work-group id x (TGID_X_EN):
// buffer[tgid_x] = value + tgid_x.
alignas(256) constexpr std::array<uint32_t, 11> kStoreKernel = {
    0x8e048203,              // s_lshl_b32 s4, s3, 2
    0x80000400,              // s_add_u32 s0, s0, s4
    0x82018001,              // s_addc_u32 s1, s1, 0
    0x80050302,              // s_add_u32 s5, s2, s3
    0x7e000200,              // v_mov_b32_e32 v0, s0
    0x7e020201,              // v_mov_b32_e32 v1, s1
    0x7e040205,              // v_mov_b32_e32 v2, s5
    0xdc708000, 0x007f0200,  // global_store_dword v[0:1], v2, off
    0xbf8c0f70,              // s_waitcnt vmcnt(0)
    0xbf810000,              // s_endpgm
};
constexpr uint32_t kRsrc1 = 0x000c0000;             // 4 VGPRs, 16 SGPRs, float mode 0xc0
constexpr uint32_t kRsrc2 = (3u << 1) | (1u << 7);  // USER_SGPR 3, TGID_X_EN

uint32_t lo(uint64_t v) { return uint32_t(v); }
uint32_t hi(uint64_t v) { return uint32_t(v >> 32); }

std::vector<uint32_t> set_sh_reg(uint32_t offset, const std::vector<uint32_t>& values) {
  std::vector<uint32_t> p = {make_header(kItSetShReg, uint32_t(values.size()) + 2), offset};
  p.insert(p.end(), values.begin(), values.end());
  return p;
}

// kfdtest's register program (Dispatch::BuildIb) for kStoreKernel with `wg_x` work-items per group.
std::vector<uint32_t> dispatch(const void* code, uint32_t* buffer, uint32_t value, uint32_t groups_x, uint32_t wg_x) {
  const uint64_t pgm = reinterpret_cast<uintptr_t>(code) >> 8;
  const uint64_t buf = reinterpret_cast<uintptr_t>(buffer);
  std::vector<uint32_t> out;
  auto add = [&](const std::vector<uint32_t>& p) { out.insert(out.end(), p.begin(), p.end()); };
  add(set_sh_reg(isa::kComputeStartX, {0, 0, 0, wg_x, 1, 1, 0, 0}));
  add(set_sh_reg(isa::kComputePgmLo, {lo(pgm), hi(pgm) & 0xff, 0, 0, 0, 0}));
  add(set_sh_reg(isa::kComputePgmRsrc1, {kRsrc1, kRsrc2}));
  add(set_sh_reg(isa::kComputeTmpringSize, {0}));
  std::vector<uint32_t> user(16, 0);
  user[0] = lo(buf);
  user[1] = hi(buf);
  user[2] = value;
  add(set_sh_reg(isa::kComputeUserData0, user));
  add({make_header(kItDispatchDirect, 5), groups_x, 1, 1, 0x21});  // COMPUTE_SHADER_EN | USE_THREAD_DIMENSIONS
  return out;
}

// Every page coarse-grained: the adversarial L2 keeps what the kernel writes.
class CoarseMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    if (va == 0 || va + size < va) return nullptr;
    return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
  }
  Grain grain(uint64_t) noexcept override { return Grain::Coarse; }
};

struct Ring {
  explicit Ring(MemoryAccess* over = nullptr, isa::AgentCache* l2 = nullptr) {
    Pm4QueueBinding b;
    b.ring_va = reinterpret_cast<uintptr_t>(ring.data());
    b.ring_bytes = sizeof ring;
    b.rptr_va = reinterpret_cast<uintptr_t>(&rptr);
    b.doorbell = &doorbell;
    b.memory = over != nullptr ? over : &memory;
    b.l2 = l2;
    b.on_error = [this](const std::string& w) { errors.push_back(w); };
    queue = std::make_unique<Pm4Queue>(std::move(b));
  }
  void submit(const std::vector<uint32_t>& dws) {
    for (uint32_t d : dws) ring[(wptr++) % ring.size()] = d;
    doorbell = wptr;
  }
  void drain() {
    while (queue->step() == Pm4QueueAction::Executed) {
    }
  }
  alignas(256) std::array<uint32_t, 1024> ring{};
  alignas(8) uint32_t rptr = 0;
  alignas(8) uint64_t doorbell = 0;
  uint64_t wptr = 0;
  FlatMemory memory;
  std::vector<std::string> errors;
  std::unique_ptr<Pm4Queue> queue;
};

// The buffer after three work-groups of 64 work-items dispatched with value 40.
std::array<uint32_t, 4> run_three_groups() {
  Ring r;
  std::array<uint32_t, 4> buffer{};
  r.submit(dispatch(kStoreKernel.data(), buffer.data(), 40, 3, 64));
  r.drain();
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(r.queue->consumed(), r.wptr);
  return buffer;
}

TEST(Pm4Dispatch, PM4_DISP_2_DispatchDirectRunsWorkGroupsWithTheUserDataAsSgprs) {
  EXPECT_EQ(run_three_groups(), (std::array<uint32_t, 4>{40, 41, 42, 0}));
}

TEST(Pm4Dispatch, PM4_DISP_2_PlantedDimsAsThreadsIsCaught) {
  set_pm4_mutant(Pm4Mutant::DispatchDimsAsThreads, true);
  const auto buffer = run_three_groups();
  set_pm4_mutant(Pm4Mutant::DispatchDimsAsThreads, false);
  EXPECT_NE(buffer, (std::array<uint32_t, 4>{40, 41, 42, 0}));
}

// The PM4 front end alone: USER_DATA_i is s_i, the rest of the Launch from the registers.
bool user_data_are_the_user_sgprs() {
  isa::ShRegisters sh;
  for (uint32_t i = 0; i < 16; ++i) sh.r[isa::kComputeUserData0 + i] = 0x100 + i;
  sh.r[isa::kComputePgmLo] = 0x12345;
  sh.r[isa::kComputePgmHi] = 0x67 | (1u << 8);  // bit 8 (PGM_ATC) is not address
  sh.r[isa::kComputePgmRsrc1] = kRsrc1;
  sh.r[isa::kComputePgmRsrc2] = (16u << 1) | (1u << 7);
  sh.r[isa::kComputeNumThreadX] = 64;
  sh.r[isa::kComputeNumThreadX + 1] = 2;
  sh.r[isa::kComputeNumThreadX + 2] = 1;
  sh.r[isa::kComputeStartX] = 5;
  sh.r[isa::kComputeTmpringSize] = 3u << 12;  // 3 KiB per wave: 48 bytes per work-item
  const uint32_t groups[3] = {3, 4, 1};
  isa::Launch l;
  FlatMemory memory;
  EXPECT_FALSE(isa::launch_from_sh_registers(sh, groups, &memory, nullptr, &l).has_value());
  EXPECT_EQ(l.code_va, 0x6700012345ull << 8);
  EXPECT_EQ(l.grid[0], 192u);
  EXPECT_EQ(l.grid[1], 8u);
  EXPECT_EQ(l.workgroup[1], 2u);
  EXPECT_EQ(l.group_start[0], 5u);
  EXPECT_EQ(l.private_size, 48u);
  EXPECT_EQ(l.user_sgpr_count, 16u);
  EXPECT_TRUE(l.fields.workgroup_id[0]);
  bool all = true;
  for (uint32_t i = 0; i < 16; ++i) all = all && l.user_sgpr[i] == 0x100 + i;
  return all;
}

TEST(Pm4Dispatch, ISA_LAUNCH_2_UserDataAreTheUserSgprs) {
  EXPECT_TRUE(user_data_are_the_user_sgprs());
  isa::set_isa_mutant(isa::IsaMutant::UserDataFromSecondRegister, true);
  EXPECT_FALSE(user_data_are_the_user_sgprs());
  isa::set_isa_mutant(isa::IsaMutant::UserDataFromSecondRegister, false);
}

TEST(Pm4Dispatch, PM4_DISP_1_SetShRegPastTheShSpaceIsAnErrorAndWritesNothing) {
  Ring r;
  std::array<uint32_t, 4> buffer{};
  r.submit(set_sh_reg(isa::kShRegSpaceDwords - 1, {1, 2}));
  r.submit(dispatch(kStoreKernel.data(), buffer.data(), 40, 1, 1));
  r.drain();
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("PM4-DISP-1"), std::string::npos) << r.errors[0];
  EXPECT_EQ(buffer[0], 0u) << "nothing after the error runs";
}

TEST(Pm4Dispatch, PM4_DISP_2_ZeroWorkGroupSizeIsAnError) {
  Ring r;
  std::array<uint32_t, 4> buffer{};
  r.submit(dispatch(kStoreKernel.data(), buffer.data(), 40, 1, 0));
  r.drain();
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("PM4-DISP-2"), std::string::npos) << r.errors[0];
}

// PM4-DISP-3: in the adversarial mode the dispatch's stores stay in the agent's L2 until the
// end-of-pipe RELEASE_MEM writes them back; true when memory holds them after the release.
bool release_mem_writes_the_dispatch_back() {
  CoarseMemory coarse;
  isa::AgentCache l2(7);
  Ring r(&coarse, &l2);
  alignas(64) std::array<uint32_t, 16> buffer{};
  r.submit(dispatch(kStoreKernel.data(), buffer.data(), 40, 3, 64));
  r.drain();
  EXPECT_GT(l2.dirty_lines(), 0u) << "the stores are the L2's until a release";
  alignas(8) uint64_t fence = 0;
  const uint64_t f = reinterpret_cast<uintptr_t>(&fence);
  r.submit({make_header(kItReleaseMem, 8), 0x14u << 0, 2u << 29, lo(f), hi(f), 1, 0, 0});
  r.drain();
  EXPECT_EQ(fence, 1u);
  EXPECT_TRUE(r.errors.empty());
  return buffer[0] == 40 && buffer[1] == 41 && buffer[2] == 42;
}

TEST(Pm4Dispatch, PM4_DISP_3_ReleaseMemWritesTheL2Back) {
  EXPECT_TRUE(release_mem_writes_the_dispatch_back());
  set_pm4_mutant(Pm4Mutant::ReleaseSkipsL2WriteBack, true);
  EXPECT_FALSE(release_mem_writes_the_dispatch_back());
  set_pm4_mutant(Pm4Mutant::ReleaseSkipsL2WriteBack, false);
}

// amdgpu pads rings with PACKET3(PACKET3_NOP, 0x3FFF): one dword, then the next packet.
bool one_dword_nop_then_write_runs() {
  Ring r;
  uint32_t target = 0;
  const uint64_t dst = reinterpret_cast<uintptr_t>(&target);
  const uint32_t nop = make_header(kItNop, 2) | (kOneDwordNopCount << 16);
  r.submit({nop, nop, make_header(kItWriteData, 5), kDstSelMemory << 8, lo(dst), hi(dst), 0x1234});
  r.drain();
  return target == 0x1234 && r.queue->consumed() == 7 && r.errors.empty();
}

TEST(Pm4Dispatch, PM4_PKT_2_NopOfCount3fffIsOneDword) {
  EXPECT_EQ(dwords_of(0xFFFF1000u), 1u);
  EXPECT_TRUE(one_dword_nop_then_write_runs());
  set_pm4_mutant(Pm4Mutant::LongOneDwordNop, true);
  EXPECT_FALSE(one_dword_nop_then_write_runs());
  set_pm4_mutant(Pm4Mutant::LongOneDwordNop, false);
}

}  // namespace
}  // namespace rocref::gpu::pm4
