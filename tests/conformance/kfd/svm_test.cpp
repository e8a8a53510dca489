// tests/conformance/kfd/svm_test.cpp - AMDKFD_IOC_SVM: argument checks, attributes, GPU access (KFD-SVM-*).
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

constexpr uint32_t kDefaultFlags = KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT;

// The thunk's encoding: the attribute array follows the header and its size is added to the command's.
int svm(const KfdProcess& p, uint32_t op, uint64_t start, uint64_t size, std::vector<kfd_ioctl_svm_attribute>& attrs,
        uint32_t nattr_override = ~0u) {
  std::vector<uint64_t> words((sizeof(kfd_ioctl_svm_args) + 8 * attrs.size()) / 8);
  auto* a = reinterpret_cast<kfd_ioctl_svm_args*>(words.data());
  a->start_addr = start;
  a->size = size;
  a->op = op;
  a->nattr = nattr_override == ~0u ? static_cast<uint32_t>(attrs.size()) : nattr_override;
  if (!attrs.empty()) std::memcpy(a->attrs, attrs.data(), 8 * attrs.size());
  const int r = p.io(AMDKFD_IOC_SVM + ((8 * attrs.size()) << _IOC_SIZESHIFT), a);
  if (!attrs.empty()) std::memcpy(attrs.data(), a->attrs, 8 * attrs.size());
  return r;
}

struct SvmTest : KfdTest {
  void SetUp() override {
    KfdTest::SetUp();
    void* m = ::mmap(nullptr, 8 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(m, MAP_FAILED);
    std::memset(m, 0, 8 * kPage);
    base = reinterpret_cast<uintptr_t>(m);
  }
  void TearDown() override {
    KfdTest::TearDown();
    ::munmap(reinterpret_cast<void*>(base), 8 * kPage);
  }
  int set(uint64_t start, uint64_t size, std::vector<kfd_ioctl_svm_attribute> attrs) {
    return svm(proc, KFD_IOCTL_SVM_OP_SET_ATTR, start, size, attrs);
  }
  // Every attribute GET_ATTR reports, over [start, start + size).
  std::vector<kfd_ioctl_svm_attribute> get(uint64_t start, uint64_t size, int* err = nullptr) {
    std::vector<kfd_ioctl_svm_attribute> a = {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, 0},
                                              {KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0},
                                              {KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id},
                                              {KFD_IOCTL_SVM_ATTR_SET_FLAGS, 0},
                                              {KFD_IOCTL_SVM_ATTR_CLR_FLAGS, 0},
                                              {KFD_IOCTL_SVM_ATTR_GRANULARITY, 0}};
    const int r = svm(proc, KFD_IOCTL_SVM_OP_GET_ATTR, start, size, a);
    if (err) *err = r;
    EXPECT_EQ(r, 0);
    return a;
  }
  void expect_defaults(uint64_t start, uint64_t size) {
    const auto a = get(start, size);
    EXPECT_EQ(a[0].value, uint32_t(KFD_IOCTL_SVM_LOCATION_UNDEFINED));
    EXPECT_EQ(a[1].value, uint32_t(KFD_IOCTL_SVM_LOCATION_UNDEFINED));
    EXPECT_EQ(a[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_NO_ACCESS)) << "XNACK off: no access until granted";
    EXPECT_EQ(a[3].value, kDefaultFlags);
    EXPECT_EQ(a[4].value, ~kDefaultFlags);
    EXPECT_EQ(a[5].value, 9u);
  }
  uint64_t base = 0;
};

