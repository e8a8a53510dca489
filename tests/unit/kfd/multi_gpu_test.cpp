// tests/unit/kfd/multi_gpu_test.cpp - KFD-TOPO-8 and KFD-MEM-12: a machine of N GPUs (2 and 4
// here), its topology tree, the ioctls that name a GPU, and one GPU's VRAM mapped into another
// GPU's VM (peer access) read by that GPU's SDMA engine. The planted KfdMutant::PeerMapSkipped is
// caught.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpu/vm/pte.h"
#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"
#include "kfd/topology.h"

namespace rocref::kfd {
namespace {

// KfdDevice::mmap's address, or nullptr with the errno in *err (the shape these tests read).
void* mmap_or_null(KfdDevice& dev, void* addr, size_t length, int prot, int flags, int fd, off_t off, int* err) {
  auto r = dev.mmap(addr, length, prot, flags, fd, off);
  if (!r) {
    *err = r.error();
    return nullptr;
  }
  return *r;
}

constexpr const char* kRoot = "/sys/devices/virtual/kfd/kfd/topology/nodes/";
constexpr uint64_t kPage = 4096;

std::map<std::string, uint64_t> props(const Topology& t, const std::string& rel) {
  std::map<std::string, uint64_t> out;
  const auto text = t.read(kRoot + rel);
  if (!text) return out;
  std::istringstream in(*text);
  std::string k;
  uint64_t v;
  while (in >> k >> v) out[k] = v;
  return out;
}

size_t entries(const Topology& t, const std::string& rel) {
  const auto l = t.list(kRoot + rel);
  return l ? l->size() : 0;
}

// KFD-TOPO-8 with KFD-TOPO-2's consistency: N GPU nodes, distinct identities, a PCIe link from
// the CPU to each, p2p links between every pair of GPUs, every link answered by one back.
void check_machine(uint32_t n) {
  SCOPED_TRACE("gpus " + std::to_string(n));
  const Topology t(machine_gpus(n));
  ASSERT_EQ(t.gpu_count(), n);
  ASSERT_EQ(entries(t, ""), n + 1) << "node 0 the CPU, then one node per GPU";
  std::set<uint64_t> ids, minors, locations, simd_bases;
  std::set<std::pair<uint64_t, uint64_t>> links;  // (from, to) of every io_link and p2p_link
  for (uint32_t node = 0; node <= n; ++node) {
    const std::string dir = std::to_string(node);
    auto p = props(t, dir + "/properties");
    const uint64_t io = p.at("io_links_count"), p2p = p.at("p2p_links_count");
    EXPECT_EQ(io, entries(t, dir + "/io_links"));
    EXPECT_EQ(p2p, entries(t, dir + "/p2p_links"));
    EXPECT_EQ(p.at("mem_banks_count"), entries(t, dir + "/mem_banks"));
    EXPECT_EQ(p.at("caches_count"), entries(t, dir + "/caches"));
    for (uint64_t l = 0; l < io + p2p; ++l) {
      const std::string rel =
          l < io ? dir + "/io_links/" + std::to_string(l) : dir + "/p2p_links/" + std::to_string(l - io);
      auto lp = props(t, rel + "/properties");
      EXPECT_EQ(lp.at("node_from"), node);
      EXPECT_LE(lp.at("node_to"), n);
      EXPECT_NE(lp.at("node_to"), node);
      EXPECT_EQ(lp.at("type"), kIoLinkTypePcie);
      EXPECT_TRUE(links.insert({node, lp.at("node_to")}).second) << "one link per pair and direction";
      const bool peer = node != 0 && lp.at("node_to") != 0;
      EXPECT_EQ(l >= io, peer) << "GPU<->GPU links are p2p_links, links to the CPU io_links";
      EXPECT_EQ(lp.at("weight"), peer ? kPeerLinkWeight : kPcieLinkWeight);
      if (peer) {
        EXPECT_EQ(lp.at("flags"), kIoLinkEnabled | kIoLinkNoAtomics32 | kIoLinkNoAtomics64);
      }
    }
    if (node == 0) {
      EXPECT_EQ(io, n);
      EXPECT_EQ(p2p, 0u);
      continue;
    }
    EXPECT_EQ(io, 1u);
    EXPECT_EQ(p2p, n - 1);
    const uint64_t id = std::stoull(*t.read(std::string(kRoot) + dir + "/gpu_id"));
    EXPECT_NE(id, 0u);
    EXPECT_LT(id, 0x10000u) << "a 16-bit hash";
    EXPECT_TRUE(ids.insert(id).second);
    EXPECT_TRUE(minors.insert(p.at("drm_render_minor")).second);
    EXPECT_TRUE(locations.insert(p.at("location_id")).second);
    EXPECT_TRUE(simd_bases.insert(p.at("simd_id_base")).second);
    EXPECT_EQ(p.at("drm_render_minor"), 127 + node);
    EXPECT_EQ(t.gpu_index(static_cast<uint32_t>(id)), node - 1);
    EXPECT_EQ(props(t, dir + "/caches/0/properties").at("processor_id_low"), p.at("simd_id_base"));
  }
  EXPECT_EQ(links.size(), size_t{n} * 2 + size_t{n} * (n - 1));
  for (const auto& [from, to] : links) EXPECT_TRUE(links.count({to, from})) << from << "->" << to << " has no way back";
  EXPECT_FALSE(t.gpu_index(0).has_value());
}

TEST(MultiGpuTopology, KFD_TOPO_8_NodesPerGpuAndPeerLinks) {
  check_machine(1);
  check_machine(2);
  check_machine(4);
  // GPU 0 of any machine is the one-GPU machine's GPU.
  EXPECT_EQ(machine_gpus(4)[0].gpu_id, GpuDescription{}.gpu_id);
  EXPECT_EQ(Topology(machine_gpus(1)).read(std::string(kRoot) + "1/properties"),
            Topology(GpuDescription{}).read(std::string(kRoot) + "1/properties"));
}

TEST(MultiGpuTopology, KFD_TOPO_8_GpuCountFromTheEnvironment) {
  const char* saved = std::getenv("ROCREF_GPUS");
  const std::string keep = saved ? saved : "";
  ::unsetenv("ROCREF_GPUS");
  EXPECT_EQ(KfdDevice::configured_gpu_count(), 1u);
  for (const auto& [value, want] : std::vector<std::pair<const char*, uint32_t>>{{"2", 2},
                                                                                 {"4", 4},
                                                                                 {"8", 8},
                                                                                 {"0", 1},
                                                                                 {"9", 1},
                                                                                 {"2x", 1},
                                                                                 {"", 1}}) {
    ::setenv("ROCREF_GPUS", value, 1);
    EXPECT_EQ(KfdDevice::configured_gpu_count(), want) << value;
  }
  if (saved) ::setenv("ROCREF_GPUS", keep.c_str(), 1);
  else ::unsetenv("ROCREF_GPUS");
}

// One open of /dev/kfd on a machine of several GPUs, with a render node and a VM on each.
struct MultiProcess {
  KfdDevice& dev;
  int fd = -1;
  std::vector<int> render;
  std::vector<uint32_t> ids;

