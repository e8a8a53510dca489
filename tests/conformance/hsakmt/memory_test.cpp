// tests/conformance/hsakmt/memory_test.cpp - AllocMemory / FreeMemory / Map / Unmap / Register.
#include <cstdlib>
#include <cstring>

#include "hsakmt_fixture.h"

namespace hsakmt_conformance {
namespace {

using Hsakmt_AllocMemory = Hsakmt;
using Hsakmt_FreeMemory = Hsakmt;
using Hsakmt_MapMemory = Hsakmt;
using Hsakmt_RegisterMemory = Hsakmt;

TEST_F(Hsakmt_AllocMemory, HostAccessibleVramKeepsWhatIsWritten) {
  auto* mem = static_cast<uint32_t*>(alloc_vram(1 << 20));
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(mem) % 4096, 0u);
  for (uint32_t i = 0; i < (1 << 18); i += 1024) mem[i] = i * 2654435761u;
  for (uint32_t i = 0; i < (1 << 18); i += 1024) EXPECT_EQ(mem[i], i * 2654435761u);
}

TEST_F(Hsakmt_AllocMemory, SystemMemoryIsWritable) {
  auto* mem = static_cast<uint8_t*>(alloc_system(3 * 4096));
  ASSERT_NE(mem, nullptr);
  std::memset(mem, 0x5a, 3 * 4096);
  EXPECT_EQ(mem[3 * 4096 - 1], 0x5a);
}

TEST_F(Hsakmt_AllocMemory, BuffersDoNotOverlap) {
  auto* a = static_cast<uint8_t*>(alloc_vram(64 * 1024));
  auto* b = static_cast<uint8_t*>(alloc_vram(64 * 1024));
  auto* c = static_cast<uint8_t*>(alloc_system(64 * 1024));
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(a + 64 * 1024 <= b || b + 64 * 1024 <= a);
  EXPECT_TRUE(a + 64 * 1024 <= c || c + 64 * 1024 <= a);
  std::memset(a, 1, 64 * 1024);
  std::memset(b, 2, 64 * 1024);
  EXPECT_EQ(a[100], 1);
  EXPECT_EQ(b[100], 2);
}

TEST_F(Hsakmt_AllocMemory, BadNodeReturnsInvalidNodeUnit) {
  void* mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(sys_.NumNodes, 4096, vram_flags(), &mem), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(mem, nullptr);
}

TEST_F(Hsakmt_AllocMemory, NullZeroOrUnalignedSizeReturnsInvalidParameter) {
  void* mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 4096, vram_flags(), nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 0, vram_flags(), &mem), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 4097, vram_flags(), &mem), HSAKMT_STATUS_INVALID_PARAMETER);
  HsaMemFlags big = vram_flags();
  big.ui32.PageSize = HSA_PAGE_SIZE_2MB;
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 4096, big, &mem), HSAKMT_STATUS_INVALID_PARAMETER);
  HsaMemFlags fixed = vram_flags();
  fixed.ui32.FixedAddress = 1;
  mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, 4096, fixed, &mem), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_AllocMemory, MoreVramThanTheGpuHasReturnsNoMemory) {
  void* mem = nullptr;
  const uint64_t too_much = (gpu_.LocalMemSize + (uint64_t{1} << 30)) & ~uint64_t{4095};
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, too_much, vram_flags(), &mem), HSAKMT_STATUS_NO_MEMORY);
  EXPECT_EQ(mem, nullptr);
}

// KFD-MEM-11 through the thunk: the driver refuses a buffer past its memory limits (-ENOMEM), which
// hsaKmtAllocMemory answers with NO_MEMORY on its VRAM path and ERROR on its host path (libhsakmt
// 5.2.3), allocating nothing.
TEST_F(Hsakmt_AllocMemory, KFD_MEM_11_PastTheDriversMemoryLimitsFailsAndAllocatesNothing) {
  HsaMemoryProperties bank{};
  ASSERT_EQ(hsaKmtGetNodeMemoryProperties(0, 1, &bank), HSAKMT_STATUS_SUCCESS);
  HSAuint64 before = 0, after = 0;
  const bool available = hsaKmtAvailableMemory != nullptr;
  if (available) {
    ASSERT_EQ(hsaKmtAvailableMemory(gpu_node_, &before), HSAKMT_STATUS_SUCCESS);
  }
  void* mem = nullptr;
  // All of VRAM leaves nothing for the page tables the driver keeps back.
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, gpu_.LocalMemSize & ~uint64_t{4095}, vram_flags(), &mem),
            HSAKMT_STATUS_NO_MEMORY);
  EXPECT_EQ(mem, nullptr);
  // Non-paged system memory (GTT) past 3/8 of the system memory, the TTM limit.
  HsaMemFlags gtt = system_flags();
  gtt.ui32.NonPaged = 1;
  EXPECT_EQ(hsaKmtAllocMemory(0, (bank.SizeInBytes / 16 * 7) & ~uint64_t{4095}, gtt, &mem), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(mem, nullptr);
  if (available) {
    ASSERT_EQ(hsaKmtAvailableMemory(gpu_node_, &after), HSAKMT_STATUS_SUCCESS);
    EXPECT_EQ(after, before);
  }
}