TEST_F(SvmTest, KFD_SVM_1_BadRangesReturnTheDriverErrnoAndChangeNothing) {
  const std::vector<kfd_ioctl_svm_attribute> acc = {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}};
  EXPECT_EQ(set(base + 8, kPage, acc), -EINVAL) << "start not page aligned";
  EXPECT_EQ(set(base, kPage + 8, acc), -EINVAL) << "size not page aligned";
  EXPECT_EQ(set(base, 0, acc), -EINVAL) << "size 0";
  EXPECT_EQ(set(0, kPage, acc), -EINVAL) << "start 0";
  void* gone = ::mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(gone, MAP_FAILED);
  ::munmap(gone, kPage);
  EXPECT_EQ(set(reinterpret_cast<uintptr_t>(gone), kPage, acc), -EFAULT) << "no pages there";
  EXPECT_EQ(set(uint64_t{1} << 47, kPage, acc), -EFAULT) << "beyond the user address space";
  int err = 0;
  std::vector<kfd_ioctl_svm_attribute> g = {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 0}};
  err = svm(proc, KFD_IOCTL_SVM_OP_GET_ATTR, reinterpret_cast<uintptr_t>(gone), kPage, g);
  EXPECT_EQ(err, -EFAULT);
  // A range under a mapped GPU buffer belongs to the buffer (svm_range_check_vm).
  auto buf = proc.userptr(2 * kPage);
  ASSERT_NE(buf.handle, 0u);
  EXPECT_EQ(set(buf.va, kPage, acc), -EADDRINUSE);
  std::vector<kfd_ioctl_svm_attribute> op = {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}};
  EXPECT_EQ(svm(proc, 7, base, kPage, op), -EINVAL) << "unknown op";
  expect_defaults(base, 8 * kPage);
}

// svm_range_is_valid walks the process's VMAs: a PROT_NONE reservation is process memory (its
// attributes can be set and read; only granting access needs the pages), checking a range reads
// none of its pages, and a device mapping (a buffer's CPU view: VM_IO | VM_PFNMAP) is not SVM
// memory (-EFAULT, before the buffer's GPU mapping would give -EADDRINUSE).
TEST_F(SvmTest, KFD_SVM_2_RangesAreCheckedByTheirMappingsNotTheirPages) {
  const uint64_t none = reserve_va(16 * kPage);
  ASSERT_NE(none, 0u);
  expect_defaults(none, 16 * kPage);
  EXPECT_EQ(set(none, kPage, {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 3}}), 0);
  EXPECT_EQ(set(none, kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}}), -EFAULT) << "access needs readable pages";
  ::munmap(reinterpret_cast<void*>(none), 16 * kPage);

  constexpr uint64_t kShared = uint64_t{64} << 20;
  void* shared = ::mmap(nullptr, kShared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(shared, MAP_FAILED);
  expect_defaults(reinterpret_cast<uintptr_t>(shared), kShared);
  std::vector<unsigned char> resident(kShared / kPage);
  ASSERT_EQ(::mincore(shared, kShared, resident.data()), 0);
  EXPECT_EQ(std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return (r & 1) != 0; }), 0)
      << "GET_ATTR touched the range's pages";
  ::munmap(shared, kShared);

  auto vram = proc.buffer(KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 2 * kPage);
  ASSERT_NE(vram.handle, 0u);
  ASSERT_NE(vram.cpu, nullptr);
  EXPECT_EQ(set(vram.va, kPage, {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 3}}), -EFAULT);
  std::vector<kfd_ioctl_svm_attribute> g = {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 0}};
  EXPECT_EQ(svm(proc, KFD_IOCTL_SVM_OP_GET_ATTR, vram.va, kPage, g), -EFAULT);
}

TEST_F(SvmTest, KFD_SVM_2_BadAttributesReturnEINVALAndChangeNothing) {
  EXPECT_EQ(set(base, kPage, {{99, 0}}), -EINVAL) << "unknown attribute type";
  EXPECT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id + 1}}), -EINVAL) << "no such GPU";
  EXPECT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, 0}}), -EINVAL) << "system memory is not a GPU";
  EXPECT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, proc.gpu_id + 1}}), -EINVAL);
  EXPECT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, KFD_IOCTL_SVM_LOCATION_UNDEFINED}}), -EINVAL)
      << "prefetch has no 'undefined'";
  // One bad attribute fails the call before any is applied.
  EXPECT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 3}, {KFD_IOCTL_SVM_ATTR_NO_ACCESS, 12345}}), -EINVAL);
  // More attributes than the command carries.
  std::vector<kfd_ioctl_svm_attribute> one = {{KFD_IOCTL_SVM_ATTR_GRANULARITY, 3}};
  EXPECT_EQ(svm(proc, KFD_IOCTL_SVM_OP_SET_ATTR, base, kPage, one, 1000), -EINVAL);
  expect_defaults(base, kPage);
  // GET_ATTR: NO_ACCESS and ACCESS_IN_PLACE are answers, not questions; ACCESS needs a GPU.
  std::vector<kfd_ioctl_svm_attribute> q = {{KFD_IOCTL_SVM_ATTR_NO_ACCESS, proc.gpu_id}};
  EXPECT_EQ(svm(proc, KFD_IOCTL_SVM_OP_GET_ATTR, base, kPage, q), -EINVAL);
  q = {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id + 1}};
  EXPECT_EQ(svm(proc, KFD_IOCTL_SVM_OP_GET_ATTR, base, kPage, q), -EINVAL);
}

