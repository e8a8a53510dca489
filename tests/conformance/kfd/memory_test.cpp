// tests/conformance/kfd/memory_test.cpp - ALLOC/FREE/MAP/UNMAP, apertures, VM binding, mmaps (KFD-MEM-*).
#include <alloca.h>
#include <sys/mman.h>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

constexpr uint32_t kVram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
constexpr uint32_t kGtt = KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;

TEST_F(KfdTest, KFD_MEM_8_AperturesAreMmapBased) {
  kfd_ioctl_get_process_apertures_new_args q{};
  ASSERT_EQ(io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), 0);
  uint32_t gpu_nodes = 0;  // one kfd_process_device per GPU node (KFD-TOPO-8)
  for (int n = 0; kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id"); ++n)
    gpu_nodes +=
        std::stoul(*kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id")) != 0;
  ASSERT_EQ(q.num_of_nodes, gpu_nodes);
  kfd_process_device_apertures ap{};
  q.num_of_nodes = 1;  // the first GPU's only
  q.kfd_process_device_apertures_ptr = reinterpret_cast<uintptr_t>(&ap);
  ASSERT_EQ(io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), 0);
  EXPECT_EQ(ap.gpu_id, proc.gpu_id);
  EXPECT_GE(ap.gpuvm_limit, (uint64_t{1} << 47) - 1);  // the thunk then uses GPU VA = CPU VA
  EXPECT_LT(ap.gpuvm_base, ap.gpuvm_limit);
  q.kfd_process_device_apertures_ptr = 0;
  EXPECT_EQ(io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &q), -EFAULT);
  kfd_ioctl_get_process_apertures_args old{};
  ASSERT_EQ(io(AMDKFD_IOC_GET_PROCESS_APERTURES, &old), 0);
  EXPECT_EQ(old.num_of_nodes, gpu_nodes);
  EXPECT_EQ(old.process_apertures[0].gpuvm_limit, ap.gpuvm_limit);
}

TEST(KfdAcquireVm, KFD_PROC_2_BindingRules) {
  KfdProcess p;
  ASSERT_EQ(p.open(false), 0);
  kfd_ioctl_acquire_vm_args bad_gpu{static_cast<uint32_t>(p.render), p.gpu_id + 1};
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &bad_gpu), -EINVAL);
  kfd_ioctl_acquire_vm_args bad_fd{0x7fffffff, p.gpu_id};
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &bad_fd), -EINVAL);
  uint64_t h = 0;
  EXPECT_EQ(p.alloc(kGtt, kPage, reserve_va(kPage), &h), -ENODEV) << "no VM acquired yet";
  kfd_ioctl_acquire_vm_args ok{static_cast<uint32_t>(p.render), p.gpu_id};
  ASSERT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &ok), 0);
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &ok), 0) << "same file again is fine";
  const int other = kfdport::open_render(static_cast<uint32_t>(
      properties(std::string(kTopology) + "/nodes/" + std::to_string(gpu_node()) + "/properties").at("drm_render_minor")));
  kfd_ioctl_acquire_vm_args second{static_cast<uint32_t>(other), p.gpu_id};
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &second), -EBUSY);
  // Another process cannot take a render node whose VM this one uses.
  KfdProcess q;
  ASSERT_EQ(q.open(false), 0);
  kfd_ioctl_acquire_vm_args steal{static_cast<uint32_t>(p.render), q.gpu_id};
  EXPECT_EQ(q.io(AMDKFD_IOC_ACQUIRE_VM, &steal), -EINVAL);
  kfdport::close(other);
  p.close();
  q.close();
}