TEST_F(Hsakmt_AllocMemory, AvailableMemoryShrinksByAnAllocation) {
  if (!hsaKmtAvailableMemory) GTEST_SKIP() << "hsaKmtAvailableMemory is newer than this library";
  HSAuint64 before = 0, after = 0;
  ASSERT_EQ(hsaKmtAvailableMemory(gpu_node_, &before), HSAKMT_STATUS_SUCCESS);
  EXPECT_LE(before, static_cast<uint64_t>(gpu_.LocalMemSize));
  ASSERT_NE(alloc_vram(16 << 20), nullptr);
  ASSERT_EQ(hsaKmtAvailableMemory(gpu_node_, &after), HSAKMT_STATUS_SUCCESS);
  EXPECT_LE(after + (16 << 20), before);
  EXPECT_EQ(hsaKmtAvailableMemory(gpu_node_, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtAvailableMemory(sys_.NumNodes, &after), HSAKMT_STATUS_INVALID_NODE_UNIT);
}

// KFD-MEM-11: freeing a buffer gives its share of the driver's limits back.
TEST_F(Hsakmt_FreeMemory, KFD_MEM_11_FreedVramCanBeAllocatedAgain) {
  const uint64_t big = (gpu_.LocalMemSize / 8 * 5) & ~uint64_t{4095};  // one fits, two do not
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(gpu_node_, big, vram_flags(), &a), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtAllocMemory(gpu_node_, big, vram_flags(), &b), HSAKMT_STATUS_NO_MEMORY);
  ASSERT_EQ(hsaKmtFreeMemory(a, big), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtAllocMemory(gpu_node_, big, vram_flags(), &b), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtFreeMemory(b, big), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_FreeMemory, DoubleFreeReturnsMemoryNotRegistered) {
  void* mem = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(gpu_node_, 8192, vram_flags(), &mem), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtFreeMemory(mem, 8192), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtFreeMemory(mem, 8192), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
}

TEST_F(Hsakmt_FreeMemory, NullReturnsErrorAndUnknownReturnsMemoryNotRegistered) {
  EXPECT_EQ(hsaKmtFreeMemory(nullptr, 4096), HSAKMT_STATUS_ERROR);
  static char not_ours[4096];
  EXPECT_EQ(hsaKmtFreeMemory(not_ours, sizeof not_ours), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
}

TEST_F(Hsakmt_MapMemory, MapThenUnmapVramAndSystemMemory) {
  void* v = alloc_vram(1 << 16);
  void* s = alloc_system(1 << 16);
  ASSERT_TRUE(v && s);
  HSAuint64 alt = 1;
  EXPECT_EQ(hsaKmtMapMemoryToGPU(v, 1 << 16, &alt), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(alt, 0u) << "CPU-visible apertures report no alternate address";
  EXPECT_EQ(hsaKmtMapMemoryToGPU(s, 1 << 16, nullptr), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(v), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(s), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_MapMemory, MapToGpuNodesOnTheGpuNodeSucceeds) {
  void* v = alloc_vram(1 << 16);
  ASSERT_NE(v, nullptr);
  HSAuint32 nodes[] = {gpu_node_};
  HsaMemMapFlags f{};
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(v, 1 << 16, nullptr, f, 1, nodes), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(v), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_MapMemory, MapToGpuNodesBadNodeReturnsInvalidNodeUnit) {
  void* v = alloc_vram(4096);
  ASSERT_NE(v, nullptr);
  HSAuint32 nodes[] = {sys_.NumNodes};
  HsaMemMapFlags f{};
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(v, 4096, nullptr, f, 1, nodes), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(v, 4096, nullptr, f, 0, nodes), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(hsaKmtMapMemoryToGPUNodes(v, 4096, nullptr, f, 1, nullptr), HSAKMT_STATUS_INVALID_PARAMETER);
}

TEST_F(Hsakmt_MapMemory, NullOrUnknownAddressReturnsError) {
  EXPECT_EQ(hsaKmtMapMemoryToGPU(nullptr, 4096, nullptr), HSAKMT_STATUS_ERROR);
  static char not_ours[4096];
  EXPECT_EQ(hsaKmtMapMemoryToGPU(not_ours, 4096, nullptr), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(not_ours), HSAKMT_STATUS_ERROR);
}

// libhsakmt 5.2.3 keeps unmapping unmapped memory a success ("KFDTEST and RT need to deploy the change").
TEST_F(Hsakmt_MapMemory, UnmapOfUnmappedMemoryIsSuccessAsInLibhsakmt) {
  void* v = alloc_vram(4096);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(v), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtMapMemoryToGPU(v, 4096, nullptr), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(v), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(v), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(nullptr), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_RegisterMemory, UserMemoryRegistersMapsAndDeregisters) {
  void* user = std::aligned_alloc(4096, 1 << 16);
  ASSERT_NE(user, nullptr);
  std::memset(user, 0x33, 1 << 16);
  ASSERT_EQ(hsaKmtRegisterMemory(user, 1 << 16), HSAKMT_STATUS_SUCCESS);
  HSAuint64 gpu_va = 0;
  ASSERT_EQ(hsaKmtMapMemoryToGPU(user, 1 << 16, &gpu_va), HSAKMT_STATUS_SUCCESS);
  EXPECT_NE(gpu_va, 0u) << "a userptr reports the GPU address it is reachable at";
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(user), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(user)[100], 0x33) << "caller memory survives deregistration";
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
  std::free(user);
}

// A global array of the program (its .data, a private mapping of the executable file) and a zero
// one (.bss): amdkfd pins any private mapping the process can access (KFD-MEM-13).
alignas(4096) unsigned char g_register_data[3 * 4096] = {7, 8, 9};
alignas(4096) unsigned char g_register_bss[2 * 4096];

TEST_F(Hsakmt_RegisterMemory, KFD_MEM_13_GlobalArrayRegistersAndMaps) {
  for (unsigned char* a : {g_register_data, g_register_bss}) {
    const HSAuint64 size = a == g_register_data ? sizeof g_register_data : sizeof g_register_bss;
    ASSERT_EQ(hsaKmtRegisterMemory(a, size), HSAKMT_STATUS_SUCCESS);
    HSAuint64 gpu_va = 0;
    ASSERT_EQ(hsaKmtMapMemoryToGPU(a, size, &gpu_va), HSAKMT_STATUS_SUCCESS);
    EXPECT_NE(gpu_va, 0u);
    a[4096] = 0x42;  // the program's own stores still land in its array
    EXPECT_EQ(hsaKmtUnmapMemoryToGPU(a), HSAKMT_STATUS_SUCCESS);
    EXPECT_EQ(hsaKmtDeregisterMemory(a), HSAKMT_STATUS_SUCCESS);
    EXPECT_EQ(a[4096], 0x42);
  }
  EXPECT_EQ(g_register_data[2], 9) << "registration keeps the contents";
}

// Registers a word of this frame and a heap page, forks; the child stores into both and exits.
// True when the parent's copies kept their values (fork gives the child copy-on-write pages).
[[gnu::noinline]] bool registered_pages_stay_private_across_fork() {
  alignas(4096) volatile uint32_t stack_word[1024] = {};
  stack_word[0] = 0x1111;
  auto* heap = static_cast<uint32_t*>(std::aligned_alloc(4096, 4096));
  heap[0] = 0x2222;
  EXPECT_EQ(hsaKmtRegisterMemory(const_cast<uint32_t*>(stack_word), 4096), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtRegisterMemory(heap, 4096), HSAKMT_STATUS_SUCCESS);
  const pid_t child = ::fork();
  if (child == 0) {
    stack_word[0] = 0xc1c1;
    heap[0] = 0xc2c2;
    ::_exit(stack_word[0] == 0xc1c1 && heap[0] == 0xc2c2 ? 0 : 1);
  }
  int status = -1;
  EXPECT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const bool kept = stack_word[0] == 0x1111 && heap[0] == 0x2222;
  EXPECT_EQ(hsaKmtDeregisterMemory(heap), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(const_cast<uint32_t*>(stack_word)), HSAKMT_STATUS_SUCCESS);
  std::free(heap);
  return kept;
}

// KFD-MEM-14: after fork, parent and child each have their own registered pages (kfdtest's IPC
// tests register a stack word, then fork: shared pages smash one process's stack with the other's).
TEST_F(Hsakmt_RegisterMemory, KFD_MEM_14_ForkedChildDoesNotShareRegisteredPages) {
  EXPECT_TRUE(registered_pages_stay_private_across_fork());
}

TEST_F(Hsakmt_RegisterMemory, RegistrationsAreCounted) {
  void* user = std::aligned_alloc(4096, 8192);
  ASSERT_NE(user, nullptr);
  ASSERT_EQ(hsaKmtRegisterMemory(user, 8192), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtRegisterMemory(user, 8192), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtMapMemoryToGPU(user, 8192, nullptr), HSAKMT_STATUS_SUCCESS) << "still registered once";
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(user), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
  std::free(user);
}

TEST_F(Hsakmt_RegisterMemory, ToNodesBadNodeReturnsInvalidNodeUnit) {
  alignas(4096) static char user[8192];
  HSAuint32 nodes[] = {sys_.NumNodes};
  EXPECT_EQ(hsaKmtRegisterMemoryToNodes(user, sizeof user, 1, nodes), HSAKMT_STATUS_INVALID_NODE_UNIT);
  EXPECT_EQ(hsaKmtRegisterMemoryToNodes(user, sizeof user, 0, nodes), HSAKMT_STATUS_INVALID_PARAMETER);
  HSAuint32 gpu[] = {gpu_node_};
  ASSERT_EQ(hsaKmtRegisterMemoryToNodes(user, sizeof user, 1, gpu), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDeregisterMemory(user), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_RegisterMemory, DeregisterUnknownReturnsMemoryNotRegistered) {
  static char not_ours[4096];
  EXPECT_EQ(hsaKmtDeregisterMemory(not_ours), HSAKMT_STATUS_MEMORY_NOT_REGISTERED);
}

// libhsakmt: registered memory is ordinary paged host memory; the pointer info of a userptr
// names the pointer and bytes registered, not the whole pages behind them.
TEST_F(Hsakmt_RegisterMemory, WithFlagsRefusesNonPagedOrHostInaccessibleMemory) {
  alignas(4096) static char user[3 * 4096];
  HsaMemFlags flags{};
  flags.ui32.HostAccess = 1;
  flags.ui32.NonPaged = 1;
  EXPECT_EQ(hsaKmtRegisterMemoryWithFlags(user, sizeof user, flags), HSAKMT_STATUS_NOT_SUPPORTED);
  flags.ui32.NonPaged = 0;
  flags.ui32.HostAccess = 0;
  EXPECT_EQ(hsaKmtRegisterMemoryWithFlags(user, sizeof user, flags), HSAKMT_STATUS_NOT_SUPPORTED);
  flags.ui32.HostAccess = 1;
  flags.ui32.CoarseGrain = 1;
  ASSERT_EQ(hsaKmtRegisterMemoryWithFlags(user + 100, 5000, flags), HSAKMT_STATUS_SUCCESS);
  HsaPointerInfo info{};
  ASSERT_EQ(hsaKmtQueryPointerInfo(user + 4096, &info), HSAKMT_STATUS_SUCCESS);
  // Copied out first: hsakmttypes.h packs HsaPointerInfo to 4 bytes, so its 8-byte fields are misaligned.
  const HSA_POINTER_TYPE type = info.Type;
  void* const cpu = info.CPUAddress;
  const HSAuint64 bytes = info.SizeInBytes, gpu = info.GPUAddress;
  const uint32_t coarse = info.MemFlags.ui32.CoarseGrain;
  EXPECT_EQ(type, HSA_POINTER_REGISTERED_USER);
  EXPECT_EQ(cpu, user + 100);
  EXPECT_EQ(bytes, 5000u);
  EXPECT_EQ(gpu % 4096, 100u) << "the GPU address of the pointer registered, not of its page";
  EXPECT_EQ(coarse, 1u);
  EXPECT_EQ(hsaKmtDeregisterMemory(user + 100), HSAKMT_STATUS_SUCCESS);
}

TEST_F(Hsakmt_RegisterMemory, NullReturnsInvalidParameter) {
  ROCREF_ONLY("registers a userptr at address 0 and reports the driver's failure");
  EXPECT_EQ(hsaKmtRegisterMemory(nullptr, 4096), HSAKMT_STATUS_INVALID_PARAMETER);
}

}  // namespace
}  // namespace hsakmt_conformance