TEST_F(SvmTest, KFD_SVM_3_SetThenGetRoundTrips) {
  expect_defaults(base, 4 * kPage);
  ASSERT_EQ(set(base, 4 * kPage,
                {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, proc.gpu_id},
                 {KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, KFD_IOCTL_SVM_LOCATION_SYSMEM},
                 {KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id},
                 {KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_EXEC},
                 {KFD_IOCTL_SVM_ATTR_CLR_FLAGS, KFD_IOCTL_SVM_FLAG_COHERENT},
                 {KFD_IOCTL_SVM_ATTR_GRANULARITY, 4}}),
            0);
  const auto a = get(base, 4 * kPage);
  EXPECT_EQ(a[0].value, proc.gpu_id);
  EXPECT_EQ(a[1].value, uint32_t(KFD_IOCTL_SVM_LOCATION_SYSMEM));
  EXPECT_EQ(a[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_ACCESS));
  const uint32_t flags = KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_GPU_EXEC;
  EXPECT_EQ(a[3].value, flags);
  EXPECT_EQ(a[4].value, ~flags);
  EXPECT_EQ(a[5].value, 4u);
  ASSERT_EQ(set(base, 4 * kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE, proc.gpu_id}, {KFD_IOCTL_SVM_ATTR_GRANULARITY, 200}}), 0);
  const auto b = get(base, 4 * kPage);
  EXPECT_EQ(b[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE));
  EXPECT_EQ(b[5].value, 0x3fu) << "granularity is capped at 0x3f";
  EXPECT_EQ(b[0].value, proc.gpu_id) << "attributes not named are kept";
}

TEST_F(SvmTest, KFD_SVM_4_SubRangesSplitAndMixedRangesReadAsTheDriverReports) {
  ASSERT_EQ(set(base, 4 * kPage, {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, proc.gpu_id}, {KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}}), 0);
  ASSERT_EQ(set(base + kPage, 2 * kPage,
                {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, KFD_IOCTL_SVM_LOCATION_SYSMEM},
                 {KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO},
                 {KFD_IOCTL_SVM_ATTR_GRANULARITY, 2},
                 {KFD_IOCTL_SVM_ATTR_NO_ACCESS, proc.gpu_id}}),
            0);
  auto head = get(base, kPage), mid = get(base + kPage, 2 * kPage), tail = get(base + 3 * kPage, kPage);
  EXPECT_EQ(head[0].value, proc.gpu_id);
  EXPECT_EQ(tail[0].value, proc.gpu_id);
  EXPECT_EQ(head[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_ACCESS));
  EXPECT_EQ(mid[0].value, uint32_t(KFD_IOCTL_SVM_LOCATION_SYSMEM));
  EXPECT_EQ(mid[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_NO_ACCESS));
  EXPECT_EQ(mid[5].value, 2u);
  const auto all = get(base, 4 * kPage);
  EXPECT_EQ(all[0].value, uint32_t(KFD_IOCTL_SVM_LOCATION_UNDEFINED)) << "mixed locations";
  EXPECT_EQ(all[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_NO_ACCESS)) << "access is what every range grants";
  EXPECT_EQ(all[3].value, kDefaultFlags) << "SET_FLAGS: flags every range has";
  EXPECT_EQ(all[4].value, ~(kDefaultFlags | KFD_IOCTL_SVM_FLAG_GPU_RO)) << "CLR_FLAGS: flags no range has";
  EXPECT_EQ(all[5].value, 2u) << "smallest granularity";
  // Undoing the middle makes the whole range uniform again.
  ASSERT_EQ(set(base + kPage, 2 * kPage,
                {{KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, proc.gpu_id},
                 {KFD_IOCTL_SVM_ATTR_CLR_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO},
                 {KFD_IOCTL_SVM_ATTR_GRANULARITY, 9},
                 {KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}}),
            0);
  const auto again = get(base, 4 * kPage);
  EXPECT_EQ(again[0].value, proc.gpu_id);
  EXPECT_EQ(again[2].type, uint32_t(KFD_IOCTL_SVM_ATTR_ACCESS));
  EXPECT_EQ(again[4].value, ~kDefaultFlags);
  // A range straddling a set range and untouched pages: the untouched pages do not count.
  const auto wide = get(base + 3 * kPage, 2 * kPage);
  EXPECT_EQ(wide[0].value, proc.gpu_id);
}

