// tests/conformance/hsa/memory_test.cpp - regions, memory pools, allocation, copy, fill, access.
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaMemory : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    vram_ = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    system_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    kernarg_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    ASSERT_NE(vram_.handle, 0u);
    ASSERT_NE(system_.handle, 0u);
    ASSERT_NE(kernarg_.handle, 0u);
  }
  hsa_amd_memory_pool_t vram_{0}, system_{0}, kernarg_{0};
};

TEST_F(HsaMemory, HSA_MEM_1_EveryAgentHasItsPools) {
  record_clause("HSA-MEM-1");
  for (hsa_amd_memory_pool_t pool : {vram_, system_, kernarg_}) {
    bool allowed = false;
    size_t size = 0, granule = 0, alignment = 0, max = 0;
    ASSERT_EQ(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &allowed),
              HSA_STATUS_SUCCESS);
    EXPECT_TRUE(allowed);
    ASSERT_EQ(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size), HSA_STATUS_SUCCESS);
    EXPECT_GT(size, 0u);
    ASSERT_EQ(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &granule),
              HSA_STATUS_SUCCESS);
    ASSERT_EQ(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &alignment),
              HSA_STATUS_SUCCESS);
    EXPECT_GT(granule, 0u);
    EXPECT_GT(alignment, 0u);
    // hsa.h bounds ALLOC_MAX_SIZE by nothing (ROCR reports twice the system pool's size).
    ASSERT_EQ(hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max), HSA_STATUS_SUCCESS);
    EXPECT_GT(max, 0u);
  }
  uint32_t flags = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(vram_, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) << "coarse and fine are exclusive";
  hsa_amd_memory_pool_access_t access;
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(agents_.gpu, vram_, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT);
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(agents_.gpu, system_, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
}