  explicit MultiProcess(KfdDevice& d) : dev(d) {}
  ~MultiProcess() {
    if (fd >= 0) dev.close(fd);
    for (int r : render) dev.close(r);
  }
  int io(unsigned long req, void* arg) const { return dev.ioctl(fd, req, arg); }
  void open() {
    fd = dev.open_kfd();
    ASSERT_GE(fd, 0);
    for (uint32_t i = 0; i < dev.gpu_count(); ++i) {
      const auto id = dev.read_sysfs(std::string(kRoot) + std::to_string(i + 1) + "/gpu_id");
      ASSERT_TRUE(id.has_value());
      ids.push_back(static_cast<uint32_t>(std::stoul(*id)));
      render.push_back(dev.open_render(128 + i));
      ASSERT_GE(render.back(), 0);
    }
  }
  void acquire_all() {
    for (uint32_t i = 0; i < ids.size(); ++i) {
      kfd_ioctl_acquire_vm_args vm{static_cast<uint32_t>(render[i]), ids[i]};
      ASSERT_EQ(io(AMDKFD_IOC_ACQUIRE_VM, &vm), 0) << "GPU " << i;
    }
  }
  int alloc(uint32_t gpu_id, uint32_t flags, uint64_t size, uint64_t va, uint64_t* handle, uint64_t* offset,
            uint64_t user = 0) const {
    kfd_ioctl_alloc_memory_of_gpu_args a{};
    a.va_addr = va;
    a.size = size;
    a.gpu_id = gpu_id;
    a.flags = flags;
    a.mmap_offset = user;
    const int r = io(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
    *handle = a.handle;
    if (offset) *offset = a.mmap_offset;
    return r;
  }
  int map(uint64_t handle, std::vector<uint32_t> devices, uint32_t* n_success = nullptr) const {
    kfd_ioctl_map_memory_to_gpu_args a{handle, reinterpret_cast<uintptr_t>(devices.data()),
                                       static_cast<uint32_t>(devices.size()), 0};
    const int r = io(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a);
    if (n_success) *n_success = a.n_success;
    return r;
  }
  uint64_t available(uint32_t gpu_id) const {
    kfd_ioctl_get_available_memory_args a{};
    a.gpu_id = gpu_id;
    return io(AMDKFD_IOC_AVAILABLE_MEMORY, &a) == 0 ? a.available : 0;
  }
};

uint64_t reserve_va(uint64_t size) {
  void* p = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? 0 : reinterpret_cast<uintptr_t>(p);
}

uint32_t unknown_gpu_id(const std::vector<uint32_t>& ids) {
  uint32_t id = 1;
  while (std::find(ids.begin(), ids.end(), id) != ids.end()) ++id;
  return id;
}

void check_ioctls(uint32_t n) {
  SCOPED_TRACE("gpus " + std::to_string(n));
  KfdDevice dev(n);
  ASSERT_EQ(dev.gpu_count(), n);
  EXPECT_EQ(dev.open_render(128 + n), -ENOENT) << "one render node per GPU, no more";
  MultiProcess p(dev);
  ASSERT_NO_FATAL_FAILURE(p.open());
  const uint32_t bad = unknown_gpu_id(p.ids);

  // ACQUIRE_VM: each GPU's VM from its own render node; another GPU's node or an unknown id: -EINVAL.
  kfd_ioctl_acquire_vm_args cross{static_cast<uint32_t>(p.render[0]), p.ids[1]};
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &cross), -EINVAL);
  kfd_ioctl_acquire_vm_args unknown{static_cast<uint32_t>(p.render[0]), bad};
  EXPECT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &unknown), -EINVAL);
  // Before GPU 1's VM exists, GPU 1 refuses what needs it while GPU 0 works.
  kfd_ioctl_acquire_vm_args vm0{static_cast<uint32_t>(p.render[0]), p.ids[0]};
  ASSERT_EQ(p.io(AMDKFD_IOC_ACQUIRE_VM, &vm0), 0);
  kfd_ioctl_set_memory_policy_args policy{};
  policy.default_policy = policy.alternate_policy = KFD_IOC_CACHE_POLICY_COHERENT;
  policy.gpu_id = p.ids[1];
  EXPECT_EQ(p.io(AMDKFD_IOC_SET_MEMORY_POLICY, &policy), -ESRCH);
  policy.gpu_id = p.ids[0];
  EXPECT_EQ(p.io(AMDKFD_IOC_SET_MEMORY_POLICY, &policy), 0);
  uint64_t h = 0;
  EXPECT_EQ(p.alloc(p.ids[1], KFD_IOC_ALLOC_MEM_FLAGS_VRAM, kPage, reserve_va(kPage), &h, nullptr), -ENODEV);
  ASSERT_NO_FATAL_FAILURE(p.acquire_all());

  // GET_PROCESS_APERTURES_NEW: one entry per GPU, each with its gpu_id.
  kfd_ioctl_get_process_apertures_new_args ap{};
  ASSERT_EQ(p.io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap), 0);
  ASSERT_EQ(ap.num_of_nodes, n);
  std::vector<kfd_process_device_apertures> pa(n);
  ap.kfd_process_device_apertures_ptr = reinterpret_cast<uintptr_t>(pa.data());
  ASSERT_EQ(p.io(AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &ap), 0);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(pa[i].gpu_id, p.ids[i]);
  kfd_ioctl_get_process_apertures_args old{};
  ASSERT_EQ(p.io(AMDKFD_IOC_GET_PROCESS_APERTURES, &old), 0);
  EXPECT_EQ(old.num_of_nodes, n);

  // Clock counters: every GPU counts; an unknown id reads 0.
  for (uint32_t id : {p.ids[n - 1], bad}) {
    kfd_ioctl_get_clock_counters_args clk{};
    clk.gpu_id = id;
    ASSERT_EQ(p.io(AMDKFD_IOC_GET_CLOCK_COUNTERS, &clk), 0);
    EXPECT_EQ(clk.gpu_clock_counter != 0, id != bad);
  }
  kfd_ioctl_smi_events_args smi{};
  smi.gpuid = bad;
  EXPECT_EQ(p.io(AMDKFD_IOC_SMI_EVENTS, &smi), -EINVAL);
  policy.gpu_id = bad;
  EXPECT_EQ(p.io(AMDKFD_IOC_SET_MEMORY_POLICY, &policy), -EINVAL);
  EXPECT_EQ(p.alloc(bad, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, kPage, reserve_va(kPage), &h, nullptr), -EINVAL);

  // VRAM is per GPU: an allocation on the last GPU takes only its budget; the handle names it.
  const uint32_t last = p.ids[n - 1];
  const uint64_t before0 = p.available(p.ids[0]), before_last = p.available(last);
  ASSERT_GT(before0, 0u);
  const uint64_t va = reserve_va(16 * kPage);
  ASSERT_EQ(p.alloc(last, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, 16 * kPage, va, &h, nullptr),
            0);
  EXPECT_EQ(h >> 32, last);
  EXPECT_EQ(p.available(p.ids[0]), before0);
  EXPECT_EQ(p.available(last), before_last - 16 * kPage);
  // MAP with an unknown id in the list: -EINVAL, the devices before it done (n_success).
  uint32_t done = 0;
  EXPECT_EQ(p.map(h, {last, p.ids[0], bad}, &done), -EINVAL);
  EXPECT_EQ(done, 2u);
  // A handle whose gpu_id names another GPU than the buffer's is no handle.
  kfd_ioctl_free_memory_of_gpu_args wrong{(uint64_t{p.ids[0] == last ? p.ids[1] : p.ids[0]} << 32) | (h & 0xffffffffu)};
  EXPECT_EQ(p.io(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &wrong), -EINVAL);

  // CREATE_QUEUE on each GPU: doorbell offsets carry that GPU's id; an unknown id: -EINVAL.
  const uint64_t ring = reserve_va(4 * kPage);
  ASSERT_EQ(::mprotect(reinterpret_cast<void*>(ring), 4 * kPage, PROT_READ | PROT_WRITE), 0);
  for (uint32_t id : {p.ids[0], last, bad}) {
    kfd_ioctl_create_queue_args q{};
    q.ring_base_address = ring;
    q.ring_size = 4096;
    q.read_pointer_address = ring + kPage;
    q.write_pointer_address = ring + kPage + 64;
    q.gpu_id = id;
    q.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    q.queue_percentage = 100;
    const int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &q);
    if (id == bad) {
      EXPECT_EQ(r, -EINVAL);
      continue;
    }
    ASSERT_EQ(r, 0);
    EXPECT_EQ((q.doorbell_offset >> 46) & 0xffff, id);
    int err = 0;
    void* page = mmap_or_null(dev, nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                              static_cast<off_t>(q.doorbell_offset & ~uint64_t{8191}), &err);
    EXPECT_NE(page, nullptr) << err;
    if (page) dev.munmap(page, 8192);
    kfd_ioctl_destroy_queue_args d{q.queue_id, 0};
    EXPECT_EQ(p.io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
  }
  int err = 0;
  EXPECT_EQ(mmap_or_null(dev, nullptr, 8192, PROT_READ, MAP_SHARED, p.fd,
                         static_cast<off_t>((uint64_t{3} << 62) | (uint64_t{bad} << 46)), &err),
            nullptr);
  EXPECT_EQ(err, -ENODEV);
}