TEST_F(SvmTest, KFD_SVM_6_CapabilityAdvertisesTheSvmApi) {
  constexpr uint64_t kHsaCapSvmApiSupported = 0x08000000;  // amdkfd kfd_topology.h
  const auto props = properties(std::string(kTopology) + "/nodes/" + std::to_string(gpu_node()) + "/properties");
  EXPECT_NE(props.at("capability") & kHsaCapSvmApiSupported, 0u);
}

// An AQL barrier whose completion signal lives in an SVM range: ACCESS lets the GPU write
// it, NO_ACCESS (and GPU_RO for the write) makes the same write a VM fault.
struct SvmGpuTest : SvmTest {
  amd_signal_t* signal() { return reinterpret_cast<amd_signal_t*>(base); }
  void arm() {
    signal()->kind = AMD_SIGNAL_KIND_USER;
    plain(signal()->value) = 1;
  }
  bool completes() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::atomic_ref<int64_t>(plain(signal()->value)).load() != 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return std::atomic_ref<int64_t>(plain(signal()->value)).load() == 0;
  }
  uint64_t fault_va(uint32_t mem_event) {
    std::vector<kfd_event_data> d(1);
    d[0].event_id = mem_event;
    uint32_t result = 0;
    EXPECT_EQ(wait_events(proc, d, false, 10000, &result), 0);
    EXPECT_EQ(result, uint32_t(KFD_IOC_WAIT_RESULT_COMPLETE));
    return d[0].memory_exception_data.va;
  }
};

TEST_F(SvmGpuTest, KFD_SVM_5_AccessMapsTheRangeForTheGpu) {
  AqlQueue q;
  ASSERT_EQ(q.create(proc), 0);
  arm();
  ASSERT_EQ(set(base, 2 * kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}}), 0);
  q.submit_barrier(0, base);
  EXPECT_TRUE(completes()) << "the GPU wrote the signal through the SVM mapping";
  arm();
  ASSERT_EQ(set(base, 2 * kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE, proc.gpu_id}}), 0);
  q.submit_barrier(1, base);
  EXPECT_TRUE(completes()) << "ACCESS_IN_PLACE maps too";
}

TEST_F(SvmGpuTest, KFD_SVM_5_NoAccessUnmapsAndTheGpuFaults) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  AqlQueue q;
  ASSERT_EQ(q.create(proc), 0);
  arm();
  ASSERT_EQ(set(base, 2 * kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}}), 0);
  q.submit_barrier(0, base);
  ASSERT_TRUE(completes());  // the translation is now cached
  arm();
  ASSERT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_NO_ACCESS, proc.gpu_id}}), 0);
  q.submit_barrier(1, base);
  EXPECT_EQ(fault_va(mem.event_id), base);
  EXPECT_EQ(std::atomic_ref<int64_t>(plain(signal()->value)).load(), 1) << "no write through a stale translation";
}

TEST_F(SvmGpuTest, KFD_SVM_5_GpuReadOnlyRangeFaultsOnWrite) {
  kfd_ioctl_create_event_args mem{};
  ASSERT_EQ(create_event(proc, KFD_IOC_EVENT_MEMORY, false, &mem), 0);
  AqlQueue q;
  ASSERT_EQ(q.create(proc), 0);
  arm();
  ASSERT_EQ(set(base, kPage, {{KFD_IOCTL_SVM_ATTR_ACCESS, proc.gpu_id}, {KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO}}), 0);
  q.submit_barrier(0, base);
  EXPECT_EQ(fault_va(mem.event_id), base);
  EXPECT_EQ(std::atomic_ref<int64_t>(plain(signal()->value)).load(), 1);
}

}  // namespace
}  // namespace kfdconf
