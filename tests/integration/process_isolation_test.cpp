// tests/integration/process_isolation_test.cpp - two opens of the KFD cannot reach each other.
//
// Process A is the thunk (hsakmt.h); process B is a second open of the same KFD
// through the raw ioctl ABI. B tries A's buffer handles, queue ids and event ids
// and maps its own doorbell page; A's objects must be untouched and keep working.
#include <hsa/amd_hsa_signal.h>
#include <hsakmt.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aql_queue_harness.h"
#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "thunk/key_values.h"
#include "thunk/transport.h"

namespace rocref::integration {
namespace {

constexpr const char* kNodes = "/sys/devices/virtual/kfd/kfd/topology/nodes/";

// A bare second process: its own /dev/kfd and render node, VM acquired.
struct RawProcess {
  std::unique_ptr<thunk::Transport> t = thunk::make_in_process_transport();
  int kfd = -1;
  int render = -1;
  uint32_t gpu_id = 0;

  bool open(uint32_t node) {
    kfd = t->open_kfd();
    const auto id = t->read_file(std::string(kNodes) + std::to_string(node) + "/gpu_id");
    const auto props = t->read_file(std::string(kNodes) + std::to_string(node) + "/properties");
    uint64_t v = 0;
    if (kfd < 0 || !id || !props || !thunk::parse_u64(*id, &v)) return false;
    gpu_id = static_cast<uint32_t>(v);
    render = t->open_render(static_cast<uint32_t>(thunk::KeyValues::parse(*props).get("drm_render_minor")));
    kfd_process_device_apertures ap[4] = {};
    kfd_ioctl_get_process_apertures_new_args aps{};
    aps.kfd_process_device_apertures_ptr = reinterpret_cast<uintptr_t>(ap);
    aps.num_of_nodes = 4;
    kfd_ioctl_acquire_vm_args vm{};
    vm.drm_fd = static_cast<uint32_t>(render);
    vm.gpu_id = gpu_id;
    return render >= 0 && t->ioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &aps) == 0 &&
           t->ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) == 0;
  }
  ~RawProcess() {
    if (render >= 0) t->close(render);
    if (kfd >= 0) t->close(kfd);
  }
};

class ProcessIsolation : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
    HsaSystemProperties sys{};
    ASSERT_EQ(hsaKmtAcquireSystemProperties(&sys), HSAKMT_STATUS_SUCCESS);
    gpu_ = find_gpu_node(sys);
    ASSERT_LT(gpu_, sys.NumNodes);
    ASSERT_TRUE(b_.open(gpu_)) << "second open of the KFD";
  }
  void TearDown() override {
    hsaKmtReleaseSystemProperties();
    hsaKmtCloseKFD();
  }
  uint32_t gpu_ = 0;
  RawProcess b_;
};

TEST_F(ProcessIsolation, ISO_1_OtherProcessCannotMapOrFreeOurBuffers) {
  HsaMemFlags vram{};
  vram.ui32.NonPaged = 1;
  vram.ui32.HostAccess = 1;
  void* mem = nullptr;
  ASSERT_EQ(hsaKmtAllocMemory(gpu_, 1 << 16, vram, &mem), HSAKMT_STATUS_SUCCESS);
  std::memset(mem, 0x5c, 1 << 16);
  // B owns no buffer: every handle A could have (gpu_id << 32 | small id) must be refused.
  for (uint64_t idr = 0; idr < 64; ++idr) {
    const uint64_t handle = (uint64_t{b_.gpu_id} << 32) | idr;
    kfd_ioctl_map_memory_to_gpu_args map{};
    map.handle = handle;
    map.device_ids_array_ptr = reinterpret_cast<uintptr_t>(&b_.gpu_id);
    map.n_devices = 1;
    EXPECT_NE(b_.t->ioctl(b_.kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map), 0) << "handle " << idr;
    kfd_ioctl_free_memory_of_gpu_args fr{};
    fr.handle = handle;
    EXPECT_NE(b_.t->ioctl(b_.kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), 0) << "handle " << idr;
  }
  EXPECT_EQ(static_cast<uint8_t*>(mem)[12345], 0x5c);
  EXPECT_EQ(hsaKmtMapMemoryToGPU(mem, 1 << 16, nullptr), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
  EXPECT_EQ(hsaKmtFreeMemory(mem, 1 << 16), HSAKMT_STATUS_SUCCESS) << "A's buffer is still A's";
}

TEST_F(ProcessIsolation, ISO_2_OtherProcessCannotSignalOrWaitOurEvents) {
  HsaEventDescriptor d{};
  d.EventType = HSA_EVENTTYPE_SIGNAL;
  HsaEvent* e = nullptr;
  ASSERT_EQ(hsaKmtCreateEvent(&d, true, false, &e), HSAKMT_STATUS_SUCCESS);
  kfd_ioctl_set_event_args set{};
  set.event_id = e->EventId;
  EXPECT_EQ(b_.t->ioctl(b_.kfd, AMDKFD_IOC_SET_EVENT, &set), -EINVAL);
  kfd_event_data data{};
  data.event_id = e->EventId;
  kfd_ioctl_wait_events_args wait{};
  wait.events_ptr = reinterpret_cast<uintptr_t>(&data);
  wait.num_events = 1;
  wait.wait_for_all = 1;
  EXPECT_EQ(b_.t->ioctl(b_.kfd, AMDKFD_IOC_WAIT_EVENTS, &wait), -EINVAL);
  EXPECT_EQ(hsaKmtWaitOnEvent(e, 10), HSAKMT_STATUS_WAIT_TIMEOUT) << "B's SET_EVENT did not reach A";
  EXPECT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_SUCCESS);
}

