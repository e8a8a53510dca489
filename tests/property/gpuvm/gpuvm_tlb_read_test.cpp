// tests/property/gpuvm/gpuvm_tlb_read_test.cpp - VM-TLB-3: a TLB hit read without the lock is
// kept only when no locked section overlapped it; the planted TlbReadUnchecked bug is caught.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "gpu/vm/gpu_vm.h"
#include "gpu/vm/pte.h"
#include "gpu/vm/vm_lock.h"
#include "gpu/vm/vm_mutant.h"

namespace rocref::gpu::vm {
namespace {

// What a read answers when a whole locked section (a map, an unmap, an invalidation) runs
// while it reads, when one is running as it starts, and when none does.
struct ReadAnswers {
  int overlapped = -1;
  int during = -1;
  int alone = -1;
};

ReadAnswers read_answers() {
  VmLock lock;
  ReadAnswers a;
  a.overlapped = lock.read<int>([&] {
    lock.lock();  // a writer's whole section between the read's two looks at the count
    lock.unlock();
    return 7;
  });
  lock.lock();
  a.during = lock.read<int>([] { return 7; });
  lock.unlock();
  a.alone = lock.read<int>([] { return 7; });
  return a;
}

TEST(VmLockRead, VM_TLB_3_ReadOverlappingALockedSectionIsDiscarded) {
  const ReadAnswers a = read_answers();
  EXPECT_EQ(a.overlapped, 0) << "a section ran during the read: its answer must be discarded";
  EXPECT_EQ(a.during, 0) << "a section was running: the read must not start";
  EXPECT_EQ(a.alone, 7);
}

TEST(GpuVmPropertyMutants, VM_TLB_3_TlbReadUncheckedIsCaught) {
  ScopedVmMutant m(VmMutant::TlbReadUnchecked);
  const ReadAnswers a = read_answers();
  EXPECT_EQ(a.overlapped, 7) << "the mutant keeps a read a locked section overlapped";
  EXPECT_EQ(a.alone, 7);
}

// Translations racing maps, unmaps and invalidations of the same page (ThreadSanitizer runs
// this): every answer is one of the page's two mappings or a fault, never another address.
TEST(VmLockRead, VM_TLB_3_TranslationsRacingRemapsSeeOneOfTheMappings) {
  GpuVm vm(5, [](const VmFault&) {});
  constexpr uint64_t kVa = 0x4000'0000;
  constexpr uint64_t kHostA = 0x10'0000, kHostB = 0x20'0000;
  ASSERT_EQ(vm.map(kVa, kHostA, kPageSize, kPteReadable), 0);
  std::atomic<bool> reading{false}, done{false};
  std::thread writer([&] {
    while (!reading.load(std::memory_order_acquire)) std::this_thread::yield();  // overlap the reads
    for (int i = 0; i < 2000; ++i) {
      const uint64_t host = (i & 1) != 0 ? kHostB : kHostA;
      if (vm.unmap(kVa, kPageSize) != 0) {
        ADD_FAILURE() << "unmap failed";
        break;
      }
      vm.invalidate_tlb_range(kVa, kPageSize);
      if (vm.map(kVa, host, kPageSize, kPteReadable) != 0) {
        ADD_FAILURE() << "map failed";
        break;
      }
    }
    done.store(true, std::memory_order_release);
  });
  uint64_t hits = 0, wrong = 0;
  reading.store(true, std::memory_order_release);
  // Past the writer's end too: its last step maps the page, so the last reads hit whatever the
  // scheduler did to the two threads (a loaded machine may run the writer to its end at once).
  for (uint64_t n = 0; !done.load(std::memory_order_acquire) || n < 1000; ++n) {
    const auto got = reinterpret_cast<uintptr_t>(vm.translate(kVa + 0x18, 8, gpu::Access::Read));
    hits += got != 0 ? 1 : 0;
    wrong += got == 0 || got == kHostA + 0x18 || got == kHostB + 0x18 ? 0 : 1;
  }
  writer.join();
  EXPECT_EQ(wrong, 0u) << "a translation answered an address the page never mapped";
  EXPECT_GT(hits, 0u);
}

}  // namespace
}  // namespace rocref::gpu::vm
