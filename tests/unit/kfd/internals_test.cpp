// tests/unit/kfd/internals_test.cpp - topology files, memory pools, checked user copies, GPUVM tables.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <sstream>

#include "gpu/vm/gpu_vm.h"
#include "kfd/host_arena.h"
#include "kfd/topology.h"
#include "kfd/user_copy.h"
#include "kfd/userptr_pin.h"

namespace rocref::kfd {
namespace {

TEST(Topology, KFD_TOPO_2_EveryListedEntryExists) {
  Topology t(GpuDescription{});
  const std::string root = "/sys/devices/virtual/kfd/kfd/topology";
  auto nodes = t.list(root + "/nodes");
  ASSERT_TRUE(nodes);
  EXPECT_EQ(*nodes, (std::vector<std::string>{"0", "1"}));
  EXPECT_TRUE(t.read("/sys/class/kfd/kfd/topology/nodes/1/gpu_id")) << "both sysfs roots";
  EXPECT_FALSE(t.read(root + "/nodes/2/gpu_id"));
  EXPECT_FALSE(t.read("/sys/devices/virtual/kfd/kfd/topologyX/generation_id"));
  const auto props = t.read(root + "/nodes/1/properties");
  ASSERT_TRUE(props);
  std::istringstream in(*props);
  std::string k;
  uint64_t v;
  int lines = 0;
  while (in >> k >> v) ++lines;
  EXPECT_GE(lines, 36) << "every key the thunk reads";
  EXPECT_NE(props->find("gfx_target_version 90000\n"), std::string::npos);
  EXPECT_NE(props->find("num_cp_queues " + std::to_string(t.hw_queue_slots()) + "\n"), std::string::npos);
}

TEST(HostArena, AllocatesAlignedZeroedPagesAndCoalesces) {
  HostArena a("test-arena", 16 * 4096);
  ASSERT_TRUE(a.ok());
  auto x = a.allocate(5000), y = a.allocate(4096);
  ASSERT_TRUE(x && y);
  EXPECT_EQ(*x % 4096, 0u);
  EXPECT_EQ(a.available(), 13u * 4096);
  a.at(*x)[10] = 42;
  a.release(*x, 5000);
  auto z = a.allocate(8192);
  ASSERT_TRUE(z);
  EXPECT_EQ(a.at(*z)[10], 0) << "a new buffer never shows the previous owner's data";
  EXPECT_FALSE(a.allocate(64 * 4096));
  a.release(*y, 4096);
  a.release(*z, 8192);
  EXPECT_EQ(a.available(), 16u * 4096);
  EXPECT_TRUE(a.allocate(16 * 4096)) << "freed ranges coalesce";
}

TEST(UserCopy, BadPointersAreEFAULTNotCrashes) {
  uint64_t v = 7, out = 0;
  EXPECT_EQ(copy_from_user(&out, reinterpret_cast<uintptr_t>(&v), sizeof v), 0);
  EXPECT_EQ(out, 7u);
  EXPECT_EQ(copy_from_user(&out, 0, sizeof v), -EFAULT);
  EXPECT_EQ(copy_from_user(&out, 16, sizeof v), -EFAULT);
  void* ro = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_EQ(copy_to_user(reinterpret_cast<uintptr_t>(ro), &v, sizeof v), -EFAULT);
  EXPECT_TRUE(user_range_mapped(reinterpret_cast<uintptr_t>(ro), 4096));
  void* none = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_FALSE(user_range_mapped(reinterpret_cast<uintptr_t>(none), 4096));
  munmap(ro, 4096);
  munmap(none, 4096);
}

// The shared-memory pages this process holds, from /proc/self/status (RssShmem, KiB): a pin's
// memfd pages are counted there.
long rss_shmem_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    long kib = 0;
    if (std::sscanf(line.c_str(), "RssShmem: %ld kB", &kib) == 1) return kib;
  }
  return -1;
}