TEST_F(KfdTest, KFD_MEM_1_KFD_MEM_4_AllocEveryKindAndFree) {
  uint64_t h[5] = {}, off[5] = {};
  ASSERT_EQ(proc.alloc(kVram, 2 * kPage, reserve_va(2 * kPage), &h[0], &off[0]), 0);
  ASSERT_EQ(proc.alloc(kGtt, kPage, reserve_va(kPage), &h[1], &off[1]), 0);
  void* user = ::mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const uint64_t u = reinterpret_cast<uintptr_t>(user);
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage, u, &h[2], &off[2], u), 0);
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 8192, reserve_va(8192), &h[3], &off[3]), 0);
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage, reserve_va(kPage), &h[4], &off[4]), 0);
  EXPECT_EQ(off[3] >> 62, 3u) << "doorbell buffers are mmapped through /dev/kfd";
  EXPECT_EQ((off[3] >> kMmapGpuIdShift) & 0xffff, proc.gpu_id);
  EXPECT_EQ(off[4] >> 62, 0u);
  EXPECT_NE(off[0], off[1]);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(h[i] >> 32, proc.gpu_id);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(proc.free(h[i]), 0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(proc.free(h[i]), -EINVAL) << "double free";
  ::munmap(user, kPage);
}

TEST_F(KfdTest, KFD_MEM_2_KFD_MEM_3_BadAllocationsChangeNothing) {
  const uint64_t before = proc.available();
  const uint64_t va = reserve_va(8192);
  uint64_t h = 0;
  EXPECT_EQ(proc.alloc(kVram, 0, va, &h), -EINVAL);
  EXPECT_EQ(proc.alloc(0, kPage, va, &h), -EINVAL) << "no memory type";
  EXPECT_EQ(proc.alloc(kVram, kPage, va + 1, &h), -EINVAL) << "misaligned VA";
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, kPage, va, &h), -EINVAL) << "doorbell slice is 8 KiB";
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, 8192, va, &h), -EINVAL) << "MMIO remap is one page";
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, kPage, va, &h, nullptr, va + 8), -EINVAL);
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, kPage, va, &h, nullptr, va), -EFAULT) << "no pages there";
  EXPECT_EQ(proc.alloc(kVram, uint64_t{1} << 40, uint64_t{1} << 32, &h), -ENOMEM) << "more than the VRAM";
  KfdProcess other = proc;
  other.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(other.alloc(kVram, kPage, va, &h), -EINVAL) << "bad gpu_id";
  EXPECT_EQ(proc.available(), before);
}

// KFD-MEM-3: get_user_pages with FOLL_WRITE fails on read-only pages.
TEST_F(KfdTest, KFD_MEM_3_WritableUserptrOverReadOnlyPagesIsEFAULT) {
  void* p = ::mmap(nullptr, 2 * kPage, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  const uint64_t u = reinterpret_cast<uintptr_t>(p);
  uint64_t h = 0;
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 2 * kPage, u, &h, nullptr, u),
            -EFAULT);
  ASSERT_EQ(::mprotect(static_cast<char*>(p) + kPage, kPage, PROT_READ | PROT_WRITE), 0);
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 2 * kPage, u, &h, nullptr, u),
            -EFAULT) << "one read-only page is enough";
  ASSERT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, 2 * kPage, u, &h, nullptr, u), 0) << "read-only access is fine";
  EXPECT_EQ(proc.free(h), 0);
  ::munmap(p, 2 * kPage);
}

// Grows the stack `bytes` below the caller's frame, so those pages are mapped.
[[gnu::noinline]] void touch_stack_below(size_t bytes) {
  volatile uint8_t* below = static_cast<uint8_t*>(alloca(bytes));
  for (size_t i = 0; i < bytes; i += 512) below[i] = 1;
}

// Registers the pages of an array in this frame and the three pages below it, where the
// frames of the registering call itself are: 0 and the array intact, or the error.
[[gnu::noinline]] int register_own_frame(const KfdProcess& p, size_t pad, bool* intact) {
  volatile uint8_t* spacer = static_cast<uint8_t*>(alloca(pad + 1));
  spacer[0] = 1;
  uint8_t data[2 * kPage];
  for (size_t i = 0; i < sizeof data; ++i) data[i] = static_cast<uint8_t>(i * 7 + pad);
  touch_stack_below(16 * kPage);
  const uint64_t start = (reinterpret_cast<uintptr_t>(data) & ~(kPage - 1)) - 3 * kPage;
  const uint64_t end = (reinterpret_cast<uintptr_t>(data) + sizeof data + kPage - 1) & ~(kPage - 1);
  uint64_t h = 0;
  const int r = p.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, end - start, start, &h,
                        nullptr, start);
  if (r == 0) p.free(h);
  *intact = true;
  for (size_t i = 0; i < sizeof data; ++i) *intact = *intact && data[i] == static_cast<uint8_t>(i * 7 + pad);
  return r;
}

