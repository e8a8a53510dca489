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

// translate() skips the buffer lookup for pages outside every buffer and, once every buffer was
// asked in an epoch, for all pages: a buffer registered later must still be asked. Registers
// buffers at kVa and kVa + 2 GiB, asks both (the VM is settled for the epoch), then registers
// one whose pages are gone above both (`above`) or between them; true when its first
// translation faults, as it must.
bool later_buffer_is_asked(bool above) {
  constexpr uint64_t kVa = 0x7000'0000'0000, kUser = 0x5000'0000'0000, kGap = uint64_t{1} << 31;
  void* view = ::mmap(nullptr, 3 * kPageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (view == MAP_FAILED) return false;
  const auto host = reinterpret_cast<uintptr_t>(view);
  GpuVm vm(5);
  g_present = true;
  bool ok = vm.map_userptr(kVa, host, kPageSize, kPteSystem | kPteReadable, kUser, &present) == 0 &&
            vm.map_userptr(kVa + 2 * kGap, host + kPageSize, kPageSize, kPteSystem | kPteReadable, kUser + 2 * kGap,
                           &present) == 0;
  GpuVm::new_userptr_epoch();
  ok = ok && vm.translate(kVa, 8, Access::Read) != nullptr && vm.translate(kVa + 2 * kGap, 8, Access::Read) != nullptr;
  ok = ok && vm.translate(kVa, 8, Access::Read) != nullptr;  // a TLB hit with no question due
  const uint64_t later = above ? kVa + 3 * kGap : kVa + kGap;
  g_present = false;  // the new buffer's application pages are already gone
  ok = ok && vm.map_userptr(later, host + 2 * kPageSize, kPageSize, kPteSystem | kPteReadable, kUser + 3 * kGap,
                            &present) == 0;
  const bool faulted = ok && vm.translate(later, 8, Access::Read) == nullptr;
  g_present = true;
  ::munmap(view, 3 * kPageSize);
  return faulted;
}

TEST(UserptrVmShortcut, VM_USERPTR_1_BufferRegisteredLaterIsAsked) {
  EXPECT_TRUE(later_buffer_is_asked(true)) << "above every other buffer";
  EXPECT_TRUE(later_buffer_is_asked(false)) << "between buffers already asked in this epoch";
}

TEST(GpuVmPropertyMutants, VM_USERPTR_1_UserptrAddedRangeUnseenIsCaught) {
  ScopedVmMutant m(VmMutant::UserptrAddedRangeUnseen);
  EXPECT_FALSE(later_buffer_is_asked(true)) << "the mutant's shortcut skips a buffer above the others";
  EXPECT_FALSE(later_buffer_is_asked(false)) << "and one registered after every buffer was asked";
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