TEST_F(ProcessIsolation, ISO_3_DoorbellPagesAreSeparateAndQueuesSurvive) {
  AqlQueueHarness a(gpu_);
  ASSERT_TRUE(a.ok()) << a.error();
  // B's own queue, doorbell page mapped through B's descriptor.
  alignas(4096) static uint8_t ring[4096];
  static uint64_t rptr, wptr;
  kfd_ioctl_create_queue_args cq{};
  cq.gpu_id = b_.gpu_id;
  cq.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
  cq.ring_base_address = reinterpret_cast<uintptr_t>(ring);
  cq.ring_size = sizeof ring;
  cq.read_pointer_address = reinterpret_cast<uintptr_t>(&rptr);
  cq.write_pointer_address = reinterpret_cast<uintptr_t>(&wptr);
  cq.queue_percentage = 100;
  cq.queue_priority = 7;
  ASSERT_EQ(b_.t->ioctl(b_.kfd, AMDKFD_IOC_CREATE_QUEUE, &cq), 0);
  const auto mapped = b_.t->mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, b_.kfd,
                                 static_cast<off_t>(cq.doorbell_offset & ~uint64_t{8191}));
  ASSERT_TRUE(mapped.has_value()) << "errno " << mapped.error();
  void* page = *mapped;
  ASSERT_NE(page, nullptr);
  auto* a_page = reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(a.resource().Queue_DoorBell_aql) &
                                            ~uintptr_t{8191});
  EXPECT_NE(page, a_page);
  const uint64_t before = std::atomic_ref<uint64_t>(*a.resource().Queue_DoorBell_aql).load();
  auto* b_words = static_cast<uint64_t*>(page);
  for (int i = 0; i < 1024; ++i) std::atomic_ref<uint64_t>(b_words[i]).store(0xbadbadbad);
  EXPECT_EQ(std::atomic_ref<uint64_t>(*a.resource().Queue_DoorBell_aql).load(), before)
      << "B's doorbell stores never reach A's doorbell page";
  // B tries to destroy every queue id A could have: A's queue keeps working.
  for (uint32_t id = 0; id < 64; ++id) {
    if (id == cq.queue_id) continue;
    kfd_ioctl_destroy_queue_args dq{};
    dq.queue_id = id;
    EXPECT_NE(b_.t->ioctl(b_.kfd, AMDKFD_IOC_DESTROY_QUEUE, &dq), 0) << "queue " << id;
  }
  a.completion()->value = 1;
  hsa_barrier_and_packet_t packet{};
  packet.header = aql::make_header(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_SYSTEM,
                                   HSA_FENCE_SCOPE_SYSTEM);
  packet.completion_signal.handle = reinterpret_cast<uintptr_t>(a.completion());
  aql::QueueRing(a.queue()).submit(&packet);
  EXPECT_EQ(hsaKmtWaitOnEvent(a.event(), 5000), HSAKMT_STATUS_SUCCESS);
  b_.t->munmap(page, 8192);
  kfd_ioctl_destroy_queue_args dq{};
  dq.queue_id = cq.queue_id;
  EXPECT_EQ(b_.t->ioctl(b_.kfd, AMDKFD_IOC_DESTROY_QUEUE, &dq), 0);
}

}  // namespace
}  // namespace rocref::integration