// KFD-MEM-3: the pages may hold the registering thread's own stack, the frames of the call
// that registers them included (the kernel registers them on a stack of its own).
TEST_F(KfdTest, KFD_MEM_3_UserptrOverTheCallersOwnStackFrames) {
  for (size_t pad = 0; pad <= 2 * kPage; pad += 256) {
    bool intact = false;
    EXPECT_EQ(register_own_frame(proc, pad, &intact), 0) << "pad " << pad;
    EXPECT_TRUE(intact) << "pad " << pad;
  }
}

TEST_F(KfdTest, KFD_MEM_9_AvailableMemoryTracksVram) {
  const uint64_t before = proc.available();
  uint64_t h = 0;
  ASSERT_EQ(proc.alloc(kVram, 64 * kPage, reserve_va(64 * kPage), &h), 0);
  EXPECT_EQ(proc.available(), before - 64 * kPage);
  ASSERT_EQ(proc.free(h), 0);
  EXPECT_EQ(proc.available(), before);
  kfd_ioctl_get_available_memory_args a{};
  a.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_AVAILABLE_MEMORY, &a), -EINVAL);
}

// The sizes amdkfd's memory limits derive from: system memory (the CPU node's bank) and VRAM.
uint64_t bank_bytes(int node) {
  return properties(std::string(kTopology) + "/nodes/" + std::to_string(node) +
                    "/mem_banks/0/properties")["size_in_bytes"];
}

// KFD-MEM-11: GTT past 3/8 of system memory (the TTM limit), USERPTR past 15/16 of it (the system
// limit), VRAM past the VRAM less its page-table reserve: -ENOMEM, and nothing changes.
TEST_F(KfdTest, KFD_MEM_11_AllocPastTheMemoryLimitsIsENOMEMAndChangesNothing) {
  const uint64_t system = bank_bytes(0), vram = bank_bytes(gpu_node());
  ASSERT_GT(system, 0u);
  ASSERT_GT(vram, 0u);
  const uint64_t available = proc.available();
  uint64_t h = 0;
  const uint64_t gtt = (system / 16 * 7) & ~(kPage - 1);
  EXPECT_EQ(proc.alloc(kGtt, gtt, reserve_va(gtt), &h), -ENOMEM) << "GTT past the TTM limit";
  // The limit is checked before get_user_pages: the range need not even be mapped.
  const uint64_t user = reserve_va(system);
  EXPECT_EQ(proc.alloc(KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, system, user, &h, nullptr, user), -ENOMEM)
      << "USERPTR past the system limit";
  ::munmap(reinterpret_cast<void*>(user), system);
  EXPECT_EQ(proc.alloc(kVram, vram, reserve_va(vram), &h), -ENOMEM) << "all of VRAM leaves no page-table reserve";
  EXPECT_EQ(proc.available(), available);
  // What fits still fits: the refused calls reserved nothing.
  ASSERT_EQ(proc.alloc(kVram, available, reserve_va(available), &h), 0);
  EXPECT_EQ(proc.available(), 0u);
  EXPECT_EQ(proc.free(h), 0);
  EXPECT_EQ(proc.available(), available);
}