// HSA-MEM-1, as ROCR lists them: the CPU's pools are fine-grained, kernarg and coarse-grained
// system memory (each allocatable past the system memory's size); a GPU has its VRAM and its
// group segment (LDS: the node's size, not allocatable, never reachable by another agent).
TEST_F(HsaMemory, HSA_MEM_1_PoolsAsRocrListsThem) {
  record_clause("HSA-MEM-1");
  struct Pool {
    hsa_amd_segment_t segment;
    uint32_t flags;
    size_t size;
    bool allocatable;
    hsa_amd_memory_pool_t handle;
  };
  const auto pools_of = [](hsa_agent_t agent) {
    std::vector<Pool> out;
    EXPECT_EQ(hsa_amd_agent_iterate_memory_pools(
                  agent,
                  [](hsa_amd_memory_pool_t pool, void* data) {
                    Pool p{};
                    p.handle = pool;
                    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &p.segment);
                    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &p.flags);
                    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, &p.size);
                    hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &p.allocatable);
                    static_cast<std::vector<Pool>*>(data)->push_back(p);
                    return HSA_STATUS_SUCCESS;
                  },
                  &out),
              HSA_STATUS_SUCCESS);
    return out;
  };
  const std::vector<Pool> cpu = pools_of(agents_.cpu), gpu = pools_of(agents_.gpu);
  ASSERT_EQ(cpu.size(), 3u);
  EXPECT_EQ(cpu[0].flags, uint32_t(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED));
  EXPECT_EQ(cpu[1].flags,
            uint32_t(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT));
  EXPECT_EQ(cpu[2].flags, uint32_t(HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED));
  for (const Pool& p : cpu) {
    EXPECT_EQ(p.segment, HSA_AMD_SEGMENT_GLOBAL);
    EXPECT_TRUE(p.allocatable);
    size_t max = 0;
    ASSERT_EQ(hsa_amd_memory_pool_get_info(p.handle, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max),
              HSA_STATUS_SUCCESS);
    // Twice the pool in a process's first hsa_init; ROCR's grows with every later init.
    EXPECT_GE(max, 2 * p.size);
    hsa_amd_memory_pool_access_t access{};
    ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(agents_.gpu, p.handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access),
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT) << "a GPU is given system memory";
  }
  void* coarse = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(cpu[2].handle, 4096, 0, &coarse), HSA_STATUS_SUCCESS);
  std::memset(coarse, 0x5a, 4096);  // host memory: the CPU writes it directly
  EXPECT_EQ(hsa_amd_memory_pool_free(coarse), HSA_STATUS_SUCCESS);

  ASSERT_EQ(gpu.size(), 2u);
  EXPECT_EQ(gpu[0].segment, HSA_AMD_SEGMENT_GLOBAL);
  EXPECT_EQ(gpu[1].segment, HSA_AMD_SEGMENT_GROUP);
  EXPECT_EQ(gpu[1].flags, 0u);
  EXPECT_FALSE(gpu[1].allocatable);
  EXPECT_EQ(gpu[1].size, 64u * 1024) << "gfx9's LDS";
  size_t zero = 1;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(gpu[1].handle, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, &zero),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(zero, 0u);
  hsa_amd_memory_pool_access_t access{};
  ASSERT_EQ(hsa_amd_agent_memory_pool_get_info(agents_.cpu, gpu[1].handle, HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS,
                                               &access),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(access, HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED);
  void* lds_ptr = nullptr;
  EXPECT_EQ(hsa_amd_memory_pool_allocate(gpu[1].handle, 4096, 0, &lds_ptr), HSA_STATUS_ERROR_INVALID_ALLOCATION);

  // Regions: VRAM is not host-accessible (large BAR or not); no region answers the private
  // work-group attribute.
  hsa_region_t vram_region{vram_.handle};
  bool host = true;
  ASSERT_EQ(hsa_region_get_info(vram_region, static_cast<hsa_region_info_t>(HSA_AMD_REGION_INFO_HOST_ACCESSIBLE),
                                &host),
            HSA_STATUS_SUCCESS);
  EXPECT_FALSE(host);
  uint32_t private_size = 0;
  EXPECT_EQ(hsa_region_get_info(vram_region, HSA_REGION_INFO_ALLOC_MAX_PRIVATE_WORKGROUP_SIZE, &private_size),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

// KFD-MEM-11 through the runtime: an allocation the driver refuses (past its memory limits) is
// OUT_OF_RESOURCES; freed memory counts against the limits no more.
TEST_F(HsaMemory, KFD_MEM_11_PastTheDriversLimitsIsOutOfResourcesAndFreeGivesBack) {
  size_t system = 0, vram = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(system_, HSA_AMD_MEMORY_POOL_INFO_SIZE, &system), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_get_info(vram_, HSA_AMD_MEMORY_POOL_INFO_SIZE, &vram), HSA_STATUS_SUCCESS);
  void* p = nullptr;  // ROCR nulls it on this error; hsa.h leaves it undefined
  // All of the system memory, within ALLOC_MAX_SIZE: past the system limit (15/16) whether the
  // runtime takes system memory paged (ROCR: a USERPTR buffer) or non-paged (GTT: the TTM limit, 3/8).
  EXPECT_EQ(hsa_amd_memory_pool_allocate(system_, system & ~size_t{4095}, 0, &p), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, vram & ~size_t{4095}, 0, &p), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  const size_t big = (vram / 8 * 5) & ~size_t{4095};  // one fits, two do not
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, big, 0, &a), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, big, 0, &b), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ASSERT_EQ(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, big, 0, &b), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(b), HSA_STATUS_SUCCESS);
}

TEST_F(HsaMemory, HSA_MEM_1_GpuRegionsIncludeAKernargRegion) {
  record_clause("HSA-MEM-1");
  struct Found {
    bool kernarg = false;
    bool coarse = false;
  } found;
  ASSERT_EQ(hsa_agent_iterate_regions(
                agents_.gpu,
                [](hsa_region_t region, void* data) {
                  auto* f = static_cast<Found*>(data);
                  hsa_region_segment_t segment;
                  uint32_t flags = 0;
                  if (hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment) != HSA_STATUS_SUCCESS)
                    return HSA_STATUS_ERROR;
                  if (segment != HSA_REGION_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
                  hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
                  f->kernarg = f->kernarg || (flags & HSA_REGION_GLOBAL_FLAG_KERNARG);
                  f->coarse = f->coarse || (flags & HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED);
                  return HSA_STATUS_SUCCESS;
                },
                &found),
            HSA_STATUS_SUCCESS);
  EXPECT_TRUE(found.kernarg);
  EXPECT_TRUE(found.coarse);
  size_t size = 0;
  EXPECT_EQ(hsa_region_get_info(hsa_region_t{0}, HSA_REGION_INFO_SIZE, &size), HSA_STATUS_ERROR_INVALID_REGION);
}