TEST(MultiGpuKfd, KFD_TOPO_8_IoctlsPerGpu) {
  check_ioctls(2);
  check_ioctls(4);
}

// An SDMA queue of one GPU, its ring, pointers and a destination in USERPTR memory of that GPU.
struct PeerSdma {
  uint8_t* mem = nullptr;  // [0, 4K) ring, [4K) rptr, [4K + 64) wptr, [8K, 12K) destination, [12K) fence
  uint64_t* doorbell = nullptr;
  uint64_t wptr = 0;
  void* page = nullptr;

  int create(MultiProcess& p, uint32_t gpu) {
    void* m = ::mmap(nullptr, 4 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -ENOMEM;
    mem = static_cast<uint8_t*>(m);
    std::memset(mem, 0, 4 * kPage);
    const uint64_t va = reinterpret_cast<uintptr_t>(mem);
    uint64_t h = 0;
    const uint32_t f = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
    if (int r = p.alloc(p.ids[gpu], f, 4 * kPage, va, &h, nullptr, va)) return r;
    if (int r = p.map(h, {p.ids[gpu]})) return r;
    kfd_ioctl_create_queue_args q{};
    q.ring_base_address = va;
    q.ring_size = 4096;
    q.read_pointer_address = va + kPage;
    q.write_pointer_address = va + kPage + 64;
    q.gpu_id = p.ids[gpu];
    q.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
    q.queue_percentage = 100;
    if (int r = p.io(AMDKFD_IOC_CREATE_QUEUE, &q)) return r;
    int err = 0;
    page = mmap_or_null(p.dev, nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                        static_cast<off_t>(q.doorbell_offset & ~uint64_t{8191}), &err);
    if (!page) return err;
    doorbell = reinterpret_cast<uint64_t*>(static_cast<uint8_t*>(page) + (q.doorbell_offset & 8191));
    return 0;
  }
  // COPY_LINEAR `bytes` from src to the destination, then FENCE 1.
  void copy(uint64_t src, uint32_t bytes) {
    const uint64_t dst = reinterpret_cast<uintptr_t>(mem) + 2 * kPage, fence = dst + kPage;
    const uint32_t dws[] = {1,
                            bytes - 1,
                            0,
                            uint32_t(src),
                            uint32_t(src >> 32),
                            uint32_t(dst),
                            uint32_t(dst >> 32),
                            5,
                            uint32_t(fence),
                            uint32_t(fence >> 32),
                            1};
    for (uint32_t d : dws) {
      reinterpret_cast<uint32_t*>(mem)[(wptr / 4) % 1024] = d;
      wptr += 4;
    }
    std::atomic_ref<uint64_t>(*doorbell).store(wptr, std::memory_order_release);
  }
  uint8_t* destination() const { return mem + 2 * kPage; }
  uint32_t fence() const { return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(mem + 3 * kPage)).load(); }
};

