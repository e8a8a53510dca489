// kfd/kfd_device.cpp - KfdDevice: descriptors, process lifetime, mmap, sysfs; ioctls go to the table.
#include "kfd/kfd_device.h"
#include "common/trace_checks.h"
#include "kfd/userptr_pin.h"

#include <pthread.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>

#include "kfd/aql_hw_queue.h"
#include "kfd/device_state.h"
#include "kfd/drm_render.h"
#include "kfd/kfd_client.h"
#include "kfd/kfd_mutant.h"

namespace rocref::kfd {

struct KfdDevice::Impl : DeviceState {
  explicit Impl(uint32_t gpu_count) : DeviceState(gpu_count) {}
};

namespace {
constexpr uint64_t kGttPoolSize = uint64_t{8} << 30;  // sparse: only touched pages cost memory
constexpr unsigned kHwsQuantum = 32;                  // steps of each mapped queue per time slice
}

GpuState::GpuState(const GpuDescription& g)
    : vram("rocref-vram", g.vram_size),
      mmio("rocref-mmio", 4096),
      vram_limit(0, g.vram_size),
      hws(g.hw_pipes, g.hw_slots_per_pipe, kHwsQuantum, g.max_proc_per_quantum, uint64_t{g.gpu_id} << 1),
      sdma_hws(g.num_sdma_engines, g.num_sdma_queues_per_engine, kHwsQuantum, g.max_proc_per_quantum,
               (uint64_t{g.gpu_id} << 1) | 1) {}

DeviceState::DeviceState(uint32_t gpu_count)
    : topology(machine_gpus(gpu_count)), gtt("rocref-gtt", kGttPoolSize), mem_limit(topology.cpu().memory_bytes, 0) {
  for (uint32_t i = 0; i < topology.gpu_count(); ++i) {
    gpus.push_back(std::make_unique<GpuState>(topology.gpu(i)));
    gpus.back()->hws.set_after_slice([this] { drain_interrupts(); });
    gpus.back()->sdma_hws.set_after_slice([this] { drain_interrupts(); });
  }
}

DeviceState::~DeviceState() { engines.stop(); }

void DeviceState::start_engines() {
  std::call_once(engines_started, [this] {
    for (auto& g : gpus) {
      HwScheduler* hws = &g->hws;
      HwScheduler* sdma = &g->sdma_hws;
      engines.add([hws] { return hws->run_slice(); });
      engines.add([sdma] { return sdma->run_slice(); });
    }
    engines.start();
  });
}

int DeviceState::reserve_locked(uint32_t gpu, const MemCharge& c) {
  if (const int err = gpus[gpu]->vram_limit.reserve(MemCharge{0, 0, c.vram})) return err;
  if (const int err = mem_limit.reserve(MemCharge{c.system, c.ttm, 0})) {
    gpus[gpu]->vram_limit.unreserve(MemCharge{0, 0, c.vram});
    return err;
  }
  return 0;
}

void DeviceState::unreserve_locked(uint32_t gpu, const MemCharge& c) {
  gpus[gpu]->vram_limit.unreserve(MemCharge{0, 0, c.vram});
  mem_limit.unreserve(MemCharge{c.system, c.ttm, 0});
}

Process* DeviceState::process_by_pasid(uint32_t pasid) {
  for (auto& [fd, p] : processes)
    if (p->pasid == pasid && !p->closed) return p.get();
  return nullptr;
}

uint32_t DeviceState::allocate_vmid() const {
  // The model gives each live process its own VMID for its lifetime (KFD-PROC-1);
  // VMID 0 belongs to the kernel driver.
  for (uint32_t v = 1;; ++v) {
    bool used = false;
    for (const auto& [fd, p] : processes) used |= (p->vmid == v);
    if (!used) return v;
  }
}

uint32_t KfdDevice::configured_gpu_count() {
  // KFD-TOPO-8: the one place the machine's GPU count is configured (default 1).
  const char* env = std::getenv("ROCREF_GPUS");
  if (!env || !*env) return 1;
  char* end = nullptr;
  const unsigned long n = std::strtoul(env, &end, 10);
  return (*end == '\0' && n >= 1 && n <= kMaxGpus) ? static_cast<uint32_t>(n) : 1;
}

std::string KfdDevice::shared_socket() {
  const char* env = std::getenv("ROCREF_KFD_SOCKET");
  return env ? std::string(env) : std::string();
}

KfdDevice& KfdDevice::instance() {
  static KfdDevice* device = [] {
    if (const std::string socket = shared_socket(); !socket.empty()) {
      // KFD-MP-1: the shared model: this process holds descriptors and mappings, the daemon the rest.
      auto* d = new KfdDevice(new RemoteKfd(socket));
      install_userptr_fork_handler();  // KFD-MEM-14 for the pins this process makes for the daemon
      ::pthread_atfork(nullptr, nullptr, [] { instance().remote_->after_fork(); });
      return d;
    }
    auto* d = new KfdDevice(configured_gpu_count());
    // The device lives until exit; its scheduler thread must stop before statics go away.
    std::atexit([] { instance().impl_->engines.stop(); });
    // KFD-PROC-4: a forked child is a new process to the driver. Its pages first (KFD-MEM-14):
    // the reset allocates, and moved heap pages are still the parent's until that handler ran.
    install_userptr_fork_handler();
    ::pthread_atfork(nullptr, nullptr, [] { instance().reset_after_fork(); });
    return d;
  }();
  return *device;
}

// KFD-PROC-4: amdkfd's processes belong to their mm, so a forked child has none: the parent's
// descriptors answer -EBADF there and the child opens its own, whose queues run on engines of
// its own (the parent's engine thread does not exist in the child). The parent's state is left
// as fork copied it (its thread and locks are not the child's to use): it is never freed.
void KfdDevice::reset_after_fork() {
  if (remote_) return remote_->after_fork();
  if (kfd_mutant_active(KfdMutant::ForkKeepsParentDevice)) return;
  const int next_fd = impl_->next_fd;
  const uint32_t gpus = impl_->topology.gpu_count();
  impl_ = new Impl(gpus);
  impl_->next_fd = next_fd;  // fd numbers of the parent's descriptors are never reused
}

KfdDevice::KfdDevice(uint32_t gpu_count) : impl_(new Impl(gpu_count)) {}

KfdDevice::KfdDevice(RemoteKfd* remote) : remote_(remote) {}

KfdDevice::~KfdDevice() {
  delete impl_;
  delete remote_;
}

uint32_t KfdDevice::gpu_count() const { return remote_ ? remote_->gpu_count() : impl_->topology.gpu_count(); }

int KfdDevice::open_kfd() {
  if (remote_) return remote_->open_kfd();
  DeviceState& d = *impl_;
  if (!d.gtt.ok()) return -ENOMEM;
  for (const auto& g : d.gpus)
    if (!g->vram.ok() || !g->mmio.ok()) return -ENOMEM;
  auto p = std::make_unique<Process>();
  p->pdd.resize(d.gpus.size());
  for (ProcessDevice& pd : p->pdd) {
    pd.doorbells = std::make_shared<HostArena>("rocref-doorbells", kDoorbellProcessSlice);
    if (!pd.doorbells->ok()) return -ENOMEM;
  }
  d.start_engines();
  std::lock_guard<std::mutex> lock(d.mu);
  const int fd = kFirstFd + d.next_fd++;
  p->fd = fd;
  p->pasid = d.next_pasid++;
  p->vmid = d.allocate_vmid();
  const uint32_t pasid = p->pasid;
  DeviceState* dev = &d;
  // KFD-FAULT-1: a GPU page fault in this VM stops the faulting queue and
  // becomes a VM-fault interrupt for this process only. One VM per GPU (KFD-TOPO-8).
  for (uint32_t i = 0; i < p->pdd.size(); ++i) {
    const uint32_t gpu_id = d.gpu_id(i);
    p->pdd[i].vm = std::make_unique<gpu::vm::GpuVm>(p->vmid, [dev, pasid, gpu_id](const gpu::vm::VmFault& f) {
      if (AqlHwQueue* q = AqlHwQueue::current()) q->mark_faulted();
      IhEntry e;
      e.kind = IhEntry::Kind::VmFault;
      e.pasid = pasid;
      e.gpu_id = gpu_id;
      e.fault = f;
      dev->ih.push(e);
    });
  }
  d.fds[fd] = FdEntry{FdEntry::Kind::Kfd, 0};
  d.processes[fd] = std::move(p);
  return fd;
}

int KfdDevice::open_render(uint32_t minor) {
  if (remote_) return remote_->open_render(minor);
  DeviceState& d = *impl_;
  if (!d.topology.gpu_index_by_minor(minor)) return -ENOENT;
  std::lock_guard<std::mutex> lock(d.mu);
  const int fd = kFirstFd + d.next_fd++;
  d.fds[fd] = FdEntry{FdEntry::Kind::Render, minor};
  return fd;
}

int KfdDevice::close(int fd) {
  if (remote_) return remote_->close(fd);
  DeviceState& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.fds.find(fd);
  if (it == d.fds.end()) return -EBADF;
  const FdEntry entry = it->second;
  d.fds.erase(it);
  if (entry.kind == FdEntry::Kind::Render) return 0;  // a bound VM keeps its reference, as amdgpu's does
  auto pit = d.processes.find(fd);
  if (pit == d.processes.end()) return 0;
  Process& p = *pit->second;
  d.release_process_locked(p);  // KFD-PROC-3
  for (auto& [rfd, r] : d.fds)
    if (r.bound_kfd == fd) r.bound_kfd = -1;
  if (p.in_flight == 0) d.processes.erase(pit);
  else p.closed = true;  // the last running ioctl deletes it
  return 0;
}

int KfdDevice::ioctl(int fd, unsigned long request, void* arg) {
  if (remote_) return remote_->ioctl(fd, request, arg);
  DeviceState& d = *impl_;
  std::unique_lock<std::mutex> lock(d.mu);
  auto it = d.fds.find(fd);
  if (it == d.fds.end()) return -EBADF;
  if (it->second.kind == FdEntry::Kind::Render) {  // KFD-DRM-1
    return drm_render_ioctl(d.topology.gpu(*d.topology.gpu_index_by_minor(it->second.minor)), request, arg);
  }
  auto pit = d.processes.find(fd);
  if (pit == d.processes.end() || pit->second->closed) return -EBADF;
  Process* p = pit->second.get();
  ++p->in_flight;
  const int ret = kfd_dispatch_ioctl(d, *p, request, arg, lock);
  if (--p->in_flight == 0 && p->closed) {
    for (auto i = d.processes.begin(); i != d.processes.end(); ++i)
      if (i->second.get() == p) {
        d.processes.erase(i);
        break;
      }
  }
  return ret;
}

Expected<KfdDevice::MmapSource, int> KfdDevice::mmap_source(int fd, size_t length, bool placed, off_t offset) {
  if (remote_) return unexpected(-ENODEV);  // the daemon's question, not a client's
  DeviceState& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  return mmap_source_locked(fd, length, placed, offset);
}

Expected<KfdDevice::MmapSource, int> KfdDevice::mmap_source_locked(int fd, size_t length, bool placed, off_t offset) {
  DeviceState& d = *impl_;
  auto it = d.fds.find(fd);
  if (it == d.fds.end()) return unexpected(-EBADF);
  const uint64_t off = static_cast<uint64_t>(offset);
  if (length == 0 || (off & 4095) != 0) return unexpected(-EINVAL);
  MmapSource src;
  if (it->second.kind == FdEntry::Kind::Kfd) {
    Process& p = *d.processes.at(fd);
    const int gpu = d.gpu_index(mmap_get_gpu_id(off));
    const bool gpu_ok = gpu >= 0;
    switch (off & kMmapTypeMask) {
      case kMmapTypeDoorbell:  // KFD-DB-1: the process's own doorbell page, 8 KiB exactly
        ROCREF_CHECKED("KFD-DB-1");
        if (!gpu_ok) return unexpected(-ENODEV);
        if (length != kDoorbellProcessSlice) return unexpected(-EINVAL);
        src.fd = p.pdd[gpu].doorbells->fd();
        src.driver_view = !placed;  // KFD-DB-3: the driver's own view
        src.view = p.pdd[gpu].doorbells->at(0);
        src.view_owner = p.pdd[gpu].doorbells;
        break;
      case kMmapTypeEvents:
        if (length != kEventPageSize) return unexpected(-EINVAL);
        if (!p.signal_slots) return unexpected(-ENOMEM);
        if (p.own_event_page) {
          src.fd = p.own_event_page->fd();
        } else {
          src.fd = d.gtt.fd();
          src.offset = reinterpret_cast<uint8_t*>(p.signal_slots) - d.gtt.at(0);
        }
        break;
      case kMmapTypeMmio:
        if (!gpu_ok) return unexpected(-ENODEV);
        if (length != 4096) return unexpected(-EINVAL);
        src.fd = d.gpus[gpu]->mmio.fd();
        break;
      default: return unexpected(gpu_ok ? -EINVAL : -ENODEV);  // no reserved memory on this GPU
    }
  } else {
    // Render node: the buffer objects of the process that bound this node's VM (KFD-MEM-7).
    Process* owner = nullptr;
    if (it->second.bound_kfd >= 0) {
      auto pit = d.processes.find(it->second.bound_kfd);
      if (pit != d.processes.end()) owner = pit->second.get();
    }
    const BufferObject* found = nullptr;
    if (owner)
      for (const auto& [idr, bo] : owner->bos)
        if ((bo.kind == BoKind::Vram || bo.kind == BoKind::Gtt) && off >= bo.mmap_offset &&
            off - bo.mmap_offset < bo.size)
          found = &bo;
    if (!found) {
      bool elsewhere = false;
      for (const auto& [pfd, p] : d.processes)
        for (const auto& [idr, bo] : p->bos) elsewhere |= (bo.mmap_offset == off && bo.mmap_offset != 0);
      return unexpected(elsewhere ? -EACCES : -EINVAL);
    }
    if (length > found->size - (off - found->mmap_offset)) return unexpected(-EINVAL);
    const HostArena& pool = found->kind == BoKind::Vram ? d.gpus[found->gpu]->vram : d.gtt;
    src.fd = pool.fd();
    src.offset = found->arena_offset + (off - found->mmap_offset);
  }
  return src;
}

Expected<void*, int> KfdDevice::mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  if (remote_) return remote_->mmap(addr, length, prot, flags, fd, offset);
  DeviceState& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  const auto src = mmap_source_locked(fd, length, addr != nullptr || (flags & MAP_FIXED), offset);
  if (!src) return unexpected(src.error());
  if (src->driver_view) {  // KFD-DB-3: every unplaced map of the doorbell page is the driver's page
    auto [m, fresh] = d.cpu_mappings.try_emplace(reinterpret_cast<uintptr_t>(src->view));
    if (fresh) m->second = CpuMapping{length, src->view_owner, 1};
    else ++m->second.refs;
    return src->view;
  }
  void* r = ::mmap(addr, length, prot, flags, src->fd, static_cast<off_t>(src->offset));
  if (r == MAP_FAILED) return unexpected(-errno);
  d.cpu_mappings[reinterpret_cast<uintptr_t>(r)] = CpuMapping{length};
  return r;
}

