// tests/property/gpuvm/gpuvm_userptr_test.cpp - VM-USERPTR-1: a USERPTR range is translated only
// while its application pages are present; the first absence evicts it, and the planted
// UserptrEvictionIgnored bug is caught.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdint>

#include "gpu/vm/gpu_vm.h"
#include "gpu/vm/pte.h"
#include "gpu/vm/vm_mutant.h"

namespace rocref::gpu::vm {
namespace {

std::atomic<bool> g_present{true};
std::atomic<uint64_t> g_asked_addr{0}, g_asked_size{0};
bool present(uint64_t addr, uint64_t size) noexcept {
  g_asked_addr = addr;
  g_asked_size = size;
  return g_present.load();
}

struct UserptrVm : ::testing::Test {
  static constexpr uint64_t kVa = 0x7000'0000'0000, kUser = 0x5000'0000'0000;
  void SetUp() override {
    g_present = true;
    view = ::mmap(nullptr, 4 * kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(view, MAP_FAILED);
    ASSERT_EQ(vm.map_userptr(kVa, reinterpret_cast<uintptr_t>(view), 4 * kPageSize,
                             kPteSystem | kPteReadable | kPteWriteable, kUser, &present),
              0);
  }
  void TearDown() override { ::munmap(view, 4 * kPageSize); }
  uint64_t faults = 0;
  VmFault last;
  GpuVm vm{3, [this](const VmFault& f) {
             ++faults;
             last = f;
           }};
  void* view = nullptr;
};

TEST_F(UserptrVm, VM_USERPTR_1_PresentPagesTranslateToThePinnedView) {
  auto* p = vm.translate(kVa + kPageSize + 8, 16, Access::Write);
  EXPECT_EQ(p, static_cast<char*>(view) + kPageSize + 8);
  EXPECT_EQ(g_asked_addr.load(), kUser + kPageSize) << "the application's address of the accessed page";
  EXPECT_EQ(faults, 0u);
}

TEST_F(UserptrVm, VM_USERPTR_1_AbsentPagesEvictTheBufferForGood) {
  ASSERT_NE(vm.translate(kVa, 8, Access::Read), nullptr);  // cached in the TLB now
  g_present = false;                                       // the application unmapped it
  GpuVm::new_userptr_epoch();                              // the GPU went idle since
  EXPECT_EQ(vm.translate(kVa, 8, Access::Read), nullptr) << "a TLB hit must not bypass the eviction";
  EXPECT_EQ(faults, 1u);
  EXPECT_TRUE(last.not_present);
  EXPECT_EQ(last.va, kVa);
  g_present = true;  // something else mapped there since: the buffer stays evicted
  EXPECT_EQ(vm.translate(kVa + 3 * kPageSize, 8, Access::Read), nullptr);
  // Unmapping the buffer forgets it; a new mapping there is not evicted.
  ASSERT_EQ(vm.unmap(kVa, 4 * kPageSize), 0);
  vm.invalidate_tlb();
  ASSERT_EQ(vm.map_userptr(kVa, reinterpret_cast<uintptr_t>(view), kPageSize, kPteSystem | kPteReadable, kUser, &present), 0);
  EXPECT_NE(vm.translate(kVa, 8, Access::Read), nullptr);
}

TEST_F(UserptrVm, VM_USERPTR_1_OneQuestionPerBufferPerEpoch) {
  GpuVm::new_userptr_epoch();
  g_asked_size = 0;
  ASSERT_NE(vm.translate(kVa, 8, Access::Read), nullptr);
  EXPECT_EQ(g_asked_size.load(), 8u) << "asked about the part accessed";
  g_asked_size = 0;
  ASSERT_NE(vm.translate(kVa + kPageSize, 8, Access::Read), nullptr);
  EXPECT_EQ(g_asked_size.load(), 0u) << "not asked again in the same epoch";
  g_present = false;  // unmapped while the GPU stays busy: seen in the next epoch only
  EXPECT_NE(vm.translate(kVa, 8, Access::Read), nullptr);
  GpuVm::new_userptr_epoch();
  EXPECT_EQ(vm.translate(kVa, 8, Access::Read), nullptr);
}

TEST(GpuVmPropertyMutants, VM_USERPTR_1_UserptrEvictionIgnoredIsCaught) {
  ScopedVmMutant m(VmMutant::UserptrEvictionIgnored);
  void* view = ::mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  GpuVm vm(4);
  ASSERT_EQ(vm.map_userptr(0x1000'0000, reinterpret_cast<uintptr_t>(view), kPageSize, kPteSystem | kPteReadable,
                           0x2000'0000, &present),
            0);
  g_present = false;
  GpuVm::new_userptr_epoch();
  EXPECT_NE(vm.translate(0x1000'0000, 8, Access::Read), nullptr) << "the mutant translates an evicted buffer";
  g_present = true;
  ::munmap(view, kPageSize);
}

}  // namespace
}  // namespace rocref::gpu::vm