// Waits until the copy's fence lands or the process's memory event reports a fault; true on the fence.
bool copy_completes(MultiProcess& p, const PeerSdma& q, uint32_t memory_event, uint32_t* fault_gpu,
                    uint64_t* fault_va) {
  for (int i = 0; i < 20000; ++i) {
    if (q.fence() == 1) return true;
    kfd_event_data ev{};
    ev.event_id = memory_event;
    kfd_ioctl_wait_events_args w{reinterpret_cast<uintptr_t>(&ev), 1, 0, 1, 0};
    if (p.io(AMDKFD_IOC_WAIT_EVENTS, &w) == 0 && w.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE) {
      *fault_gpu = ev.memory_exception_data.gpu_id;
      *fault_va = ev.memory_exception_data.va;
      return false;
    }
  }
  return false;
}

// KFD-MEM-12 on a machine of n GPUs: GPU 0's VRAM, written by the CPU, is absent from the last
// GPU's VM (its SDMA read faults there, reported with that GPU's id) until MAP_MEMORY_TO_GPU
// names that GPU; then the last GPU's SDMA engine reads the bytes. True when all of it holds.
bool peer_vram_reads(uint32_t n) {
  KfdDevice dev(n);
  MultiProcess p(dev);
  p.open();
  p.acquire_all();
  if (::testing::Test::HasFatalFailure()) return false;
  const uint32_t peer = n - 1;
  kfd_ioctl_create_event_args mem_ev{};
  mem_ev.event_type = KFD_IOC_EVENT_MEMORY;
  mem_ev.auto_reset = 1;  // each fault wakes one wait
  EXPECT_EQ(p.io(AMDKFD_IOC_CREATE_EVENT, &mem_ev), 0);
  const uint64_t va = reserve_va(kPage);
  uint64_t h = 0, off = 0;
  EXPECT_EQ(p.alloc(p.ids[0], KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, kPage, va, &h, &off), 0);
  EXPECT_EQ(p.map(h, {p.ids[0]}), 0);
  int err = 0;
  auto* cpu = static_cast<uint8_t*>(mmap_or_null(dev, reinterpret_cast<void*>(va), kPage, PROT_READ | PROT_WRITE,
                                                 MAP_SHARED | MAP_FIXED, p.render[0], static_cast<off_t>(off), &err));
  if (cpu == nullptr) return false;
  for (uint32_t i = 0; i < 256; ++i) cpu[i] = static_cast<uint8_t>(i * 7 + 3);

  PeerSdma unmapped, mapped;
  EXPECT_EQ(unmapped.create(p, peer), 0);
  unmapped.copy(va, 256);
  uint32_t fault_gpu = 0;
  uint64_t fault_va = 0;
  const bool read_before_map = copy_completes(p, unmapped, mem_ev.event_id, &fault_gpu, &fault_va);
  EXPECT_FALSE(read_before_map) << "GPU 0's buffer is not in GPU " << peer << "'s VM before it is mapped there";
  EXPECT_EQ(fault_gpu, p.ids[peer]);
  EXPECT_EQ(fault_va, va);

  uint32_t done = 0;
  EXPECT_EQ(p.map(h, {p.ids[0], p.ids[peer]}, &done), 0);  // already on GPU 0: nothing to do there
  EXPECT_EQ(done, 2u);
  EXPECT_EQ(mapped.create(p, peer), 0);
  mapped.copy(va, 256);
  if (!copy_completes(p, mapped, mem_ev.event_id, &fault_gpu, &fault_va)) return false;
  for (uint32_t i = 0; i < 256; ++i)
    if (mapped.destination()[i] != static_cast<uint8_t>(i * 7 + 3)) return false;
  // The peer reaches the owner's VRAM over PCIe: a SYSTEM PTE there, a local one on the owner.
  EXPECT_NE(dev.gpuvm_pte(va, peer) & gpu::vm::kPteSystem, 0u);
  EXPECT_EQ(dev.gpuvm_pte(va, 0) & gpu::vm::kPteSystem, 0u);
  // Unmapping from GPU 0 leaves the peer's mapping; a buffer still mapped cannot be freed.
  uint32_t owner[1] = {p.ids[0]};
  kfd_ioctl_unmap_memory_from_gpu_args un{h, reinterpret_cast<uintptr_t>(owner), 1, 0};
  EXPECT_EQ(p.io(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &un), 0);
  EXPECT_EQ(dev.gpuvm_pte(va, 0) & gpu::vm::kPteValid, 0u);
  EXPECT_NE(dev.gpuvm_pte(va, peer) & gpu::vm::kPteValid, 0u);
  kfd_ioctl_free_memory_of_gpu_args fr{h};
  EXPECT_EQ(p.io(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), -EBUSY);
  return !read_before_map;
}