// KFD-MEM-11: a freed buffer gives its charge back, a closed process all of its buffers'.
TEST_F(KfdTest, KFD_MEM_11_FreeAndCloseGiveTheChargeBack) {
  const uint64_t system = bank_bytes(0), vram = bank_bytes(gpu_node());
  const uint64_t gtt = system / 4;  // one fits under 3/8 of system memory, two do not
  const uint64_t gtt_va = reserve_va(gtt);
  uint64_t a = 0, b = 0;
  ASSERT_EQ(proc.alloc(kGtt, gtt, gtt_va, &a), 0);
  EXPECT_EQ(proc.alloc(kGtt, gtt, reserve_va(gtt), &b), -ENOMEM);
  ASSERT_EQ(proc.free(a), 0);
  ASSERT_EQ(proc.alloc(kGtt, gtt, gtt_va, &b), 0) << "the freed GTT buffer's charge came back";
  ASSERT_EQ(proc.free(b), 0);
  const uint64_t big = vram / 8 * 5;  // one fits, two do not
  const uint64_t vram_va = reserve_va(big);
  ASSERT_EQ(proc.alloc(kVram, big, vram_va, &a), 0);
  EXPECT_EQ(proc.alloc(kVram, big, reserve_va(big), &b), -ENOMEM);
  // Close with the buffer live: the driver frees it, and its charge with it.
  KfdProcess other;
  ASSERT_EQ(other.open(), 0);
  ASSERT_EQ(other.alloc(kVram, big, reserve_va(big), &b), -ENOMEM) << "the limits are the driver's, not per process";
  proc.close();
  ASSERT_EQ(other.alloc(kVram, big, vram_va, &b), 0) << "the closed process's VRAM charge came back";
  EXPECT_EQ(other.free(b), 0);
  other.close();
}

TEST_F(KfdTest, KFD_MEM_5_KFD_MEM_6_MapUnmapArgumentChecks) {
  uint64_t h = 0;
  ASSERT_EQ(proc.alloc(kGtt, kPage, reserve_va(kPage), &h), 0);
  uint32_t ids[2] = {proc.gpu_id, proc.gpu_id + 1};
  kfd_ioctl_map_memory_to_gpu_args m{h, reinterpret_cast<uintptr_t>(ids), 0, 0};
  EXPECT_EQ(io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL) << "no devices";
  m = {h, reinterpret_cast<uintptr_t>(ids), 1, 2};
  EXPECT_EQ(io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL) << "n_success > n_devices";
  m = {h, 0, 1, 0};
  EXPECT_EQ(io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EFAULT) << "null device array";
  m = {h + 1000, reinterpret_cast<uintptr_t>(ids), 1, 0};
  EXPECT_EQ(io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL) << "bad handle";
  m = {h, reinterpret_cast<uintptr_t>(ids), 2, 0};
  EXPECT_EQ(io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), -EINVAL) << "second id is no GPU";
  EXPECT_EQ(m.n_success, 1u) << "the first device was mapped";
  EXPECT_EQ(proc.map(h), 0) << "mapping again is a no-op";
  EXPECT_EQ(proc.free(h), -EBUSY) << "still mapped";
  EXPECT_EQ(proc.unmap(h), 0);
  EXPECT_EQ(proc.unmap(h), -EINVAL) << "unmapping unmapped memory";
  EXPECT_EQ(proc.free(h), 0);
}

// amdkfd finds the device by the handle's upper 32 bits (GET_GPU_ID) before the buffer by its
// IDR index: the right index under another gpu_id names no buffer.
TEST_F(KfdTest, KFD_MEM_4_KFD_MEM_5_HandleOfAnotherGpuIdIsUnknown) {
  uint64_t h = 0;
  ASSERT_EQ(proc.alloc(kGtt, kPage, reserve_va(kPage), &h), 0);
  ASSERT_EQ(h >> 32, proc.gpu_id) << "the handle carries its device's gpu_id";
  ASSERT_EQ(proc.map(h), 0);
  const uint64_t forged = (uint64_t{proc.gpu_id + 1} << 32) | (h & 0xffffffffu);
  EXPECT_EQ(proc.map(forged), -EINVAL);
  EXPECT_EQ(proc.unmap(forged), -EINVAL);
  EXPECT_EQ(proc.free(forged), -EINVAL);
  EXPECT_EQ(proc.unmap(h), 0) << "the buffer is still mapped";
  EXPECT_EQ(proc.free(h), 0);
}

