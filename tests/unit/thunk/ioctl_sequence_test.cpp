// tests/unit/thunk/ioctl_sequence_test.cpp - which ioctls and mmaps each hsaKmt call makes.
#include <hsakmt.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

#include "fake_kfd.h"
#include "thunk/hsakmt_ext.h"
#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

using testing::FakeKfd;
using testing::MmapCall;

constexpr unsigned nr(unsigned long request) { return _IOC_NR(request); }

class ThunkOnFake : public ::testing::Test {
 protected:
  void SetUp() override { set_active_transport(&fake_); }
  void TearDown() override {
    while (hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS) {
    }
    set_active_transport(nullptr);
  }
  void open_and_acquire() {
    ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
    HsaSystemProperties sys{};
    ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys), HSAKMT_STATUS_SUCCESS);
  }
  static HsaMemFlags vram() {
    HsaMemFlags f{};
    f.ui32.NonPaged = 1;
    f.ui32.HostAccess = 1;
    return f;
  }
  FakeKfd fake_;
};

// OPEN-1..3: version check, apertures, render node, ACQUIRE_VM, memory policy, MMIO page.
TEST_F(ThunkOnFake, OPEN_1_OpenIssuesTheRealStartSequence) {
  ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
  const std::vector<unsigned> expected = {
      nr(AMDKFD_IOC_GET_VERSION),         nr(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW),
      nr(AMDKFD_IOC_ACQUIRE_VM),          nr(AMDKFD_IOC_SET_MEMORY_POLICY),
      nr(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU), nr(AMDKFD_IOC_MAP_MEMORY_TO_GPU)};
  EXPECT_EQ(fake_.ioctl_log, expected);
  ASSERT_EQ(fake_.allocs.size(), 1u);
  EXPECT_TRUE(fake_.allocs[0].flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP);
  ASSERT_EQ(fake_.mmaps.size(), 1u);
  EXPECT_EQ(fake_.mmaps[0].fd, FakeKfd::kKfdFd) << "the MMIO page is mapped through /dev/kfd";
  EXPECT_EQ(fake_.mmaps[0].length, 4096u);
}

TEST_F(ThunkOnFake, OPEN_1_RefcountedOpenAndClose) {
  ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_KERNEL_ALREADY_OPENED);
  EXPECT_EQ(fake_.count(nr(AMDKFD_IOC_GET_VERSION)), 1u) << "a second open reuses the process";
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(fake_.open_fds, 2) << "still open after the first close";
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(fake_.open_fds, 0);
  EXPECT_TRUE(fake_.live_handles.empty()) << "close frees the MMIO buffer";
  EXPECT_EQ(hsaKmtCloseKFD(), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
}

TEST_F(ThunkOnFake, OPEN_2_FailedOpenLeavesNothingBehind) {
  fake_.fail_open = true;
  EXPECT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
  fake_.fail_open = false;
  fake_.major_version = 2;
  EXPECT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_DRIVER_MISMATCH);
  EXPECT_EQ(fake_.open_fds, 0);
  fake_.major_version = KFD_IOCTL_MAJOR_VERSION;
  fake_.fail_ioctl[nr(AMDKFD_IOC_ACQUIRE_VM)] = -EINVAL;
  EXPECT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(fake_.open_fds, 0);
  HsaVersionInfo v{};
  EXPECT_EQ(hsaKmtGetVersion(&v), HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED);
}

TEST_F(ThunkOnFake, MEM_VA_1_VramIsMappedAtItsOwnGpuAddress) {
  open_and_acquire();
  void* mem = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(1, 1 << 20, vram(), &mem), HSAKMT_STATUS_SUCCESS);
  const auto& alloc = fake_.allocs.back();
  EXPECT_EQ(alloc.va_addr, reinterpret_cast<uintptr_t>(mem)) << "GPU VA == CPU VA";
  EXPECT_TRUE(alloc.flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM);
  EXPECT_TRUE(alloc.flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC);
  const MmapCall& m = fake_.mmaps.back();
  EXPECT_EQ(m.addr, mem);
  EXPECT_EQ(m.fd, FakeKfd::kRenderFd) << "VRAM is mapped through the render node";
  EXPECT_TRUE(m.flags & MAP_FIXED);
  EXPECT_EQ(m.prot, PROT_READ | PROT_WRITE);
  static_cast<volatile char*>(mem)[0] = 1;  // host-visible
  EXPECT_EQ(hsaKmtFreeMemory(mem, 1 << 20), HSAKMT_STATUS_SUCCESS);
}