// KFD-MEM-3: registering 1 GiB of which the application touched two pages copies those two
// (their bytes arrive in the driver's view) and leaves the rest unpopulated: the pin costs what
// get_user_pages costs on fresh memory, not a copy of the whole range.
TEST(UserptrPin, KFD_MEM_3_UntouchedPagesAreNotCopiedTouchedOnesAre) {
  constexpr uint64_t kSize = uint64_t{1} << 30, kPage = 4096;
  void* range = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(range, MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(range);
  bytes[7] = 0x5a;
  std::memset(bytes + kSize / 2, 0xc3, kPage);
  const long before = rss_shmem_kib();
  ASSERT_GE(before, 0) << "no RssShmem in /proc/self/status";
  std::unique_ptr<UserptrPin> pin;
  ASSERT_EQ(UserptrPin::create(reinterpret_cast<uint64_t>(range), kSize, true, &pin), 0);
  EXPECT_EQ(pin->host()[7], 0x5a);
  EXPECT_EQ(pin->host()[kSize / 2 + kPage - 1], 0xc3);
  EXPECT_EQ(pin->host()[kSize / 4], 0);
  EXPECT_LT(rss_shmem_kib() - before, 16 * 1024) << "the pin populated pages nobody touched";
  bytes[9] = 1;  // the user's mapping and the driver's view are one set of pages
  EXPECT_EQ(pin->host()[9], 1);
  pin.reset();
  munmap(range, kSize);
}

// KFD-MEM-3: registrations may overlap (amdgpu's userptr BOs do; ROCR locks two small host
// buffers that share a page). A range whose pages an earlier registration already moved into
// its memfd, beside fresh heap, is one range of mixed mappings: shared, private, shared here.
// Every view and the user's mapping stay one set of pages.
TEST(UserptrPin, KFD_MEM_3_OverlappingRegistrationsMixingMappingKindsShareThePages) {
  constexpr uint64_t kPage = 4096;
  void* range = mmap(nullptr, 3 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(range, MAP_FAILED);
  auto* bytes = static_cast<uint8_t*>(range);
  for (int i = 0; i < 3; ++i) bytes[i * kPage] = static_cast<uint8_t>(0x10 + i);
  const auto at = [&](int page) { return reinterpret_cast<uint64_t>(bytes + page * kPage); };
  std::unique_ptr<UserptrPin> first, last, whole;
  ASSERT_EQ(UserptrPin::create(at(0), kPage, true, &first), 0);
  ASSERT_EQ(UserptrPin::create(at(2), kPage, true, &last), 0);
  ASSERT_EQ(UserptrPin::create(at(0), 3 * kPage, true, &whole), 0) << "first and last page are shared now";
  for (int i = 0; i < 3; ++i) EXPECT_EQ(whole->host()[i * kPage], 0x10 + i) << "page " << i;
  for (int i = 0; i < 3; ++i) bytes[i * kPage + 1] = static_cast<uint8_t>(0x20 + i);  // the user writes
  for (int i = 0; i < 3; ++i) EXPECT_EQ(whole->host()[i * kPage + 1], 0x20 + i) << "page " << i;
  EXPECT_EQ(first->host()[1], 0x20);
  EXPECT_EQ(last->host()[1], 0x22);
  whole->host()[2] = 0x30;  // the GPU writes through the newest view
  whole->host()[2 * kPage + 2] = 0x32;
  EXPECT_EQ(bytes[2], 0x30);
  EXPECT_EQ(first->host()[2], 0x30);
  EXPECT_EQ(last->host()[2], 0x32);
  first.reset();  // freeing one registration leaves the others' pages in place
  EXPECT_EQ(whole->host()[0], 0x10);
  whole.reset();
  last.reset();
  EXPECT_EQ(bytes[2 * kPage + 2], 0x32);
  munmap(range, 3 * kPage);
}

TEST(GpuVm, VM_PT_2_TablePagesOnDemandAndFreedWhenEmpty) {
  gpu::vm::GpuVm vm(3);
  EXPECT_EQ(vm.table_pages(), 1u);
  ASSERT_EQ(vm.map(0x7f0000000000, 0x10000, 4096, gpu::vm::kPteReadable), 0);
  EXPECT_EQ(vm.table_pages(), 4u) << "root + one page per lower level";
  ASSERT_EQ(vm.map(0x7f0000001000, 0x20000, 4096, gpu::vm::kPteReadable), 0);
  EXPECT_EQ(vm.table_pages(), 4u) << "same last-level table";
  ASSERT_EQ(vm.map(0x7f0000200000, 0x30000, 4096, gpu::vm::kPteReadable), 0);
  EXPECT_EQ(vm.table_pages(), 5u) << "next 2 MiB: a new last-level table";
  EXPECT_EQ(vm.unmap(0x7f0000000000, 8192), 0);
  EXPECT_EQ(vm.table_pages(), 4u);
  EXPECT_EQ(vm.unmap(0x7f0000200000, 4096), 0);
  EXPECT_EQ(vm.table_pages(), 1u);
}

TEST(GpuVm, VM_TLB_1_StaleUntilInvalidated) {
  gpu::vm::GpuVm vm(3);
  ASSERT_EQ(vm.map(0x100000, 0x5000, 4096, gpu::vm::kPteReadable), 0);
  EXPECT_EQ(vm.translate(0x100010, 4, gpu::Access::Read), reinterpret_cast<void*>(0x5010));
  ASSERT_EQ(vm.unmap(0x100000, 4096), 0);
  EXPECT_EQ(vm.translate(0x100010, 4, gpu::Access::Read), reinterpret_cast<void*>(0x5010))
      << "hardware keeps the cached translation until the driver invalidates";
  vm.invalidate_tlb();
  EXPECT_EQ(vm.translate(0x100010, 4, gpu::Access::Read), nullptr);
  EXPECT_EQ(vm.faults(), 1u);
}

TEST(GpuVm, VM_FAULT_1_FaultReportCarriesTheCause) {
  std::vector<gpu::vm::VmFault> faults;
  gpu::vm::GpuVm vm(9, [&](const gpu::vm::VmFault& f) { faults.push_back(f); });
  ASSERT_EQ(vm.map(0x200000, 0x9000, 4096, gpu::vm::kPteReadable), 0);
  EXPECT_EQ(vm.translate(0x200008, 8, gpu::Access::Write), nullptr);
  EXPECT_EQ(vm.translate(0x200008, 8, gpu::Access::Execute), nullptr);
  EXPECT_EQ(vm.translate(0x300000, 8, gpu::Access::Read), nullptr);
  ASSERT_EQ(faults.size(), 3u);
  EXPECT_TRUE(faults[0].read_only);
  EXPECT_TRUE(faults[1].no_execute);
  EXPECT_TRUE(faults[2].not_present);
  EXPECT_EQ(faults[2].va, 0x300000u);
  EXPECT_EQ(faults[2].vmid, 9u);
  EXPECT_EQ(vm.map(0x200000, 0x9000, 4096, 0), -EINVAL) << "overlap";
  EXPECT_EQ(vm.map(0x200001, 0x9000, 4096, 0), -EINVAL) << "misaligned";
  EXPECT_EQ(vm.map(uint64_t{1} << 48, 0x9000, 4096, 0), -EINVAL) << "outside 48 bits";
  EXPECT_EQ(vm.unmap(0x400000, 4096), -EINVAL);
}

}  // namespace
}  // namespace rocref::kfd