int KfdDevice::munmap(void* addr, size_t length) {
  if (remote_) return remote_->munmap(addr, length);
  DeviceState& d = *impl_;
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.cpu_mappings.find(reinterpret_cast<uintptr_t>(addr));
  if (it == d.cpu_mappings.end()) return -EINVAL;
  if (it->second.shared_page) {  // the driver's own page: drop the reference, keep the mapping
    if (--it->second.refs == 0) d.cpu_mappings.erase(it);
    return 0;
  }
  const size_t len = length ? length : it->second.length;
  if (::munmap(addr, len) != 0) return -errno;
  d.cpu_mappings.erase(it);
  return 0;
}

bool KfdDevice::owns_fd(int fd) const {
  if (remote_) return remote_->owns_fd(fd);
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->fds.count(fd) != 0;
}

std::optional<uint32_t> KfdDevice::render_minor(int fd) const {
  if (remote_) return remote_->render_minor(fd);
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto it = impl_->fds.find(fd);
  if (it == impl_->fds.end() || it->second.kind != FdEntry::Kind::Render) return std::nullopt;
  return it->second.minor;
}

bool KfdDevice::owns_mapping(const void* addr) const {
  if (remote_) return remote_->owns_mapping(addr);
  std::lock_guard<std::mutex> lock(impl_->mu);
  const auto a = reinterpret_cast<uintptr_t>(addr);
  auto it = impl_->cpu_mappings.upper_bound(a);
  if (it == impl_->cpu_mappings.begin()) return false;
  --it;
  return a < it->first + it->second.length;
}