TEST_F(ThunkOnFake, MEM_ALLOC_2_PagedHostMemoryIsUserptr) {
  open_and_acquire();
  HsaMemFlags f{};
  f.ui32.HostAccess = 1;
  void* mem = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(0, 8192, f, &mem), HSAKMT_STATUS_SUCCESS);
  const auto& alloc = fake_.allocs.back();
  EXPECT_TRUE(alloc.flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
  EXPECT_EQ(alloc.mmap_offset, reinterpret_cast<uintptr_t>(mem)) << "USERPTR passes the CPU address";
  EXPECT_EQ(hsaKmtFreeMemory(mem, 8192), HSAKMT_STATUS_SUCCESS);
}

TEST_F(ThunkOnFake, MEM_ALLOC_3_FailedAllocationChangesNothing) {
  open_and_acquire();
  const size_t handles = fake_.live_handles.size();
  fake_.fail_ioctl[nr(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU)] = -ENOMEM;
  void* mem = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(hsaKmtAllocMemory(1, 4096, vram(), &mem), HSAKMT_STATUS_NO_MEMORY);
  EXPECT_EQ(mem, reinterpret_cast<void*>(0x1)) << "the out pointer is untouched";
  EXPECT_EQ(fake_.live_handles.size(), handles);
}

TEST_F(ThunkOnFake, MEM_MAP_2_FailedMapLeavesBufferUnmapped) {
  open_and_acquire();
  void* mem = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(1, 4096, vram(), &mem), HSAKMT_STATUS_SUCCESS);
  fake_.fail_ioctl[nr(AMDKFD_IOC_MAP_MEMORY_TO_GPU)] = -ENOMEM;
  EXPECT_EQ(hsaKmtMapMemoryToGPU(mem, 4096, nullptr), HSAKMT_STATUS_ERROR);
  fake_.fail_ioctl.clear();
  const size_t unmaps = fake_.count(nr(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU));
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(fake_.count(nr(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU)), unmaps) << "nothing to unmap";
  EXPECT_EQ(hsaKmtFreeMemory(mem, 4096), HSAKMT_STATUS_SUCCESS);
}

// QUEUE-DB-1: the doorbell page is allocated and mapped once, at the first queue.
TEST_F(ThunkOnFake, QUEUE_DB_1_DoorbellPageMappedOnceAtFirstQueue) {
  open_and_acquire();
  alignas(64) static uint64_t ring[512];
  uint64_t rptr = 0, wptr = 0;
  HsaQueueResource r1{}, r2{};
  r1.QueueRptrValue = r2.QueueRptrValue = reinterpret_cast<uintptr_t>(&rptr);
  r1.QueueWptrValue = r2.QueueWptrValue = reinterpret_cast<uintptr_t>(&wptr);
  ASSERT_EQ(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring,
                              nullptr, &r1),
            HSAKMT_STATUS_SUCCESS);
  size_t doorbell_allocs = 0, doorbell_mmaps = 0;
  for (const auto& a : fake_.allocs) doorbell_allocs += (a.flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) != 0;
  for (const auto& m : fake_.mmaps) doorbell_mmaps += (m.offset >> 62) == 3;
  EXPECT_EQ(doorbell_allocs, 1u);
  ASSERT_EQ(doorbell_mmaps, 1u);
  ASSERT_EQ(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring,
                              nullptr, &r2),
            HSAKMT_STATUS_SUCCESS);
  size_t after = 0;
  for (const auto& m : fake_.mmaps) after += (m.offset >> 62) == 3;
  EXPECT_EQ(after, 1u) << "the second queue reuses the page";
  EXPECT_EQ(r2.QueueDoorBell - r1.QueueDoorBell, 8u) << "in-page offset from doorbell_offset";
  for (const auto& m : fake_.mmaps)
    if ((m.offset >> 62) == 3) {
      EXPECT_EQ(m.length, 8192u);
      EXPECT_EQ(m.offset & 8191, 0u);
      EXPECT_EQ(m.fd, FakeKfd::kKfdFd);
    }
  EXPECT_EQ(hsaKmtDestroyQueue(r1.QueueId), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDestroyQueue(r2.QueueId), HSAKMT_STATUS_SUCCESS);
  EXPECT_TRUE(fake_.live_queues.empty());
}