TEST(MultiGpuKfd, KFD_MEM_12_PeerVramReadableBySdma) {
  EXPECT_TRUE(peer_vram_reads(2));
  EXPECT_TRUE(peer_vram_reads(4));
}

// The failures `check` reports for a machine of n GPUs, intercepted (the planted-bug runs).
size_t failures_of(void (*check)(uint32_t), uint32_t n) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    check(n);
  }
  return static_cast<size_t>(results.size());
}

TEST(MultiGpuKfdMutant, PeerLinkOneWayIsCaught) {
  EXPECT_EQ(failures_of(check_machine, 2), 0u);
  set_kfd_mutant(KfdMutant::PeerLinkOneWay, true);
  const size_t failures = failures_of(check_machine, 2);
  set_kfd_mutant(KfdMutant::PeerLinkOneWay, false);
  EXPECT_GT(failures, 0u);
}

TEST(MultiGpuKfdMutant, AllocIgnoresGpuIdIsCaught) {
  set_kfd_mutant(KfdMutant::AllocIgnoresGpuId, true);
  const size_t failures = failures_of(check_ioctls, 2);
  set_kfd_mutant(KfdMutant::AllocIgnoresGpuId, false);
  EXPECT_GT(failures, 0u);
}

TEST(MultiGpuKfdMutant, PeerMapSkippedIsCaught) {
  set_kfd_mutant(KfdMutant::PeerMapSkipped, true);
  const bool reads = peer_vram_reads(2);
  set_kfd_mutant(KfdMutant::PeerMapSkipped, false);
  EXPECT_FALSE(reads) << "the planted bug leaves GPU 1's VM without the buffer";
}

}  // namespace
}  // namespace rocref::kfd
