// tests/conformance/kfd/ipc_test.cpp - IPC_EXPORT_HANDLE / IPC_IMPORT_HANDLE between two opens (KFD-IPC-*).
//
// The two ioctls are ROCm's out-of-tree 0x80/0x81, issued by libhsakmt 5.2.3's
// hsaKmtShareMemory and hsaKmtRegisterSharedHandle(ToNodes). Their layouts are spelled out
// here from ROCT-Thunk-Interface rocm-5.2.3 include/linux/kfd_ioctl.h, which
// linux-libc-dev's header lacks. Each open of the KFD is its own process, as in amdkfd.
#include <chrono>
#include <thread>

#include "ipc_abi.h"
#include "kfd_fixture.h"

namespace kfdconf {
namespace {

constexpr uint32_t kVram = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
constexpr uint32_t kGtt = KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
constexpr uint64_t kSize = 16 * kPage;

struct Ipc : ::testing::Test {
  void SetUp() override {
    const int r = a.open();
    if (r == -ENOENT && !kfdport::is_model()) GTEST_SKIP() << "no /dev/kfd on this machine";
    ASSERT_EQ(r, 0);
    ASSERT_EQ(b.open(), 0);
  }
  void TearDown() override {
    a.close();
    b.close();
  }
  // B's import of A's share handle, mapped for B's CPU at a VA of B's own.
  struct Imported {
    uint64_t va = 0, handle = 0, mmap_offset = 0;
    uint32_t flags = 0;
    uint32_t* cpu = nullptr;
  };
  Imported import_into(const KfdProcess& p, const uint32_t (&share)[4], uint64_t size = kSize) {
    Imported im;
    im.va = reserve_va(size);
    IpcImportArgs args{};
    if (import_handle(p, share, im.va, &args) != 0) return Imported{};
    im.handle = args.handle;
    im.mmap_offset = args.mmap_offset;
    im.flags = args.flags;
    int err = 0;
    void* m = cpu_map(p, im.va, size, im.mmap_offset, &err);
    im.cpu = static_cast<uint32_t*>(m);  // the port answers nullptr on failure
    return im;
  }
  KfdProcess a, b;
};

// KFD-IPC-1: export answers a 128-bit share handle; the same buffer always has the same one.
TEST_F(Ipc, KFD_IPC_1_ExportGivesEachBufferOneShareHandle) {
  const auto buf = a.buffer(kVram, kSize);
  ASSERT_NE(buf.cpu, nullptr);
  IpcExportArgs e1{}, e2{};
  ASSERT_EQ(export_handle(a, buf.handle, &e1), 0);
  EXPECT_FALSE(e1.share_handle[0] == 0 && e1.share_handle[1] == 0 && e1.share_handle[2] == 0 &&
               e1.share_handle[3] == 0);
  ASSERT_EQ(export_handle(a, buf.handle, &e2, 0x99), 0);
  EXPECT_EQ(std::memcmp(e1.share_handle, e2.share_handle, 16), 0);
  const auto other = a.buffer(kGtt, kSize);
  IpcExportArgs e3{};
  ASSERT_EQ(export_handle(a, other.handle, &e3), 0) << "GTT buffers are exported too";
  EXPECT_NE(std::memcmp(e1.share_handle, e3.share_handle, 16), 0);
}

// KFD-IPC-1: what cannot be exported, and the errors.
TEST_F(Ipc, KFD_IPC_1_ExportChecksDeviceAndBuffer) {
  const auto buf = a.buffer(kVram, kSize);
  IpcExportArgs e{};
  EXPECT_EQ(export_handle(a, buf.handle, &e, 0, 0xdead), -EINVAL) << "unknown gpu_id";
  EXPECT_EQ(export_handle(a, buf.handle + 1000, &e), -EINVAL) << "unknown buffer";
  EXPECT_EQ(export_handle(b, buf.handle, &e), -EINVAL) << "another process's buffer";
  const auto user = a.userptr(kPage);
  ASSERT_NE(user.handle, 0u);
  EXPECT_EQ(export_handle(a, user.handle, &e), -EPERM) << "amdgpu refuses to export a userptr BO";
  uint64_t db = 0;
  ASSERT_EQ(a.alloc(KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 8192, reserve_va(8192), &db),
            0);
  EXPECT_EQ(export_handle(a, db, &e), -EINVAL) << "doorbell pages are no shareable memory";
  KfdProcess c;
  ASSERT_EQ(c.open(false), 0);  // no ACQUIRE_VM: the device is not bound to the process
  EXPECT_EQ(export_handle(c, buf.handle, &e), -ENODEV);
  c.close();
}

// KFD-IPC-2: the importer's buffer is the exporter's pages, at the importer's VA, of the
// exported size, with the export's flags word.
TEST_F(Ipc, KFD_IPC_2_ImportInAnotherProcessSharesThePages) {
  for (uint32_t flags : {kVram, kGtt}) {
    const auto buf = a.buffer(flags, kSize);
    ASSERT_NE(buf.cpu, nullptr);
    auto* wa = static_cast<uint32_t*>(buf.cpu);
    for (uint32_t i = 0; i < kSize / 4; ++i) wa[i] = 0x5a000000u + i;
    IpcExportArgs e{};
    ASSERT_EQ(export_handle(a, buf.handle, &e, 0xabcd0001u), 0);
    const Imported im = import_into(b, e.share_handle);
    ASSERT_NE(im.cpu, nullptr);
    EXPECT_NE(im.va, buf.va);
    EXPECT_EQ(im.flags, 0xabcd0001u) << "the export's flags word comes back to the importer";
    EXPECT_NE(im.mmap_offset, 0u);
    bool same = true;
    for (uint32_t i = 0; i < kSize / 4; ++i) same = same && im.cpu[i] == 0x5a000000u + i;
    EXPECT_TRUE(same) << "the importer reads what the exporter wrote";
    im.cpu[7] = 0x77;
    EXPECT_EQ(wa[7], 0x77u) << "and the exporter what the importer writes";
    // The import is the exported size: no more can be mapped through its offset.
    int err = 0;
    const uint64_t big = reserve_va(kSize + kPage);
    EXPECT_EQ(cpu_map(b, big, kSize + kPage, im.mmap_offset, &err), nullptr);
    EXPECT_EQ(err, -EINVAL);
    // A's render node cannot map B's buffer.
    EXPECT_EQ(cpu_map(a, big, kSize, im.mmap_offset, &err), nullptr);
    // Re-exporting the import gives back the same handle.
    IpcExportArgs again{};
    ASSERT_EQ(export_handle(b, im.handle, &again), 0);
    EXPECT_EQ(std::memcmp(again.share_handle, e.share_handle, 16), 0);
  }
}

uint64_t wait_read_index(const AqlQueue& q, uint64_t want) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  uint64_t r = 0;
  while ((r = std::atomic_ref<uint64_t>(plain(q.q->read_dispatch_id)).load()) < want &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return r;
}

// KFD-IPC-2: the importer's GPU reaches the pages through the importer's GPUVM: a packet of
// B's queue decrements a signal in B's import, and A reads the new value in its own buffer.
TEST_F(Ipc, KFD_IPC_2_ImportersGpuWritesTheExportersPages) {
  const auto buf = a.buffer(kGtt, kSize);
  ASSERT_NE(buf.cpu, nullptr);
  auto* sig = static_cast<amd_signal_t*>(buf.cpu);
  plain(sig->value) = 5;
  IpcExportArgs e{};
  ASSERT_EQ(export_handle(a, buf.handle, &e), 0);
  const Imported im = import_into(b, e.share_handle);
  ASSERT_NE(im.cpu, nullptr);
  ASSERT_EQ(b.map(im.handle), 0);
  AqlQueue q;
  ASSERT_EQ(q.create(b), 0);
  q.submit_barrier(0, im.va);
  ASSERT_EQ(wait_read_index(q, 1), 1u);
  EXPECT_EQ(std::atomic_ref<int64_t>(plain(sig->value)).load(), 4);
  EXPECT_EQ(b.unmap(im.handle), 0);
}

// KFD-IPC-2: every bit of the handle counts; the device, the VA and the binding are checked;
// a refused import makes nothing.
TEST_F(Ipc, KFD_IPC_2_ImportChecksHandleDeviceAndAddress) {
  const auto buf = a.buffer(kVram, kSize);
  IpcExportArgs e{};
  ASSERT_EQ(export_handle(a, buf.handle, &e), 0);
  IpcImportArgs im{};
  const uint64_t va = reserve_va(kSize);
  for (int word = 0; word < 4; ++word) {
    uint32_t forged[4];
    std::memcpy(forged, e.share_handle, sizeof(forged));
    forged[word] ^= 1u << (word * 7);
    EXPECT_EQ(import_handle(b, forged, va, &im), -EINVAL) << "word " << word;
    EXPECT_EQ(im.handle, 0u);
  }
  EXPECT_EQ(import_handle(b, e.share_handle, va + 8, &im), -EINVAL) << "misaligned VA";
  EXPECT_EQ(import_handle(b, e.share_handle, (uint64_t{1} << 47) - kPage, &im), -EINVAL) << "past the user VA";
  EXPECT_EQ(import_handle(b, e.share_handle, va, &im, 0xdead), -EINVAL) << "unknown gpu_id";
  KfdProcess c;
  ASSERT_EQ(c.open(false), 0);
  EXPECT_EQ(import_handle(c, e.share_handle, va, &im), -ENODEV) << "no VM acquired on the device";
  c.close();
  EXPECT_EQ(import_handle(b, e.share_handle, va, &im), 0) << "the real handle still imports";
}

// KFD-IPC-2: a buffer of one GPU cannot be imported on another (amdgpu: "Can't handle buffers
// from other devices"). Needs two GPUs (conformance_kfd_2gpus, ROCREF_GPUS=2).
TEST_F(Ipc, KFD_IPC_2_ImportOnAnotherDeviceIsEINVAL) {
  uint32_t second = 0;
  for (int n = 0; n < 64 && !second; ++n) {
    const auto id = kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id");
    if (!id) break;
    const auto v = static_cast<uint32_t>(std::stoul(*id));
    if (v != 0 && v != a.gpu_id) second = v;
  }
  if (!second) GTEST_SKIP() << "one GPU";
  const auto buf = a.buffer(kVram, kSize);
  IpcExportArgs e{};
  ASSERT_EQ(export_handle(a, buf.handle, &e), 0);
  // B binds the second GPU's VM too (its render node is the next minor).
  int node = -1;
  for (int n = 0; n < 64; ++n) {
    const auto id = kfdport::read_sysfs(std::string(kTopology) + "/nodes/" + std::to_string(n) + "/gpu_id");
    if (id && std::stoul(*id) == second) node = n;
  }
  const auto props = properties(std::string(kTopology) + "/nodes/" + std::to_string(node) + "/properties");
  const int render2 = kfdport::open_render(static_cast<uint32_t>(props.at("drm_render_minor")));
  ASSERT_GE(render2, 0);
  kfd_ioctl_acquire_vm_args vm{static_cast<uint32_t>(render2), second};
  ASSERT_EQ(b.io(AMDKFD_IOC_ACQUIRE_VM, &vm), 0);
  IpcImportArgs im{};
  EXPECT_EQ(import_handle(b, e.share_handle, reserve_va(kSize), &im, second), -EINVAL);
  EXPECT_EQ(import_handle(b, e.share_handle, reserve_va(kSize), &im), 0);
  kfdport::close(render2);
}

// KFD-IPC-4: an import keeps the pages after the exporter frees its buffer, and after it closes
// the KFD; the pages, their charge and the handle go when the last buffer over them is freed.
TEST_F(Ipc, KFD_IPC_4_ImportKeepsThePagesAfterTheExporterGoes) {
  const uint64_t before = a.available();
  auto buf = a.buffer(kVram, kSize);
  ASSERT_NE(buf.cpu, nullptr);
  auto* wa = static_cast<uint32_t*>(buf.cpu);
  for (uint32_t i = 0; i < kSize / 4; ++i) wa[i] = 0xc0de0000u + i;
  IpcExportArgs e{};
  ASSERT_EQ(export_handle(a, buf.handle, &e), 0);
  const Imported im = import_into(b, e.share_handle);
  ASSERT_NE(im.cpu, nullptr);
  ASSERT_EQ(a.unmap(buf.handle), 0);
  ASSERT_EQ(a.free(buf.handle), 0);
  EXPECT_EQ(a.available(), before - kSize) << "the pages are still charged while B holds them";
  // A allocates again (the pool would hand out the freed range first) and writes it.
  const auto next = a.buffer(kVram, kSize);
  ASSERT_NE(next.cpu, nullptr);
  std::memset(next.cpu, 0xee, kSize);
  bool kept = true;
  for (uint32_t i = 0; i < kSize / 4; ++i) kept = kept && im.cpu[i] == 0xc0de0000u + i;
  EXPECT_TRUE(kept) << "B's pages were given to another buffer";
  // The handle still imports while B's buffer exists, even after A is gone.
  a.close();
  ASSERT_EQ(a.open(), 0);
  IpcImportArgs again{};
  ASSERT_EQ(import_handle(a, e.share_handle, reserve_va(kSize), &again), 0);
  ASSERT_EQ(a.free(again.handle), 0);
  const uint64_t held = a.available();
  ASSERT_EQ(b.free(im.handle), 0);
  EXPECT_EQ(a.available(), held + kSize) << "the last free gives the pages back";
  EXPECT_EQ(import_handle(a, e.share_handle, reserve_va(kSize), &again), -EINVAL) << "a stale handle";
}

}  // namespace
}  // namespace kfdconf