TEST_F(ThunkOnFake, QUEUE_CREATE_2_FailedCreateFreesItsBuffers) {
  open_and_acquire();
  const size_t handles = fake_.live_handles.size();
  fake_.fail_ioctl[nr(AMDKFD_IOC_CREATE_QUEUE)] = -ENOMEM;
  alignas(64) static uint64_t ring[512];
  HsaQueueResource r{};
  EXPECT_EQ(hsaKmtCreateQueue(1, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, sizeof ring,
                              nullptr, &r),
            HSAKMT_STATUS_ERROR);
  EXPECT_EQ(fake_.live_handles.size(), handles) << "EOP and context-save buffers released";
}

// EVT-PAGE-1: the first CREATE_EVENT hands over the 32 KiB event page, later ones do not.
TEST_F(ThunkOnFake, EVT_PAGE_1_FirstEventCarriesTheEventPage) {
  open_and_acquire();
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* a = nullptr;
  HsaEvent* b = nullptr;
  ASSERT_EQ(hsaKmtCreateEvent(&d, false, false, &a), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(hsaKmtCreateEvent(&d, true, false, &b), HSAKMT_STATUS_SUCCESS);
  ASSERT_EQ(fake_.created_events.size(), 2u);
  EXPECT_NE(fake_.created_events[0].event_page_offset, 0u);
  EXPECT_EQ(fake_.created_events[1].event_page_offset, 0u);
  EXPECT_EQ(fake_.created_events[0].auto_reset, 1u);
  EXPECT_EQ(fake_.created_events[1].auto_reset, 0u);
  bool page_found = false;
  for (const auto& al : fake_.allocs)
    page_found |= al.size == 32768 && (al.flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT);
  EXPECT_TRUE(page_found) << "32 KiB of GTT";
  EXPECT_EQ(b->EventData.HWData2 - a->EventData.HWData2, 8u) << "slots are 8 bytes apart";
  EXPECT_EQ(hsaKmtWaitOnEvent(a, 0), HSAKMT_STATUS_WAIT_TIMEOUT);
  EXPECT_EQ(hsaKmtDestroyEvent(a), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtDestroyEvent(b), HSAKMT_STATUS_SUCCESS);
}

TEST_F(ThunkOnFake, EVT_WAIT_1_WaitErrorsMapToStatus) {
  open_and_acquire();
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* e = nullptr;
  ASSERT_EQ(hsaKmtCreateEvent(&d, false, false, &e), HSAKMT_STATUS_SUCCESS);
  fake_.fail_ioctl[nr(AMDKFD_IOC_WAIT_EVENTS)] = -EINVAL;
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10), HSAKMT_STATUS_ERROR);
  uint64_t age = 5;
  EXPECT_EQ(hsaKmtWaitOnEvent_Ext(e, 10, &age), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_SUCCESS);
}

// Sizes past the user address space are refused before any ioctl, and never wrap around.
TEST_F(ThunkOnFake, MEM_ALLOC_3_AbsurdSizesChangeNothing) {
  open_and_acquire();
  const size_t allocs = fake_.allocs.size();
  void* mem = nullptr;
  EXPECT_EQ(hsaKmtAllocMemory(1, ~uint64_t{4095}, vram(), &mem), HSAKMT_STATUS_NO_MEMORY);
  HsaMemFlags host{};
  host.ui32.HostAccess = 1;
  EXPECT_EQ(hsaKmtAllocMemory(0, ~uint64_t{4095}, host, &mem), HSAKMT_STATUS_ERROR);
  EXPECT_EQ(mem, nullptr);
  alignas(4096) static char user[4096];
  EXPECT_EQ(hsaKmtRegisterMemory(user, ~uint64_t{0} - 100), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(fake_.allocs.size(), allocs);
}

TEST_F(ThunkOnFake, EVT_WAIT_2_HugeEventCountIsRefusedBeforeCopying) {
  open_and_acquire();
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* e = nullptr;
  ASSERT_EQ(hsaKmtCreateEvent(&d, false, false, &e), HSAKMT_STATUS_SUCCESS);
  HsaEvent* one[] = {e};
  EXPECT_EQ(hsaKmtWaitOnMultipleEvents(one, 0xffffffffu, true, 0), HSAKMT_STATUS_INVALID_PARAMETER);
  EXPECT_EQ(fake_.count(nr(AMDKFD_IOC_WAIT_EVENTS)), 0u);
  EXPECT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_SUCCESS);
}

}  // namespace
}  // namespace rocref::thunk
