// tests/unit/kfd/mem_limit_layers_test.cpp - amdkfd's memory accounting (KFD-MEM-11): its formulas,
// and its planted bugs (kfd/kfd_mutant.h) caught from the layers above the driver, the thunk's
// hsaKmtAllocMemory and the HSA runtime's pool allocation, as their conformance tests check them.
//
// Links the driver with its switchable bugs (rocref_kfd_mutable) whole, so the thunk and the
// runtime run over it. FreeKeepsMemCharge leaves its charge behind for good, so those tests run
// last and each spends a different budget (VRAM, then TTM).
#include <gtest/gtest.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsakmt.h>
#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <cstdint>

#include "kfd/kfd_mutant.h"
#include "kfd/mem_limit.h"

namespace {

using rocref::kfd::KfdMutant;
using rocref::kfd::MemCharge;
using rocref::kfd::MemLimit;

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kPage = 4096;

struct Planted {
  explicit Planted(KfdMutant m) : m_(m) { rocref::kfd::set_kfd_mutant(m_, true); }
  ~Planted() { rocref::kfd::set_kfd_mutant(m_, false); }
  KfdMutant m_;
};

TEST(MemLimit, KFD_MEM_11_LimitsAndChargesFollowAmdkfd) {
  MemLimit limit(16 * kGiB, 4 * kGiB);
  EXPECT_EQ(limit.max_system(), 15 * kGiB);              // mem - mem/16
  EXPECT_EQ(limit.max_ttm(), 6 * kGiB);                  // mem/2 - mem/8
  EXPECT_EQ(limit.vram_limit(), 4 * kGiB - 256 * 1024);  // less ESTIMATE_PT_SIZE, VRAM >> 14
  // acc_size: the BO and ttm_tt structures, then 16 bytes per page rounded up to pages.
  EXPECT_EQ(MemLimit::acc_size(kPage), 1024u + 128u + kPage);
  EXPECT_EQ(MemLimit::acc_size(kGiB), 1024u + 128u + 4 * 1024 * 1024);
  const uint64_t acc = MemLimit::acc_size(kGiB);
  const MemCharge gtt = MemLimit::charge_for(kGiB, KFD_IOC_ALLOC_MEM_FLAGS_GTT);
  EXPECT_EQ(gtt.system, kGiB + acc);
  EXPECT_EQ(gtt.ttm, kGiB + acc);
  EXPECT_EQ(gtt.vram, 0u);
  const MemCharge vram = MemLimit::charge_for(kGiB, KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
  EXPECT_EQ(vram.system, acc);
  EXPECT_EQ(vram.ttm, acc);
  EXPECT_EQ(vram.vram, kGiB);
  const MemCharge user = MemLimit::charge_for(kGiB, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
  EXPECT_EQ(user.system, kGiB + acc);
  EXPECT_EQ(user.ttm, acc);
  const MemCharge doorbell = MemLimit::charge_for(2 * kPage, KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL);
  EXPECT_EQ(doorbell.system, MemLimit::acc_size(2 * kPage));
  EXPECT_EQ(doorbell.vram, 0u);
  // amdkfd tests GTT before VRAM: a VRAM|GTT buffer is charged as GTT.
  EXPECT_EQ(MemLimit::charge_for(kGiB, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT).vram, 0u);

  // Each budget refuses on its own, all or nothing; unreserve gives back exactly the charge.
  ASSERT_EQ(limit.reserve(MemLimit::charge_for(5 * kGiB, KFD_IOC_ALLOC_MEM_FLAGS_GTT)), 0);
  EXPECT_EQ(limit.reserve(MemLimit::charge_for(kGiB, KFD_IOC_ALLOC_MEM_FLAGS_GTT)), -ENOMEM) << "TTM";
  const MemCharge before = limit.used();
  EXPECT_EQ(limit.reserve(MemLimit::charge_for(11 * kGiB, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)), -ENOMEM) << "system";
  EXPECT_EQ(limit.used().system, before.system);
  EXPECT_EQ(limit.used().ttm, before.ttm);
  EXPECT_EQ(limit.reserve(MemLimit::charge_for(4 * kGiB, KFD_IOC_ALLOC_MEM_FLAGS_VRAM)), -ENOMEM) << "VRAM";
  ASSERT_EQ(limit.reserve(MemLimit::charge_for(limit.vram_limit(), KFD_IOC_ALLOC_MEM_FLAGS_VRAM)), 0);
  EXPECT_EQ(limit.available_vram(), 0u);
  limit.unreserve(MemLimit::charge_for(limit.vram_limit(), KFD_IOC_ALLOC_MEM_FLAGS_VRAM));
  limit.unreserve(MemLimit::charge_for(5 * kGiB, KFD_IOC_ALLOC_MEM_FLAGS_GTT));
  EXPECT_EQ(limit.used().system, 0u);
  EXPECT_EQ(limit.used().ttm, 0u);
  EXPECT_EQ(limit.available_vram(), limit.vram_limit());
}

// The thunk, opened for one test.
struct Thunk {
  Thunk() {
    ok = hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS && hsaKmtAcquireSystemProperties(&sys) == HSAKMT_STATUS_SUCCESS;
  }
  ~Thunk() {
    hsaKmtReleaseSystemProperties();
    hsaKmtCloseKFD();
  }
  uint32_t gpu_node() const {
    for (uint32_t n = 0; n < sys.NumNodes; ++n) {
      HsaNodeProperties props{};
      if (hsaKmtGetNodeProperties(n, &props) == HSAKMT_STATUS_SUCCESS && props.NumFComputeCores != 0) return n;
    }
    return 0;
  }
  uint64_t bank_bytes(uint32_t node) const {
    HsaMemoryProperties bank{};
    hsaKmtGetNodeMemoryProperties(node, 1, &bank);
    return bank.SizeInBytes;
  }
  static HsaMemFlags gtt_flags() {
    HsaMemFlags f{};
    f.ui32.HostAccess = 1;
    f.ui32.NonPaged = 1;
    f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    return f;
  }
  static HsaMemFlags vram_flags() {
    HsaMemFlags f{};
    f.ui32.HostAccess = 1;
    f.ui32.NonPaged = 1;
    f.ui32.NoSubstitute = 1;
    f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
    return f;
  }
  bool ok = false;
  HsaSystemProperties sys{};
};

// Hsakmt_AllocMemory.KFD_MEM_11_PastTheDriversMemoryLimitsFailsAndAllocatesNothing's GTT row.
bool thunk_refuses_gtt_past_the_limit(const Thunk& t) {
  const uint64_t size = (t.bank_bytes(0) / 16 * 7) & ~(kPage - 1);
  void* mem = nullptr;
  const HSAKMT_STATUS st = hsaKmtAllocMemory(0, size, Thunk::gtt_flags(), &mem);
  if (st == HSAKMT_STATUS_SUCCESS) hsaKmtFreeMemory(mem, size);
  return st == HSAKMT_STATUS_ERROR && mem == nullptr;
}

TEST(MemLimitLayers, KFD_MEM_11_ThunkCatchesMemLimitUnchecked) {
  Thunk t;
  ASSERT_TRUE(t.ok);
  EXPECT_TRUE(thunk_refuses_gtt_past_the_limit(t));
  Planted m(KfdMutant::MemLimitUnchecked);
  EXPECT_FALSE(thunk_refuses_gtt_past_the_limit(t));
}

// The runtime, initialised for one test, with its system and VRAM pools.
struct Runtime {
  Runtime() {
    ok = hsa_init() == HSA_STATUS_SUCCESS;
    hsa_iterate_agents(
        [](hsa_agent_t agent, void* data) {
          auto* rt = static_cast<Runtime*>(data);
          hsa_amd_agent_iterate_memory_pools(
              agent,
              [](hsa_amd_memory_pool_t pool, void* d) {
                auto* r = static_cast<Runtime*>(d);
                uint32_t flags = 0;
                hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
                if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
                    !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && r->system.handle == 0)
                  r->system = pool;
                if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && r->vram.handle == 0) r->vram = pool;
                return HSA_STATUS_SUCCESS;
              },
              rt);
          return HSA_STATUS_SUCCESS;
        },
        this);
  }
  ~Runtime() { hsa_shut_down(); }
  size_t size_of(hsa_amd_memory_pool_t pool) const {
    size_t size = 0;
    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
    return size;
  }
  bool ok = false;
  hsa_amd_memory_pool_t system{0}, vram{0};
};

// HsaMemory.KFD_MEM_11_PastTheDriversLimitsIsOutOfResourcesAndFreeGivesBack's system-pool row, at
// 7/16 of the system memory: past the TTM limit that this runtime's (non-paged) system pool spends,
// inside the GTT pool, so that only the limit refuses it.
bool runtime_refuses_system_past_the_limit(const Runtime& rt) {
  void* p = nullptr;
  const hsa_status_t st =
      hsa_amd_memory_pool_allocate(rt.system, (rt.size_of(rt.system) / 16 * 7) & ~size_t{4095}, 0, &p);
  if (st == HSA_STATUS_SUCCESS) hsa_amd_memory_pool_free(p);
  return st == HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

TEST(MemLimitLayers, KFD_MEM_11_HsaCatchesMemLimitUnchecked) {
  Runtime rt;
  ASSERT_TRUE(rt.ok);
  ASSERT_NE(rt.system.handle, 0u);
  EXPECT_TRUE(runtime_refuses_system_past_the_limit(rt));
  Planted m(KfdMutant::MemLimitUnchecked);
  EXPECT_FALSE(runtime_refuses_system_past_the_limit(rt));
}

// Hsakmt_FreeMemory.KFD_MEM_11_FreedVramCanBeAllocatedAgain.
bool thunk_reallocates_freed_vram(const Thunk& t) {
  const uint32_t node = t.gpu_node();
  const uint64_t big = (t.bank_bytes(node) / 8 * 5) & ~(kPage - 1);
  void* a = nullptr;
  void* b = nullptr;
  if (hsaKmtAllocMemory(node, big, Thunk::vram_flags(), &a) != HSAKMT_STATUS_SUCCESS) return false;
  hsaKmtFreeMemory(a, big);
  const bool again = hsaKmtAllocMemory(node, big, Thunk::vram_flags(), &b) == HSAKMT_STATUS_SUCCESS;
  if (again) hsaKmtFreeMemory(b, big);
  return again;
}

TEST(MemLimitLayers, KFD_MEM_11_ThunkCatchesFreeKeepsMemCharge) {
  Thunk t;
  ASSERT_TRUE(t.ok);
  EXPECT_TRUE(thunk_reallocates_freed_vram(t));
  Planted m(KfdMutant::FreeKeepsMemCharge);
  EXPECT_FALSE(thunk_reallocates_freed_vram(t));
}

// The same through the runtime, on the system pool (the TTM budget: VRAM is spent above).
bool runtime_reallocates_freed_system_memory(const Runtime& rt) {
  const size_t quarter = (rt.size_of(rt.system) / 4) & ~size_t{4095};  // one fits under 3/8, two do not
  void* a = nullptr;
  void* b = nullptr;
  if (hsa_amd_memory_pool_allocate(rt.system, quarter, 0, &a) != HSA_STATUS_SUCCESS) return false;
  hsa_amd_memory_pool_free(a);
  const bool again = hsa_amd_memory_pool_allocate(rt.system, quarter, 0, &b) == HSA_STATUS_SUCCESS;
  if (again) hsa_amd_memory_pool_free(b);
  return again;
}

TEST(MemLimitLayers, KFD_MEM_11_HsaCatchesFreeKeepsMemCharge) {
  Runtime rt;
  ASSERT_TRUE(rt.ok);
  EXPECT_TRUE(runtime_reallocates_freed_system_memory(rt));
  Planted m(KfdMutant::FreeKeepsMemCharge);
  EXPECT_FALSE(runtime_reallocates_freed_system_memory(rt));
}

}  // namespace