uint64_t KfdDevice::gpuvm_pte(uint64_t va) const {
  if (remote_) return 0;  // the page tables are the daemon's
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (const auto& [fd, p] : impl_->processes) {
    if (p->closed) continue;
    for (const ProcessDevice& pd : p->pdd)
      if (const uint64_t pte = pd.vm ? pd.vm->pte(va) : 0; pte & gpu::vm::kPteValid) return pte;
  }
  return 0;
}

uint64_t KfdDevice::gpuvm_pte(uint64_t va, uint32_t gpu) const {
  if (remote_) return 0;
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (const auto& [fd, p] : impl_->processes) {
    if (p->closed || gpu >= p->pdd.size() || !p->pdd[gpu].vm) continue;
    if (const uint64_t pte = p->pdd[gpu].vm->pte(va); pte & gpu::vm::kPteValid) return pte;
  }
  return 0;
}

int KfdDevice::evict_process_queues(int fd) {
  if (remote_) return -ENODEV;  // the driver's own entry point: the daemon's, not a client's
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->processes.find(fd);
  if (it == impl_->processes.end() || it->second->closed) return -EBADF;
  impl_->evict_process_queues_locked(*it->second);
  return 0;
}

int KfdDevice::restore_process_queues(int fd) {
  if (remote_) return -ENODEV;  // the driver's own entry point: the daemon's, not a client's
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->processes.find(fd);
  if (it == impl_->processes.end() || it->second->closed) return -EBADF;
  return impl_->restore_process_queues_locked(*it->second);
}

std::optional<std::string> KfdDevice::read_sysfs(std::string_view path) const {
  return remote_ ? remote_->read_sysfs(path) : impl_->topology.read(path);
}

std::optional<std::vector<std::string>> KfdDevice::list_sysfs(std::string_view dir) const {
  return remote_ ? remote_->list_sysfs(dir) : impl_->topology.list(dir);
}

std::optional<std::string> KfdDevice::link_sysfs(std::string_view path) const {
  return remote_ ? remote_->link_sysfs(path) : impl_->topology.link(path);
}

}  // namespace rocref::kfd