TEST_F(HsaMemory, HSA_MEM_3_AllocateCopyFreeRoundTrip) {
  record_clause("HSA-MEM-3");
  constexpr size_t kBytes = 3 * 4096 + 100;
  void* host = nullptr;
  void* device = nullptr;
  void* back = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system_, kBytes, 0, &host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, kBytes, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system_, kBytes, 0, &back), HSA_STATUS_SUCCESS);
  size_t alignment = 0;
  hsa_amd_memory_pool_get_info(vram_, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, &alignment);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(device) % alignment, 0u);
  auto* bytes = static_cast<uint8_t*>(host);
  for (size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  ASSERT_EQ(hsa_amd_agents_allow_access(1, &agents_.gpu, nullptr, host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(device, host, kBytes), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(back, device, kBytes), HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(host, back, kBytes), 0);
  EXPECT_EQ(hsa_memory_copy(back, device, 0), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_free(back), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_memory_free(host), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_memory_free(nullptr), HSA_STATUS_SUCCESS);
}

TEST_F(HsaMemory, HSA_MEM_3_RegionAllocateUsesTheSameRules) {
  record_clause("HSA-MEM-3");
  hsa_region_t kernarg{0};
  hsa_agent_iterate_regions(
      agents_.gpu,
      [](hsa_region_t region, void* data) {
        uint32_t flags = 0;
        hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
        if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) {
          *static_cast<hsa_region_t*>(data) = region;
          return HSA_STATUS_INFO_BREAK;
        }
        return HSA_STATUS_SUCCESS;
      },
      &kernarg);
  ASSERT_NE(kernarg.handle, 0u);
  void* ptr = nullptr;
  ASSERT_EQ(hsa_memory_allocate(kernarg, 256, &ptr), HSA_STATUS_SUCCESS);
  std::memset(ptr, 0xab, 256);  // kernarg memory is host-written
  EXPECT_EQ(hsa_memory_free(ptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_memory_allocate(kernarg, 0, &ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_memory_allocate(kernarg, 64, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_memory_allocate(hsa_region_t{0}, 64, &ptr), HSA_STATUS_ERROR_INVALID_REGION);
}

TEST_F(HsaMemory, HSA_MEM_3_BadAllocationsAreRejected) {
  record_clause("HSA-MEM-3");
  void* ptr = reinterpret_cast<void*>(0x1234);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, 0, 0, &ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 0, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 1, &ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t{0}, 4096, 0, &ptr),
            HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  size_t max = 0;
  ASSERT_EQ(hsa_amd_memory_pool_get_info(vram_, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &max), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_pool_allocate(vram_, max + 4096, 0, &ptr), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  EXPECT_EQ(ptr, reinterpret_cast<void*>(0x1234)) << "a failed allocation wrote the result";
  EXPECT_EQ(hsa_amd_memory_pool_get_info(vram_, HSA_AMD_MEMORY_POOL_INFO_SIZE, nullptr),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_get_info(vram_, static_cast<hsa_amd_memory_pool_info_t>(0x777), &max),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST_F(HsaMemory, HSA_MEM_4_CopyRejectsNullPointers) {
  record_clause("HSA-MEM-4");
  uint32_t word = 5;
  EXPECT_EQ(hsa_memory_copy(nullptr, &word, sizeof word), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_memory_copy(&word, nullptr, sizeof word), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(word, 5u);
}

// HSA-MEM-4: host memory the runtime did not allocate is locked for the GPU for the copy (ROCR's
// CopyMemory), at any alignment and across pages.
TEST_F(HsaMemory, HSA_MEM_4_CopyLocksHostMemoryTheRuntimeDidNotAllocate) {
  record_clause("HSA-MEM-4");
  constexpr size_t kBytes = 2 * 4096 + 100;
  std::vector<uint8_t> from(kBytes + 3), to(kBytes + 2, 0);
  for (size_t i = 0; i < from.size(); ++i) from[i] = static_cast<uint8_t>(i * 7 + 1);
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, kBytes, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(device, from.data() + 3, kBytes), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(to.data() + 1, device, kBytes), HSA_STATUS_SUCCESS);
  EXPECT_EQ(std::memcmp(to.data() + 1, from.data() + 3, kBytes), 0);
  EXPECT_EQ(to[0], 0);
  EXPECT_EQ(to[kBytes + 1], 0);
  EXPECT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
}

// HSA-MEM-4: a range that cannot be locked (nothing the process may access is there) is the
// lock's HSA_STATUS_ERROR, the GPU touches nothing, and later copies still run.
TEST_F(HsaMemory, HSA_MEM_4_CopyWithMemoryThatCannotBeLockedFailsAndCopiesNothing) {
  record_clause("HSA-MEM-4");
  void* hole = mmap(nullptr, 4 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(hole, MAP_FAILED);
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_fill(device, 0x5a5a5a5au, 1024), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_memory_copy(device, static_cast<uint8_t*>(hole) + 4096, 256), HSA_STATUS_ERROR);
  EXPECT_EQ(hsa_memory_copy(static_cast<uint8_t*>(hole) + 4096, device, 256), HSA_STATUS_ERROR);
  std::vector<uint32_t> back(1024);
  ASSERT_EQ(hsa_memory_copy(back.data(), device, back.size() * sizeof(uint32_t)), HSA_STATUS_SUCCESS);
  for (uint32_t word : back) ASSERT_EQ(word, 0x5a5a5a5au) << "a failed copy changed the destination";
  EXPECT_EQ(hsa_amd_memory_pool_free(device), HSA_STATUS_SUCCESS);
  munmap(hole, 4 * 4096);
}

TEST_F(HsaMemory, HSA_MEM_5_FillWritesEveryWordOfTheRange) {
  record_clause("HSA-MEM-5");
  constexpr size_t kWords = 5000;
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, (kWords + 8) * 4, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system_, (kWords + 8) * 4, 0, &host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_fill(device, 0x11111111u, kWords + 8), HSA_STATUS_SUCCESS);
  auto* words = static_cast<uint32_t*>(device);
  ASSERT_EQ(hsa_amd_memory_fill(words + 4, 0xdeadbeefu, kWords), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_memory_copy(host, device, (kWords + 8) * 4), HSA_STATUS_SUCCESS);
  const auto* out = static_cast<const uint32_t*>(host);
  for (size_t i = 0; i < kWords + 8; ++i)
    ASSERT_EQ(out[i], (i >= 4 && i < kWords + 4) ? 0xdeadbeefu : 0x11111111u) << "word " << i;
  EXPECT_EQ(hsa_amd_memory_fill(static_cast<uint8_t*>(device) + 2, 1, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_fill(nullptr, 1, 1), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_memory_copy(host, device, 4), HSA_STATUS_SUCCESS);
  EXPECT_EQ(*out, 0x11111111u) << "a rejected fill changed memory";
  hsa_amd_memory_pool_free(device);
  hsa_amd_memory_pool_free(host);
}

// HSA-MEM-7: ROCR 5.2.3's argument checks, in its order; nothing is copied and the completion
// signal keeps its value on every error, and for a copy of 0 bytes.
TEST_F(HsaMemory, HSA_MEM_7_AsyncCopyChecksItsArgumentsInRocrsOrder) {
  record_clause("HSA-MEM-7");
  void* device = nullptr;
  uint32_t host[4] = {1, 2, 3, 4};
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 0, &device), HSA_STATUS_SUCCESS);
  hsa_signal_t done{0}, dependency{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(0, 0, nullptr, &dependency), HSA_STATUS_SUCCESS);
  const hsa_agent_t gpu = agents_.gpu, cpu = agents_.cpu, none{0};
  auto copy = [&](void* dst, hsa_agent_t to, const void* src, hsa_agent_t from, size_t size, uint32_t deps,
                  const hsa_signal_t* dep, hsa_signal_t signal) {
    return hsa_amd_memory_async_copy(dst, to, src, from, size, deps, dep, signal);
  };
  EXPECT_EQ(copy(nullptr, gpu, host, cpu, 16, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, gpu, nullptr, cpu, 16, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, gpu, host, cpu, 16, 1, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, gpu, host, cpu, 16, 0, &dependency, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // The dependency list before the agents, the agents before the signals.
  EXPECT_EQ(copy(device, none, host, cpu, 16, 1, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, none, host, cpu, 16, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(copy(device, gpu, host, none, 16, 0, nullptr, hsa_signal_t{0}), HSA_STATUS_ERROR_INVALID_AGENT);
  const hsa_signal_t null_signal{0};
  EXPECT_EQ(copy(device, gpu, host, cpu, 16, 1, &null_signal, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, gpu, host, cpu, 16, 0, nullptr, null_signal), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(copy(device, gpu, host, cpu, 0, 0, nullptr, done), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_load_scacquire(done), 1) << "a copy of 0 bytes (or a refused one) completed its signal";
  hsa_signal_destroy(dependency);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(device);
}

// HSA-MEM-7: system -> VRAM -> system through the GPU agent, each completing its signal by 1;
// a copy behind a dependency waits until the dependency is 0, and the copy after it waits too.
TEST_F(HsaMemory, HSA_MEM_7_AsyncCopiesRunAfterTheirDependenciesInOrder) {
  record_clause("HSA-MEM-7");
  constexpr size_t kBytes = 3 * 4096 + 100;
  void *device = nullptr, *in = nullptr, *out = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, kBytes, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system_, kBytes, 0, &in), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(system_, kBytes, 0, &out), HSA_STATUS_SUCCESS);
  // ROCR maps system memory for a GPU only when granted (see expected_deviations.tsv).
  ASSERT_EQ(hsa_amd_agents_allow_access(1, &agents_.gpu, nullptr, in), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_agents_allow_access(1, &agents_.gpu, nullptr, out), HSA_STATUS_SUCCESS);
  auto* bytes = static_cast<uint8_t*>(in);
  for (size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  std::memset(out, 0, kBytes);
  hsa_signal_t gate{0}, up{0}, down{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &gate), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(2, 0, nullptr, &up), HSA_STATUS_SUCCESS);  // 2: the copy subtracts exactly 1
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &down), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(device, agents_.gpu, in, agents_.cpu, kBytes, 1, &gate, up), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(out, agents_.cpu, device, agents_.gpu, kBytes, 1, &up, down), HSA_STATUS_SUCCESS);
  // Held by the gate: neither copy may run (the second also waits for the first's signal).
  EXPECT_EQ(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_LT, 1, 50'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  EXPECT_EQ(hsa_signal_load_scacquire(up), 2) << "the copy ran before its dependency reached 0";
  hsa_signal_store_screlease(gate, 0);
  EXPECT_EQ(hsa_signal_wait_scacquire(up, HSA_SIGNAL_CONDITION_LT, 2, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 1);
  // The second depends on `up` reaching 0: at 1 it still waits.
  EXPECT_EQ(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_LT, 1, 50'000'000, HSA_WAIT_STATE_BLOCKED), 1);
  hsa_signal_subtract_screlease(up, 1);
  EXPECT_EQ(hsa_signal_wait_scacquire(down, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(std::memcmp(out, in, kBytes), 0) << "system -> VRAM -> system changed the bytes";
  hsa_signal_destroy(gate);
  hsa_signal_destroy(up);
  hsa_signal_destroy(down);
  hsa_amd_memory_pool_free(device);
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(out);
}

// HSA-PTR-1, as ROCR 5.2.3 answers on the model: a runtime allocation by its start and size in
// whole 4 KiB pages from any pointer into it, its owner and grain, the agents it is mapped for;
// memory the runtime never saw is UNKNOWN; a short `size` gets only the fields that fit.
TEST_F(HsaMemory, HSA_PTR_1_PointerInfoDescribesTheAllocationHoldingThePointer) {
  record_clause("HSA-PTR-1");
  void *device = nullptr, *args = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 5000, 0, &device), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(kernarg_, 64, 0, &args), HSA_STATUS_SUCCESS);
  for (size_t offset : {size_t{0}, size_t{4096}, size_t{8191}}) {
    hsa_amd_pointer_info_t info{};
    info.size = sizeof info;
    uint32_t count = 0;
    hsa_agent_t* accessible = nullptr;
    ASSERT_EQ(hsa_amd_pointer_info(static_cast<uint8_t*>(device) + offset, &info, malloc, &count, &accessible),
              HSA_STATUS_SUCCESS);
    EXPECT_EQ(info.size, sizeof info);
    EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_HSA) << offset;
    EXPECT_EQ(info.agentBaseAddress, device) << offset;
    EXPECT_EQ(info.hostBaseAddress, device) << offset;
    EXPECT_EQ(info.sizeInBytes, 8192u) << "5000 bytes in whole pages";
    EXPECT_EQ(info.agentOwner.handle, agents_.gpu.handle);
    EXPECT_EQ(info.global_flags, uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED});
    ASSERT_EQ(count, 1u);
    EXPECT_EQ(accessible[0].handle, agents_.gpu.handle);
    free(accessible);
  }
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  ASSERT_EQ(hsa_amd_pointer_info(args, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.agentOwner.handle, agents_.cpu.handle);
  EXPECT_EQ(info.global_flags,
            uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED | HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT});
  // Memory the runtime never allocated or locked: UNKNOWN, no size (ROCR names node 0's agent).
  std::vector<uint8_t> heap(100);
  info = {};
  info.size = sizeof info;
  ASSERT_EQ(hsa_amd_pointer_info(heap.data(), &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
  EXPECT_EQ(info.sizeInBytes, 0u);
  EXPECT_EQ(info.agentOwner.handle, agents_.cpu.handle);
  // A `size` of 8 takes the size and the type only.
  hsa_amd_pointer_info_t part;
  std::memset(&part, 0xcc, sizeof part);
  part.size = 8;
  ASSERT_EQ(hsa_amd_pointer_info(device, &part, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(part.size, 8u);
  EXPECT_EQ(part.type, HSA_EXT_POINTER_TYPE_HSA);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(part.agentBaseAddress), uintptr_t{0xcccccccccccccccc})
      << "a field past `size` was written";
  part.size = 0;
  EXPECT_EQ(hsa_amd_pointer_info(device, &part, nullptr, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_pointer_info(nullptr, &info, nullptr, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_pointer_info(device, nullptr, nullptr, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_memory_pool_free(device);
  hsa_amd_memory_pool_free(args);
}

// HSA-PTR-2: user data set on an allocation's start comes back from any pointer into it; set on
// an interior pointer it goes to the driver's record, which pointer info does not read for the
// runtime's allocations (ROCR's two maps); memory nobody knows is INVALID_ARGUMENT.
TEST_F(HsaMemory, HSA_PTR_2_UserDataLivesOnTheAllocationStart) {
  record_clause("HSA-PTR-2");
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 8192, 0, &device), HSA_STATUS_SUCCESS);
  auto user_data_at = [](const void* p) {
    hsa_amd_pointer_info_t info{};
    info.size = sizeof info;
    EXPECT_EQ(hsa_amd_pointer_info(p, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
    return info.userData;
  };
  int tag = 0, other = 0;
  EXPECT_EQ(user_data_at(device), nullptr);
  ASSERT_EQ(hsa_amd_pointer_info_set_userdata(device, &tag), HSA_STATUS_SUCCESS);
  EXPECT_EQ(user_data_at(device), &tag);
  EXPECT_EQ(user_data_at(static_cast<uint8_t*>(device) + 100), &tag);
  EXPECT_EQ(hsa_amd_pointer_info_set_userdata(static_cast<uint8_t*>(device) + 64, &other), HSA_STATUS_SUCCESS);
  EXPECT_EQ(user_data_at(static_cast<uint8_t*>(device) + 64), &tag);
  std::vector<uint8_t> heap(100);
  EXPECT_EQ(hsa_amd_pointer_info_set_userdata(heap.data(), &tag), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_pointer_info_set_userdata(nullptr, &tag), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_memory_pool_free(device);
}

// HSA-LOCK-1/2, as ROCR 5.2.3 answers on the model: locked host memory is LOCKED in pointer
// info with the exact pointer and size, owned by the CPU, coarse-grained, mapped for the GPU;
// the GPU copies from the agent pointer; locks of one range count; unlock always succeeds.
TEST_F(HsaMemory, HSA_LOCK_1_LockedHostMemoryIsMappedForTheGpu) {
  record_clause("HSA-LOCK-1");
  constexpr size_t kPage = 4096, kBytes = 5000;
  std::vector<uint8_t> storage(4 * kPage);
  uint8_t* page = storage.data() + (kPage - reinterpret_cast<uintptr_t>(storage.data()) % kPage) % kPage;
  uint8_t* host = page + 100;
  for (size_t i = 0; i < kBytes; ++i) host[i] = static_cast<uint8_t>(i * 13 + 1);
  void* agent_ptr = reinterpret_cast<void*>(1);
  EXPECT_EQ(hsa_amd_memory_lock(nullptr, 10, nullptr, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_lock(host, 0, nullptr, 0, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_lock(host, 10, nullptr, 0, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(agent_ptr, reinterpret_cast<void*>(1)) << "written before the first checks passed";
  EXPECT_EQ(hsa_amd_memory_lock(host, 10, nullptr, 1, &agent_ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(agent_ptr, nullptr);
  hsa_agent_t none{0};
  EXPECT_EQ(hsa_amd_memory_lock(host, 10, &none, 1, &agent_ptr), HSA_STATUS_ERROR_INVALID_AGENT);
  // CPU agents only: nothing is pinned, the host pointer is the agent pointer.
  ASSERT_EQ(hsa_amd_memory_lock(host, kBytes, &agents_.cpu, 1, &agent_ptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(agent_ptr, host);
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  ASSERT_EQ(hsa_amd_pointer_info(host, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
  // Every GPU: pinned and mapped.
  ASSERT_EQ(hsa_amd_memory_lock(host, kBytes, nullptr, 0, &agent_ptr), HSA_STATUS_SUCCESS);
  ASSERT_NE(agent_ptr, nullptr);
  uint32_t count = 0;
  hsa_agent_t* accessible = nullptr;
  ASSERT_EQ(hsa_amd_pointer_info(page + kPage + 7, &info, malloc, &count, &accessible), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_LOCKED);
  EXPECT_EQ(info.hostBaseAddress, host);
  EXPECT_EQ(info.agentBaseAddress, agent_ptr);
  EXPECT_EQ(info.sizeInBytes, kBytes);
  EXPECT_EQ(info.agentOwner.handle, agents_.cpu.handle);
  EXPECT_EQ(info.global_flags, uint32_t{HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED});
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(accessible[0].handle, agents_.gpu.handle);
  free(accessible);
  // The GPU reads it through the agent pointer.
  void* device = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 8192, 0, &device), HSA_STATUS_SUCCESS);
  hsa_signal_t done{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(device, agents_.gpu, agent_ptr, agents_.gpu, kBytes, 0, nullptr, done),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(std::memcmp(device, host, kBytes), 0);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(device);
  // HSA-LOCK-2: a second lock of the range, then two unlocks; unlocking what is not locked succeeds.
  void* again = nullptr;
  ASSERT_EQ(hsa_amd_memory_lock(host, kBytes, &agents_.gpu, 1, &again), HSA_STATUS_SUCCESS);
  EXPECT_EQ(again, agent_ptr);
  EXPECT_EQ(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_pointer_info(host, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_LOCKED) << "one unlock of two locks unlocked the range";
  EXPECT_EQ(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_pointer_info(host, &info, nullptr, nullptr, nullptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
  EXPECT_EQ(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_memory_unlock(nullptr), HSA_STATUS_SUCCESS);
}

TEST_F(HsaMemory, HSA_MEM_6_AllowAccessChecksItsArguments) {
  record_clause("HSA-MEM-6");
  void* ptr = nullptr;
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 0, &ptr), HSA_STATUS_SUCCESS);
  hsa_agent_t both[2] = {agents_.cpu, agents_.gpu};
  EXPECT_EQ(hsa_amd_agents_allow_access(2, both, nullptr, ptr), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_amd_agents_allow_access(0, both, nullptr, ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_agents_allow_access(1, nullptr, nullptr, ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  const uint32_t flags[2] = {0, 0};
  EXPECT_EQ(hsa_amd_agents_allow_access(2, both, flags, ptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_pool_free(ptr), HSA_STATUS_SUCCESS);
}

}  // namespace
}  // namespace hsa_conformance