TEST_F(KfdTest, KFD_MEM_5_OverlappingGpuMappingsRefused) {
  const uint64_t va = reserve_va(2 * kPage);
  uint64_t a = 0, b = 0;
  ASSERT_EQ(proc.alloc(kGtt, 2 * kPage, va, &a), 0);
  ASSERT_EQ(proc.alloc(kGtt, kPage, va + kPage, &b), 0);
  ASSERT_EQ(proc.map(a), 0);
  uint32_t n = 99;
  EXPECT_EQ(proc.map(b, &n), -EINVAL);
  EXPECT_EQ(n, 0u);
  ASSERT_EQ(proc.unmap(a), 0);
  EXPECT_EQ(proc.map(b), 0) << "after the unmap the range is free";
  EXPECT_EQ(proc.unmap(b), 0);
  EXPECT_EQ(proc.free(a), 0);
  EXPECT_EQ(proc.free(b), 0);
}

TEST_F(KfdTest, KFD_MEM_7_RenderNodeMmapSharesPages) {
  auto b = proc.buffer(kVram, 2 * kPage);
  ASSERT_NE(b.cpu, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.cpu), b.va) << "CPU VA equals GPU VA";
  static_cast<uint32_t*>(b.cpu)[1000] = 0x1234abcd;
  int err = 0;
  void* second = kfdport::mmap(nullptr, 2 * kPage, PROT_READ, MAP_SHARED, proc.render, static_cast<off_t>(b.mmap_offset), &err);
  ASSERT_NE(second, nullptr) << err;
  EXPECT_EQ(static_cast<uint32_t*>(second)[1000], 0x1234abcdu);
  EXPECT_EQ(kfdport::munmap(second, 2 * kPage), 0);
  EXPECT_EQ(kfdport::mmap(nullptr, 4 * kPage, PROT_READ, MAP_SHARED, proc.render, static_cast<off_t>(b.mmap_offset), &err), nullptr);
  EXPECT_EQ(err, -EINVAL) << "longer than the buffer";
  EXPECT_EQ(kfdport::mmap(nullptr, kPage, PROT_READ, MAP_SHARED, proc.render, static_cast<off_t>(b.mmap_offset + 1), &err), nullptr);
  EXPECT_EQ(err, -EINVAL) << "unaligned offset";
  EXPECT_EQ(proc.unmap(b.handle), 0);
  EXPECT_EQ(proc.free(b.handle), 0);
}

TEST_F(KfdTest, KFD_DB_1_DoorbellPageMmap) {
  const uint64_t off = kMmapDoorbell | (uint64_t{proc.gpu_id} << kMmapGpuIdShift);
  int err = 0;
  void* db = kfdport::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, proc.fd, static_cast<off_t>(off), &err);
  ASSERT_NE(db, nullptr) << err;
  EXPECT_EQ(kfdport::mmap(nullptr, 4096, PROT_READ, MAP_SHARED, proc.fd, static_cast<off_t>(off), &err), nullptr);
  EXPECT_EQ(err, -EINVAL) << "the doorbell slice is exactly 8 KiB";
  const uint64_t bad = kMmapDoorbell | (uint64_t{proc.gpu_id + 1} << kMmapGpuIdShift);
  EXPECT_EQ(kfdport::mmap(nullptr, 8192, PROT_READ, MAP_SHARED, proc.fd, static_cast<off_t>(bad), &err), nullptr);
  EXPECT_EQ(err, -ENODEV);
  EXPECT_EQ(kfdport::munmap(db, 8192), 0);
}

TEST_F(KfdTest, KFD_PROC_3_CloseReleasesEverything) {
  KfdProcess p;
  ASSERT_EQ(p.open(), 0);
  const uint64_t before = p.available();
  auto b = p.buffer(kVram, 16 * kPage);
  ASSERT_NE(b.cpu, nullptr);
  EXPECT_EQ(proc.available(), before - 16 * kPage);
  p.close();
  EXPECT_EQ(proc.available(), before);
}

}  // namespace
}  // namespace kfdconf
