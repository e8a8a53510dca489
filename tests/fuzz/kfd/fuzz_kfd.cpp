// tests/fuzz/kfd/fuzz_kfd.cpp - libFuzzer harness for the KFD ioctl table (src/kfd, spec/kfd.md).
//
// Structured: the input picks a starting state (prologue) and a program of up to 48 operations on two KFD processes (two opens of
// /dev/kfd, each with its render node and VM): memory (USERPTR over harness pages, VRAM, GTT,
// doorbell, MMIO; map, unmap, free, with handles of either process), queues (AQL, SDMA, PM4
// compute; rings and pointers anywhere), submissions through the doorbell page, events
// (create, set, reset, wait, destroy), page attacks on the harness's own pages (read-only,
// no access, restored), raw ioctls of any number and size, and close-and-reopen of a process
// with everything still live. Every pointer an ioctl gets is one of: valid, read-only,
// unmapped, misaligned, huge/non-canonical, null, or stale (a page the program has since made
// inaccessible). At the end both processes are closed with whatever is still live.
// The model must answer with the real errno, never crash, never report under ASan/UBSan.
#include <fuzzer/FuzzedDataProvider.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <linux/kfd_ioctl.h>
#include <sys/mman.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kfd/kfd_device.h"

namespace {

using rocref::kfd::KfdDevice;

constexpr uint64_t kPage = 4096;
constexpr size_t kArenaPages = 32;  // harness pages: rings, pointers, USERPTR memory, data
constexpr size_t kRoPage = 30;      // read-only in every iteration
constexpr size_t kNonePage = 31;    // no access in every iteration
constexpr size_t kVramPages = 64;   // reserved VA for VRAM/GTT buffers

enum Perm : uint8_t { kRw, kRo, kNone };

struct Arena {
  uint8_t* base = nullptr;
  uint8_t* vram = nullptr;
  uint32_t gpu_id = 0;
  uint32_t render_minor = 128;
  Arena() {
    base = static_cast<uint8_t*>(::mmap(nullptr, kArenaPages * kPage, PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    vram = static_cast<uint8_t*>(
        ::mmap(nullptr, kVramPages * kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    const std::string topo = "/sys/devices/virtual/kfd/kfd/topology/nodes/";
    for (int n = 0; n < 8; ++n) {
      const auto id = KfdDevice::instance().read_sysfs(topo + std::to_string(n) + "/gpu_id");
      if (!id) break;
      if (std::stoul(*id) == 0) continue;
      gpu_id = static_cast<uint32_t>(std::stoul(*id));
      std::istringstream props(KfdDevice::instance().read_sysfs(topo + std::to_string(n) + "/properties").value_or(""));
      std::string key;
      uint64_t value;
      while (props >> key >> value) {
        if (key == "drm_render_minor") render_minor = static_cast<uint32_t>(value);
      }
      break;
    }
  }
  // Every iteration starts from zeroed read-write pages (one fixed mapping: the addresses stay
  // the harness's, so nothing else can be placed there between iterations).
  void reset(std::array<Perm, kArenaPages>& perm) {
    ::mmap(base, kArenaPages * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    perm.fill(kRw);
    set(perm, kRoPage, kRo);
    set(perm, kNonePage, kNone);
  }
  void set(std::array<Perm, kArenaPages>& perm, size_t page, Perm p) {
    perm[page] = p;
    if (p == kNone) {  // "unmapped": a fresh inaccessible mapping, so the address stays ours
      ::mmap(base + page * kPage, kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    } else {
      ::mprotect(base + page * kPage, kPage, p == kRo ? PROT_READ : PROT_READ | PROT_WRITE);
    }
  }
  uint64_t va(size_t page, uint64_t off = 0) const { return reinterpret_cast<uintptr_t>(base) + page * kPage + off; }
};

Arena& arena() {
  static Arena a;
  return a;
}

struct Proc {
  int fd = -1, render = -1;
  uint64_t* doorbells = nullptr;  // the process's doorbell page, mapped on first submit
};

struct Bo {
  int proc;
  uint64_t handle;
  uint64_t first_page, pages;  // USERPTR: the harness pages backing it (pages = 0 otherwise)
};

struct Queue {
  int proc;
  uint32_t id, type;
  uint64_t ring, ring_size, rptr, wptr, doorbell_offset;
  uint64_t produced = 0;  // bytes (SDMA) or packets (AQL) written so far
  std::vector<size_t> pages;  // harness pages the queue's addresses live in
};

struct Program {
  FuzzedDataProvider& in;
  std::array<Proc, 2> procs{};
  std::array<Perm, kArenaPages> perm{};
  std::vector<Bo> bos;
  std::vector<Queue> queues;
  std::vector<uint32_t> events;
  std::vector<size_t> stale;  // pages made inaccessible by this program

  KfdDevice& kfd() { return KfdDevice::instance(); }
  Arena& a() { return arena(); }

  bool open(int i, bool acquire) {
    Proc& p = procs[i];
    p = Proc{};
    p.fd = kfd().open_kfd();
    p.render = kfd().open_render(a().render_minor);
    if (acquire) {
      kfd_ioctl_acquire_vm_args vm{static_cast<uint32_t>(p.render), a().gpu_id};
      kfd().ioctl(p.fd, AMDKFD_IOC_ACQUIRE_VM, &vm);
    }
    return p.fd >= 0;
  }
  void close(int i) {
    Proc& p = procs[i];
    if (p.fd >= 0) kfd().close(p.fd);  // with everything live
    if (p.render >= 0) kfd().close(p.render);
    if (p.doorbells) kfd().munmap(p.doorbells, 8192);
    p = Proc{};
    std::erase_if(bos, [i](const Bo& b) { return b.proc == i; });
    std::erase_if(queues, [i](const Queue& q) { return q.proc == i; });
  }

  // Pages that live USERPTR buffers or queues point into.
  bool page_in_use(size_t page) const {
    for (const Bo& b : bos) {
      if (page >= b.first_page && page < b.first_page + b.pages) return true;
    }
    for (const Queue& q : queues) {
      for (size_t qp : q.pages) {
        if (qp == page) return true;
      }
    }
    return false;
  }

  size_t page() { return in.ConsumeIntegralInRange<size_t>(0, kArenaPages - 1); }

  // A user pointer of one of the kinds the real KFD must survive.
  uint64_t pointer(size_t want_bytes = 8) {
    const uint64_t off = in.ConsumeIntegralInRange<uint64_t>(0, (kPage - std::min<uint64_t>(want_bytes, kPage)) / 8) * 8;
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
      case 0: return a().va(kRoPage, off);                                  // read-only
      case 1: return a().va(kNonePage, off);                                // unmapped
      case 2: return a().va(page(), off) + in.ConsumeIntegralInRange<int>(1, 7);  // misaligned
      case 3: {                                                              // huge / non-canonical
        static constexpr uint64_t huge[] = {uint64_t{1} << 47, (uint64_t{1} << 47) - 8, ~uint64_t{0},
                                            ~uint64_t{0} - 7, 0xffff800000000000ull, 0x0000800000001000ull};
        return huge[in.ConsumeIntegralInRange<size_t>(0, std::size(huge) - 1)];
      }
      case 4: return 0;
      case 5:  // stale: a page this program made inaccessible (else a valid one)
        if (!stale.empty()) return a().va(stale[in.ConsumeIntegralInRange<size_t>(0, stale.size() - 1)], off);
        [[fallthrough]];
      default: return a().va(page(), off);
    }
  }

  int proc_index() { return in.ConsumeBool() ? 1 : 0; }
  int ioctl(int i, unsigned long req, void* arg) { return kfd().ioctl(procs[i].fd, req, arg); }

  uint64_t any_handle() {
    if (!bos.empty() && in.ConsumeIntegralInRange<int>(0, 7)) return bos[in.ConsumeIntegralInRange<size_t>(0, bos.size() - 1)].handle;
    return in.ConsumeIntegral<uint64_t>();
  }

  void alloc() {
    const int i = proc_index();
    kfd_ioctl_alloc_memory_of_gpu_args args{};
    args.gpu_id = in.ConsumeIntegralInRange<int>(0, 15) ? a().gpu_id : in.ConsumeIntegral<uint32_t>();
    uint32_t flags = 0;
    uint64_t first = 0, pages = 0;
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
      case 1: {  // USERPTR over harness pages (ROCR's rings and signals)
        first = page();
        pages = in.ConsumeIntegralInRange<uint64_t>(1, std::min<uint64_t>(4, kArenaPages - first));
        flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
        if (in.ConsumeBool()) flags |= KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
        if (in.ConsumeBool()) flags |= KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
        args.va_addr = a().va(first);
        args.size = pages * kPage;
        args.mmap_offset = in.ConsumeIntegralInRange<int>(0, 7) ? a().va(first) : pointer();
        break;
      }
      case 2:
      case 3: {
        flags = in.ConsumeBool() ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM : KFD_IOC_ALLOC_MEM_FLAGS_GTT;
        flags |= KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
        const uint64_t vp = in.ConsumeIntegralInRange<uint64_t>(0, kVramPages - 1);
        args.va_addr = in.ConsumeIntegralInRange<int>(0, 7) ? reinterpret_cast<uintptr_t>(a().vram) + vp * kPage
                                                            : in.ConsumeIntegral<uint64_t>();
        args.size = in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<uint64_t>(1, 4 * kPage)
                                                         : in.ConsumeIntegral<uint64_t>();
        break;
      }
      case 4:
        flags = in.ConsumeBool() ? KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL : KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP;
        flags |= KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE;
        args.va_addr = reinterpret_cast<uintptr_t>(a().vram) + in.ConsumeIntegralInRange<uint64_t>(0, kVramPages - 2) * kPage;
        args.size = in.ConsumeBool() ? 8192 : kPage;
        break;
      default:  // any flags, any sizes
        flags = in.ConsumeIntegral<uint32_t>();
        args.va_addr = pointer();
        args.size = in.ConsumeIntegral<uint64_t>();
        args.mmap_offset = pointer();
        break;
    }
    args.flags = flags;
    if (ioctl(i, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &args) == 0) {
      const bool user = (flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT)) == 0 &&
                        (flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
      bos.push_back(Bo{i, args.handle, user ? first : 0, user ? pages : 0});
      if (user && pages == 0) bos.back().pages = kArenaPages;  // backed by an unknown range: guard all
    }
  }

  void map_unmap() {
    const int i = proc_index();
    std::array<uint32_t, 4> ids{a().gpu_id, a().gpu_id, in.ConsumeIntegral<uint32_t>(), a().gpu_id};
    const uint64_t handle = any_handle();
    const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(0, 4);
    const uint64_t ptr = in.ConsumeIntegralInRange<int>(0, 3) ? reinterpret_cast<uintptr_t>(ids.data()) : pointer(16);
    const uint32_t done = in.ConsumeIntegralInRange<uint32_t>(0, 2);
    if (in.ConsumeBool()) {
      kfd_ioctl_map_memory_to_gpu_args m{handle, ptr, n, done};
      ioctl(i, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m);
    } else {
      kfd_ioctl_unmap_memory_from_gpu_args m{handle, ptr, n, done};
      ioctl(i, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m);
    }
  }

  void free_bo() {
    const int i = proc_index();
    const uint64_t handle = any_handle();
    kfd_ioctl_free_memory_of_gpu_args f{handle};
    if (ioctl(i, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f) == 0) {
      std::erase_if(bos, [&](const Bo& b) { return b.proc == i && b.handle == handle; });
    }
  }

  void create_queue() {
    const int i = proc_index();
    kfd_ioctl_create_queue_args q{};
    static constexpr uint32_t types[] = {KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, KFD_IOC_QUEUE_TYPE_SDMA,
                                         KFD_IOC_QUEUE_TYPE_COMPUTE, KFD_IOC_QUEUE_TYPE_SDMA_XGMI};
    q.queue_type = in.ConsumeIntegralInRange<int>(0, 15) ? types[in.ConsumeIntegralInRange<size_t>(0, 3)]
                                                         : in.ConsumeIntegral<uint32_t>();
    q.gpu_id = in.ConsumeIntegralInRange<int>(0, 15) ? a().gpu_id : in.ConsumeIntegral<uint32_t>();
    q.queue_percentage = in.ConsumeIntegralInRange<uint32_t>(0, 101);
    q.queue_priority = in.ConsumeIntegralInRange<uint32_t>(0, 16);
    const size_t ring_page = page(), ptr_page = page();
    const bool plain = in.ConsumeIntegralInRange<int>(0, 3) != 0;
    q.ring_size = plain ? 1u << in.ConsumeIntegralInRange<int>(6, 12) : in.ConsumeIntegral<uint32_t>();
    q.ring_base_address = plain ? a().va(ring_page) : pointer();
    if (q.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) {
      // ROCR's layout: amd_queue_t at the pointer page, write/read pointers inside it.
      auto* aq = reinterpret_cast<amd_queue_t*>(a().base + ptr_page * kPage);
      if (perm[ptr_page] == kRw) {
        std::memset(aq, 0, sizeof *aq);
        aq->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
        aq->hsa_queue.base_address = reinterpret_cast<void*>(q.ring_base_address);
        aq->hsa_queue.size = q.ring_size / 64;
      }
      q.write_pointer_address = plain ? reinterpret_cast<uintptr_t>(&aq->write_dispatch_id) : pointer();
      q.read_pointer_address = plain ? reinterpret_cast<uintptr_t>(&aq->read_dispatch_id) : pointer();
      if (plain && perm[ring_page] == kRw) {
        for (uint64_t s = 0; s < std::min<uint64_t>(q.ring_size, kPage) / 64; ++s) {
          *reinterpret_cast<uint16_t*>(a().base + ring_page * kPage + 64 * s) = HSA_PACKET_TYPE_INVALID;
        }
      }
    } else {
      q.read_pointer_address = plain ? a().va(ptr_page) : pointer();
      q.write_pointer_address = plain ? a().va(ptr_page, 64) : pointer();
    }
    if (in.ConsumeBool()) {
      q.eop_buffer_address = pointer();
      q.eop_buffer_size = in.ConsumeIntegral<uint32_t>();
      q.ctx_save_restore_address = pointer();
      q.ctx_save_restore_size = in.ConsumeIntegral<uint32_t>();
      q.ctl_stack_size = in.ConsumeIntegral<uint32_t>();
    }
    if (ioctl(i, AMDKFD_IOC_CREATE_QUEUE, &q) != 0) return;
    Queue rec{i, q.queue_id, q.queue_type, q.ring_base_address, q.ring_size, q.read_pointer_address,
              q.write_pointer_address, q.doorbell_offset};
    // Known defect 3 (README): the model keeps the queue descriptor's translation; the guard
    // below keeps every page a queue names accessible while the queue lives.
    for (uint64_t addr : {q.ring_base_address, q.read_pointer_address, q.write_pointer_address}) {
      if (addr >= a().va(0) && addr < a().va(kArenaPages)) rec.pages.push_back((addr - a().va(0)) / kPage);
    }
    if (q.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) rec.pages.push_back(ptr_page);
    queues.push_back(rec);
  }

  uint64_t* doorbell(Queue& q) {
    Proc& p = procs[q.proc];
    if (!p.doorbells) {
      const auto page = kfd().mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
                                   static_cast<off_t>(q.doorbell_offset & ~uint64_t{8191}));
      p.doorbells = static_cast<uint64_t*>(page.value_or(nullptr));
    }
    return p.doorbells ? p.doorbells + (q.doorbell_offset & 8191) / 8 : nullptr;
  }

  // Host pointer to [va, va + n) if it lies in a read-write harness page, else null.
  uint8_t* writable(uint64_t va, uint64_t n) {
    if (va < a().va(0) || va + n > a().va(kArenaPages) || va + n < va) return nullptr;
    for (uint64_t pg = (va - a().va(0)) / kPage; pg <= (va + n - 1 - a().va(0)) / kPage; ++pg) {
      if (perm[pg] != kRw) return nullptr;
    }
    return reinterpret_cast<uint8_t*>(va);
  }

  uint64_t target(size_t bytes) {  // an address a packet reads or writes
    if (in.ConsumeBool()) return reinterpret_cast<uintptr_t>(a().vram) + in.ConsumeIntegralInRange<uint64_t>(0, kVramPages - 1) * kPage;
    return pointer(bytes);
  }

  void submit() {
    if (queues.empty()) return;
    Queue& q = queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)];
    uint64_t* db = doorbell(q);
    if (q.type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) {
      auto* aq = reinterpret_cast<amd_queue_t*>(q.wptr - offsetof(amd_queue_t, write_dispatch_id));
      const uint64_t slots = q.ring_size / 64;
      // The harness is the producer: it only writes through aligned queue memory it owns.
      if (slots == 0 || (q.wptr & 63) != offsetof(amd_queue_t, write_dispatch_id) % 64 || (q.ring & 63) != 0 ||
          !writable(q.wptr - offsetof(amd_queue_t, write_dispatch_id), sizeof(amd_queue_t))) {
        return;
      }
      uint8_t* slot = writable(q.ring + 64 * (q.produced % slots), 64);
      if (!slot) return;
      hsa_barrier_and_packet_t b{};
      for (auto& d : b.dep_signal) d.handle = in.ConsumeIntegralInRange<int>(0, 3) ? 0 : target(64);
      b.completion_signal.handle = in.ConsumeBool() ? target(64) : 0;
      std::memcpy(slot + 4, reinterpret_cast<uint8_t*>(&b) + 4, 60);
      const uint16_t type = in.ConsumeIntegralInRange<int>(0, 7) ? HSA_PACKET_TYPE_BARRIER_AND : in.ConsumeIntegral<uint8_t>();
      std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot)).store(type, std::memory_order_release);
      ++q.produced;
      std::atomic_ref<uint64_t>(const_cast<uint64_t&>(aq->write_dispatch_id)).store(q.produced, std::memory_order_release);
      if (db) std::atomic_ref<uint64_t>(*db).store(in.ConsumeIntegralInRange<int>(0, 3) ? q.produced - 1 : in.ConsumeIntegral<uint64_t>(),
                                                 std::memory_order_release);
    } else {
      // SDMA (and PM4 compute) packets as ROCR's BlitSdma writes them.
      std::vector<uint32_t> p;
      auto addr = [&](size_t bytes) {
        const uint64_t v = target(bytes);
        p.push_back(uint32_t(v));
        p.push_back(uint32_t(v >> 32));
      };
      switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: p = {1, in.ConsumeIntegralInRange<uint32_t>(0, 3 * kPage), 0}; addr(64); addr(64); break;  // COPY_LINEAR
        case 1: p = {11 | (2u << 30)}; addr(64); p.push_back(in.ConsumeIntegral<uint32_t>()); p.push_back(in.ConsumeIntegralInRange<uint32_t>(0, 2 * kPage)); break;  // CONST_FILL
        case 2: p = {5}; addr(8); p.push_back(in.ConsumeIntegral<uint32_t>()); break;  // FENCE
        case 3: p = {2}; addr(8); p.push_back(1); p.push_back(7); p.push_back(8); break;  // WRITE_LINEAR
        case 4: p = {10u | (47u << 25)}; addr(8); for (int k = 0; k < 5; ++k) p.push_back(in.ConsumeIntegral<uint32_t>()); break;  // ATOMIC ADD64
        default: p = {6, in.ConsumeIntegral<uint32_t>() & 0xfffffff}; break;  // TRAP
      }
      if (q.ring_size == 0 || (q.ring_size & (q.ring_size - 1)) != 0) return;
      for (uint32_t dw : p) {
        uint8_t* at = writable(q.ring + (q.produced % q.ring_size), 4);
        if (!at) return;
        std::memcpy(at, &dw, 4);
        q.produced += 4;
      }
      if (uint8_t* w = (q.wptr & 7) == 0 ? writable(q.wptr, 8) : nullptr) {
        std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(w)).store(q.produced);
      }
      const uint64_t value = in.ConsumeIntegralInRange<int>(0, 3) ? q.produced : in.ConsumeIntegral<uint64_t>();
      if (db) std::atomic_ref<uint64_t>(*db).store(value, std::memory_order_release);
    }
    // Let the engine catch up before the program goes on: spin (bounded; nothing is checked)
    // until the read pointer reaches what was produced. No yields: on a busy machine one
    // sched_yield can cost a time slice.
    if (in.ConsumeBool() && (q.rptr & 7) == 0 && writable(q.rptr, 8)) {
      const auto* rptr = reinterpret_cast<const uint64_t*>(q.rptr);
      for (int k = 0; k < (1 << 16) && __atomic_load_n(rptr, __ATOMIC_ACQUIRE) < q.produced; ++k) {
        __builtin_ia32_pause();
      }
    }
  }

  void queue_control() {
    const int i = proc_index();
    const uint32_t id = !queues.empty() && in.ConsumeBool()
                            ? queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)].id
                            : in.ConsumeIntegralInRange<uint32_t>(0, 1100);
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: {
        kfd_ioctl_destroy_queue_args d{id, 0};
        if (ioctl(i, AMDKFD_IOC_DESTROY_QUEUE, &d) == 0) {
          std::erase_if(queues, [&](const Queue& q) { return q.proc == i && q.id == id; });
        }
        break;
      }
      case 1: {
        kfd_ioctl_update_queue_args u{};
        u.queue_id = id;
        u.ring_base_address = pointer();
        u.ring_size = in.ConsumeBool() ? 1u << in.ConsumeIntegralInRange<int>(0, 16) : in.ConsumeIntegral<uint32_t>();
        u.queue_percentage = in.ConsumeIntegralInRange<uint32_t>(0, 101);
        u.queue_priority = in.ConsumeIntegralInRange<uint32_t>(0, 16);
        // The updated ring must stay accessible too (known defect 3): it is guarded from now on.
        if (ioctl(i, AMDKFD_IOC_UPDATE_QUEUE, &u) == 0 && u.ring_base_address >= a().va(0) &&
            u.ring_base_address < a().va(kArenaPages)) {
          for (Queue& q : queues) {
            if (q.proc == i && q.id == id) q.pages.push_back((u.ring_base_address - a().va(0)) / kPage);
          }
        }
        break;
      }
      default: {
        std::array<uint32_t, 4> mask{~0u, 0u, 1u, ~0u};
        kfd_ioctl_set_cu_mask_args m{};
        m.queue_id = id;
        m.num_cu_mask = in.ConsumeIntegralInRange<uint32_t>(0, 160);
        m.cu_mask_ptr = in.ConsumeBool() ? reinterpret_cast<uintptr_t>(mask.data()) : pointer(16);
        ioctl(i, AMDKFD_IOC_SET_CU_MASK, &m);
        break;
      }
    }
  }

  void event() {
    const int i = proc_index();
    const uint32_t id = !events.empty() && in.ConsumeBool()
                            ? events[in.ConsumeIntegralInRange<size_t>(0, events.size() - 1)]
                            : in.ConsumeIntegralInRange<uint32_t>(0, 4200);
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {
        kfd_ioctl_create_event_args c{};
        c.event_page_offset = in.ConsumeIntegralInRange<int>(0, 3) ? 0 : any_handle();
        c.event_type = in.ConsumeIntegralInRange<uint32_t>(0, 9);
        c.auto_reset = in.ConsumeBool();
        if (ioctl(i, AMDKFD_IOC_CREATE_EVENT, &c) == 0) events.push_back(c.event_id);
        break;
      }
      case 1: {
        kfd_ioctl_set_event_args s{id, 0};
        ioctl(i, AMDKFD_IOC_SET_EVENT, &s);
        break;
      }
      case 2: {
        kfd_ioctl_reset_event_args r{id, 0};
        ioctl(i, AMDKFD_IOC_RESET_EVENT, &r);
        break;
      }
      case 3: {
        std::array<kfd_event_data, 4> ev{};
        for (auto& e : ev) {
          e.event_id = in.ConsumeBool() ? id : in.ConsumeIntegral<uint32_t>();
          e.memory_exception_data.gpu_id = a().gpu_id;
        }
        kfd_ioctl_wait_events_args w{};
        w.events_ptr = in.ConsumeIntegralInRange<int>(0, 3) ? reinterpret_cast<uintptr_t>(ev.data()) : pointer(64);
        w.num_events = in.ConsumeIntegralInRange<uint32_t>(0, in.ConsumeBool() ? 4 : 5000);
        w.wait_for_all = in.ConsumeBool();
        w.timeout = 0;  // never block the harness
        ioctl(i, AMDKFD_IOC_WAIT_EVENTS, &w);
        break;
      }
      default: {
        kfd_ioctl_destroy_event_args d{id, 0};
        if (ioctl(i, AMDKFD_IOC_DESTROY_EVENT, &d) == 0) std::erase(events, id);
        break;
      }
    }
  }

  void page_attack() {
    const size_t pg = page();
    if (pg == kRoPage || pg == kNonePage) return;
    const Perm p = static_cast<Perm>(in.ConsumeIntegralInRange<int>(0, 2));
    a().set(perm, pg, p);
    if (p == kNone) stale.push_back(pg);
  }

  void raw_ioctl() {
    const int i = proc_index();
    // Any number, direction and size: the table's own definition must win (KFD-IOC-2).
    const unsigned nr = in.ConsumeIntegralInRange<unsigned>(0, 0x30);
    const unsigned sz = in.ConsumeIntegralInRange<unsigned>(0, 300);
    const unsigned dir = in.ConsumeIntegralInRange<unsigned>(0, 3);
    const unsigned long req = (static_cast<unsigned long>(dir) << 30) | (static_cast<unsigned long>(sz) << 16) |
                              (static_cast<unsigned long>(AMDKFD_IOCTL_BASE) << 8) | nr;
    std::vector<uint8_t> buf(std::max(sz, 1u));
    const auto bytes = in.ConsumeBytes<uint8_t>(sz);
    if (!bytes.empty()) std::memcpy(buf.data(), bytes.data(), bytes.size());
    void* arg = in.ConsumeIntegralInRange<int>(0, 3) ? buf.data() : reinterpret_cast<void*>(pointer(sz));
    if (nr == 0x0C && arg == buf.data() && sz >= sizeof(kfd_ioctl_wait_events_args)) {
      reinterpret_cast<kfd_ioctl_wait_events_args*>(buf.data())->timeout = 0;  // never block
    }
    if (nr == 0x0C && arg != buf.data()) return;  // a wait through a foreign pointer could block
    ioctl(i, req, arg);
  }

  void apertures() {
    const int i = proc_index();
    std::array<kfd_process_device_apertures, 4> ap{};
    kfd_ioctl_get_process_apertures_new_args g{};
    g.kfd_process_device_apertures_ptr = in.ConsumeBool() ? reinterpret_cast<uintptr_t>(ap.data()) : pointer(128);
    g.num_of_nodes = in.ConsumeIntegralInRange<uint32_t>(0, in.ConsumeBool() ? 4 : 100000);
    ioctl(i, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &g);
    kfd_ioctl_get_process_apertures_args old{};
    ioctl(i, AMDKFD_IOC_GET_PROCESS_APERTURES, in.ConsumeBool() ? static_cast<void*>(&old) : reinterpret_cast<void*>(pointer()));
  }

  void cpu_map() {
    const int i = proc_index();
    const uint64_t vp = in.ConsumeIntegralInRange<uint64_t>(0, kVramPages - 1);
    const uint64_t off = in.ConsumeIntegralInRange<int>(0, 3) ? in.ConsumeIntegralInRange<uint64_t>(0, 64) * kPage
                                                            : in.ConsumeIntegral<uint64_t>();
    const size_t len = in.ConsumeIntegralInRange<size_t>(1, 4) * kPage;
    const int fd = in.ConsumeBool() ? procs[i].render : procs[i].fd;
    // Only into the harness's VRAM reservation, as the thunk maps buffers (MAP_FIXED).
    const auto mapped = kfd().mmap(a().vram + vp * kPage, std::min<size_t>(len, (kVramPages - vp) * kPage),
                                   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(off));
    void* m = mapped.value_or(nullptr);
    if (m && m != a().vram + vp * kPage) {
      kfd().munmap(m, 0);  // a driver page (doorbell, events): drop the reference
    } else if (m) {
      // Put the reservation back, as the thunk does when it frees a buffer.
      kfd().munmap(m, std::min<size_t>(len, (kVramPages - vp) * kPage));
      ::mmap(m, std::min<size_t>(len, (kVramPages - vp) * kPage), PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    }
  }

  // A USERPTR buffer over harness pages, mapped to the GPU, as ROCR registers its rings.
  void userptr(int i, size_t first, size_t pages) {
    kfd_ioctl_alloc_memory_of_gpu_args args{};
    args.gpu_id = a().gpu_id;
    args.va_addr = args.mmap_offset = a().va(first);
    args.size = pages * kPage;
    args.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
    if (ioctl(i, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &args) != 0) return;
    bos.push_back(Bo{i, args.handle, first, pages});
    uint32_t id = a().gpu_id;
    kfd_ioctl_map_memory_to_gpu_args m{args.handle, reinterpret_cast<uintptr_t>(&id), 1, 0};
    ioctl(i, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m);
  }

  // Starting states deep enough for the engines to run at once (the input picks one): process 0
  // with USERPTR pages 0-7 mapped, then an SDMA queue (ring page 0, pointers page 1), an AQL
  // queue (amd_queue_t page 2, ring page 3), or both. The program goes on from there.
  void prologue(int scenario) {
    if (scenario == 0) return;
    userptr(0, 0, 4);
    userptr(0, 4, 4);
    for (const uint32_t type : {KFD_IOC_QUEUE_TYPE_SDMA, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL}) {
      if ((scenario & (type == KFD_IOC_QUEUE_TYPE_SDMA ? 1 : 2)) == 0) continue;
      kfd_ioctl_create_queue_args q{};
      q.gpu_id = a().gpu_id;
      q.queue_type = type;
      q.queue_percentage = 100;
      q.queue_priority = 7;
      std::vector<size_t> pages;
      if (type == KFD_IOC_QUEUE_TYPE_SDMA) {
        q.ring_base_address = a().va(0);
        q.ring_size = 4096;
        q.read_pointer_address = a().va(1);
        q.write_pointer_address = a().va(1, 64);
        pages = {0, 1};
      } else {
        auto* aq = reinterpret_cast<amd_queue_t*>(a().base + 2 * kPage);
        aq->hsa_queue.type = HSA_QUEUE_TYPE_MULTI;
        aq->hsa_queue.base_address = a().base + 3 * kPage;
        aq->hsa_queue.size = 64;
        for (int slot = 0; slot < 64; ++slot) *reinterpret_cast<uint16_t*>(a().base + 3 * kPage + 64 * slot) = HSA_PACKET_TYPE_INVALID;
        q.ring_base_address = a().va(3);
        q.ring_size = 4096;
        q.write_pointer_address = reinterpret_cast<uintptr_t>(&aq->write_dispatch_id);
        q.read_pointer_address = reinterpret_cast<uintptr_t>(&aq->read_dispatch_id);
        pages = {2, 3};
      }
      if (ioctl(0, AMDKFD_IOC_CREATE_QUEUE, &q) != 0) continue;
      Queue rec{0, q.queue_id, q.queue_type, q.ring_base_address, q.ring_size, q.read_pointer_address,
                q.write_pointer_address, q.doorbell_offset};
      rec.pages = pages;
      queues.push_back(rec);
    }
  }

  void run() {
    a().reset(perm);
    open(0, true);
    open(1, in.ConsumeIntegralInRange<int>(0, 7) != 0);
    prologue(in.ConsumeIntegralInRange<int>(0, 3));
    for (int op = 0; op < 48 && in.remaining_bytes() > 0; ++op) {
      switch (in.ConsumeIntegralInRange<int>(0, 12)) {
        case 0: case 1: alloc(); break;
        case 2: map_unmap(); break;
        case 3: free_bo(); break;
        case 4: create_queue(); break;
        case 5: case 6: submit(); break;
        case 7: queue_control(); break;
        case 8: event(); break;
        case 9: page_attack(); break;
        case 10: raw_ioctl(); break;
        case 11: apertures(); break;
        default: {
          if (in.ConsumeBool()) {
            cpu_map();
          } else {  // close with everything live, then open again
            const int i = proc_index();
            close(i);
            open(i, in.ConsumeBool());
          }
          break;
        }
      }
    }
    close(0);
    close(1);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program{in};
  program.run();
  return 0;
}
