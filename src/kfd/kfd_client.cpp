// kfd/kfd_client.cpp - the process's half of the shared model (see kfd_client.h).
#include "kfd/kfd_client.h"

#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/own_memory.h"
#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"
#include "kfd/kfd_wire.h"
#include "kfd/topology.h"
#include "kfd/user_copy.h"
#include "kfd/userptr_pin.h"

namespace rocref::kfd {
namespace {

using wire::Op;

void close_fd(int fd) { ::syscall(SYS_close, fd); }

int64_t result_rc(const std::vector<uint8_t>& body, wire::ResultHead* head = nullptr) {
  wire::ResultHead h;
  if (body.size() < sizeof h) return -EIO;
  std::memcpy(&h, body.data(), sizeof h);
  if (head) *head = h;
  return h.rc;
}

// KFD-MP-2: a pin asked by the daemon. The pin is made here, in the address space that owns the
// pages (kfd/userptr_pin.h moves private pages into a memfd); its view's mappings name the files
// behind the range, which go to the daemon (/proc/self/map_files). The view here is dropped: the
// user's range and the daemon's view keep the pages.
int serve_pin(uint64_t user, uint64_t size, bool writable, std::vector<wire::PinPiece>* pieces, std::vector<int>* fds) {
  std::unique_ptr<UserptrPin> pin;
  if (const int err = UserptrPin::create(user, size, writable, &pin)) return err;
  const uint64_t lo = reinterpret_cast<uintptr_t>(pin->host()), hi = lo + size;
  const std::string maps = read_own_maps();
  uint64_t covered = lo;
  size_t at = 0;
  int rc = 0;
  while (at < maps.size() && rc == 0) {
    size_t eol = maps.find('\n', at);
    if (eol == std::string::npos) eol = maps.size();
    unsigned long long start = 0, end = 0, offset = 0;
    char perms[8] = {};
    const std::string line = maps.substr(at, eol - at);
    at = eol + 1;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx", &start, &end, perms, &offset) != 4) continue;
    if (end <= lo || start >= hi) continue;
    if (start > covered || pieces->size() >= wire::kMaxFds) {
      rc = -EFAULT;
      break;
    }
    char path[96];
    std::snprintf(path, sizeof path, "/proc/self/map_files/%llx-%llx", start, end);
    int fd = static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC));
    if (fd < 0) fd = static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
    if (fd < 0) {
      rc = -EFAULT;  // the file behind the range cannot be handed over
      break;
    }
    const uint64_t plo = std::max<uint64_t>(start, lo), phi = std::min<uint64_t>(end, hi);
    pieces->push_back(wire::PinPiece{plo - lo, phi - plo, offset + (plo - start)});
    fds->push_back(fd);
    covered = phi;
  }
  if (rc == 0 && covered < hi) rc = -EFAULT;
  if (rc != 0) {
    for (int fd : *fds) close_fd(fd);
    fds->clear();
    pieces->clear();
  }
  return rc;
}

bool serve_memory(int sock, Op op, const std::vector<uint8_t>& body) {
  wire::MemArgs a;
  if (body.size() < sizeof a) return false;
  std::memcpy(&a, body.data(), sizeof a);
  int64_t rc = -EFAULT;
  switch (op) {
    case Op::MemRead: {
      if (a.size > wire::kMaxFrame - sizeof rc) return false;
      std::vector<uint8_t> bytes(a.size);
      rc = own_copy_from_user(bytes.data(), a.addr, a.size);
      return wire::send_frame(sock, Op::MemReply, {{&rc, sizeof rc}, {bytes.data(), rc == 0 ? bytes.size() : 0}});
    }
    case Op::MemWrite:
      if (body.size() - sizeof a != a.size) return false;
      rc = own_copy_to_user(a.addr, body.data() + sizeof a, a.size);
      return wire::send_frame(sock, Op::MemReply, {{&rc, sizeof rc}});
    case Op::MemCheck:
      rc = (a.kind == 0 ? own_range_mapped(a.addr, a.size) : own_range_has_vmas(a.addr, a.size)) ? 1 : 0;
      return wire::send_frame(sock, Op::MemReply, {{&rc, sizeof rc}});
    case Op::Pin: {
      std::vector<wire::PinPiece> pieces;
      std::vector<int> fds;
      rc = serve_pin(a.addr, a.size, a.kind != 0, &pieces, &fds);
      const bool ok =
          wire::send_frame(sock, Op::MemReply,
                           {{&rc, sizeof rc}, {pieces.data(), pieces.size() * sizeof(wire::PinPiece)}}, fds);
      for (int fd : fds) close_fd(fd);
      return ok;
    }
    default: return false;
  }
}

}  // namespace

RemoteKfd::RemoteKfd(std::string socket_path) : path_(std::move(socket_path)), pid_(static_cast<int>(::getpid())) {}

RemoteKfd::~RemoteKfd() {
  for (int s : call_pool_) close_fd(s);
}

const Topology* RemoteKfd::topology() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!hello_done_) {
    hello_done_ = true;
    const int s = wire::connect_socket(path_.c_str());
    Op op;
    std::vector<uint8_t> body;
    if (s >= 0 && wire::send_frame(s, Op::Hello, {}) && wire::recv_frame(s, &op, &body) && op == Op::Result) {
      const int64_t n = result_rc(body);
      if (n >= 1 && n <= kMaxGpus) {
        gpus_ = static_cast<uint32_t>(n);
        topology_ = std::make_unique<Topology>(machine_gpus(gpus_));
      }
    }
    if (s >= 0) close_fd(s);
  }
  return topology_.get();
}

uint32_t RemoteKfd::gpu_count() {
  topology();
  return gpus_;
}

int RemoteKfd::open_session(bool render, uint32_t minor) {
  if (!topology()) return -ENOENT;  // no daemon answers: as a machine without the driver
  const int s = wire::connect_socket(path_.c_str());
  if (s < 0) return -ENOENT;
  Op op;
  std::vector<uint8_t> body;
  const bool sent =
      render ? wire::send_frame(s, Op::OpenRender, {{&minor, sizeof minor}}) : wire::send_frame(s, Op::OpenKfd, {});
  if (!sent || !wire::recv_frame(s, &op, &body) || op != Op::Result) {
    close_fd(s);
    return -EIO;
  }
  const int64_t rc = result_rc(body);
  if (rc < 0) {
    close_fd(s);
    return static_cast<int>(rc);
  }
  std::lock_guard<std::mutex> lock(mu_);
  const int fd = KfdDevice::kFirstFd + next_fd_++;
  fds_[fd] = Descriptor{static_cast<int>(rc), s, render, minor, false};
  return fd;
}

int RemoteKfd::open_kfd() { return open_session(false, 0); }
int RemoteKfd::open_render(uint32_t minor) { return open_session(true, minor); }

int RemoteKfd::close(int fd) {
  Descriptor d;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = fds_.find(fd);
    if (it == fds_.end()) return -EBADF;
    d = it->second;
    fds_.erase(it);
  }
  if (d.session < 0) return 0;
  // The release is done when the daemon answers (a later AVAILABLE_MEMORY sees it).
  Op op;
  std::vector<uint8_t> body;
  if (wire::send_frame(d.session, Op::Close, {})) wire::recv_frame(d.session, &op, &body);
  close_fd(d.session);
  return 0;
}

int RemoteKfd::take_call_socket() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!call_pool_.empty()) {
      const int s = call_pool_.back();
      call_pool_.pop_back();
      return s;
    }
  }
  return wire::connect_socket(path_.c_str());
}

void RemoteKfd::give_call_socket(int sock) {
  std::lock_guard<std::mutex> lock(mu_);
  call_pool_.push_back(sock);
}

bool RemoteKfd::call(int sock, uint32_t op, const void* head, size_t head_size, const void* data, size_t size,
                     std::vector<uint8_t>* answer, std::vector<int>* fds) {
  if (!wire::send_frame(sock, static_cast<Op>(op), {{head, head_size}, {data, size}})) return false;
  for (;;) {
    Op got;
    if (!wire::recv_frame(sock, &got, answer, fds)) return false;
    if (got == Op::Result) return true;
    if (!serve_memory(sock, got, *answer)) return false;
  }
}

int RemoteKfd::ioctl(int fd, unsigned long request, void* arg) {
  Descriptor d;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = fds_.find(fd);
    if (it == fds_.end()) return -EBADF;
    d = it->second;
  }
  // KFD-MP-4: amdkfd refuses a kfd_process used from another mm.
  if (d.inherited && !kfd_mutant_active(KfdMutant::SharedForkKeepsConnection)) return -EBADF;
  // The argument as amdkfd copies it in: _IOC_SIZE bytes (none readable: the daemon's copy faults).
  const size_t usize = _IOC_SIZE(request);
  const uint64_t uarg = reinterpret_cast<uintptr_t>(arg);
  std::vector<uint8_t> window(usize);
  if (usize == 0 || uarg == 0 || !read_own_memory(window.data(), arg, usize)) window.clear();
  // ACQUIRE_VM names a render descriptor: this process's number becomes the daemon's.
  if (!d.render && _IOC_NR(request) == _IOC_NR(AMDKFD_IOC_ACQUIRE_VM) &&
      window.size() >= sizeof(kfd_ioctl_acquire_vm_args)) {
    kfd_ioctl_acquire_vm_args a;
    std::memcpy(&a, window.data(), sizeof a);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = fds_.find(static_cast<int>(a.drm_fd));
    a.drm_fd = (it != fds_.end() && it->second.render) ? static_cast<uint32_t>(it->second.daemon_fd) : ~0u;
    std::memcpy(window.data(), &a, sizeof a);
  }
  const wire::CallArgs head{d.daemon_fd, static_cast<uint32_t>(window.size()), request, uarg};
  const int sock = take_call_socket();
  if (sock < 0) return -EIO;
  std::vector<uint8_t> answer;
  if (!call(sock, static_cast<uint32_t>(Op::Call), &head, sizeof head, window.data(), window.size(), &answer,
            nullptr)) {
    close_fd(sock);
    return -EIO;
  }
  give_call_socket(sock);
  wire::ResultHead h;
  int rc = static_cast<int>(result_rc(answer, &h));
  if (h.written != 0) {
    if (h.written != window.size() || answer.size() != sizeof h + h.written) return -EIO;
    if (!write_own_memory(arg, answer.data() + sizeof h, h.written)) rc = -EFAULT;
  }
  return rc;
}

Expected<void*, int> RemoteKfd::mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) {
  Descriptor d;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = fds_.find(fd);
    if (it == fds_.end()) return unexpected(-EBADF);
    d = it->second;
  }
  if (d.inherited && !kfd_mutant_active(KfdMutant::SharedForkKeepsConnection)) return unexpected(-EBADF);
  const bool placed = addr != nullptr || (flags & MAP_FIXED);
  const std::pair<int, uint64_t> key{fd, static_cast<uint64_t>(offset)};
  const wire::MmapArgs head{d.daemon_fd, placed ? 1u : 0u, length, static_cast<uint64_t>(offset)};
  const int sock = take_call_socket();
  if (sock < 0) return unexpected(-EIO);
  std::vector<uint8_t> answer;
  std::vector<int> fds;
  if (!call(sock, static_cast<uint32_t>(Op::Mmap), &head, sizeof head, nullptr, 0, &answer, &fds)) {
    close_fd(sock);
    for (int f : fds) close_fd(f);
    return unexpected(-EIO);
  }
  give_call_socket(sock);
  const int64_t rc = result_rc(answer);
  wire::MmapAnswer a;
  if (rc < 0 || fds.size() != 1 || answer.size() != sizeof(wire::ResultHead) + sizeof a) {
    for (int f : fds) close_fd(f);
    return unexpected(rc < 0 ? static_cast<int>(rc) : -EIO);
  }
  std::memcpy(&a, answer.data() + sizeof(wire::ResultHead), sizeof a);
  std::lock_guard<std::mutex> lock(mu_);
  if (a.driver_view) {  // KFD-DB-3: one view of the doorbell page for every unplaced map
    if (auto v = views_.find(key); v != views_.end()) {
      close_fd(fds[0]);
      ++mappings_[v->second].refs;
      return reinterpret_cast<void*>(v->second);
    }
  }
  void* r = a.driver_view
                ? ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], static_cast<off_t>(a.offset))
                : ::mmap(addr, length, prot, flags, fds[0], static_cast<off_t>(a.offset));
  const int err = errno;
  close_fd(fds[0]);
  if (r == MAP_FAILED) return unexpected(-err);
  Mapping m;
  m.length = length;
  if (a.driver_view) {
    m.view_key = key;
    views_[key] = reinterpret_cast<uintptr_t>(r);
  }
  mappings_[reinterpret_cast<uintptr_t>(r)] = m;
  return r;
}

int RemoteKfd::munmap(void* addr, size_t length) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = mappings_.find(reinterpret_cast<uintptr_t>(addr));
  if (it == mappings_.end()) return -EINVAL;
  if (it->second.view_key.first >= 0) {
    if (--it->second.refs > 0) return 0;
    views_.erase(it->second.view_key);
  }
  const size_t len = length ? length : it->second.length;
  if (::munmap(addr, len) != 0) return -errno;
  mappings_.erase(it);
  return 0;
}

bool RemoteKfd::owns_fd(int fd) const {
  std::lock_guard<std::mutex> lock(mu_);
  return fds_.count(fd) != 0;
}

std::optional<uint32_t> RemoteKfd::render_minor(int fd) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = fds_.find(fd);
  if (it == fds_.end() || !it->second.render) return std::nullopt;
  return it->second.minor;
}

bool RemoteKfd::owns_mapping(const void* addr) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto a = reinterpret_cast<uintptr_t>(addr);
  auto it = mappings_.upper_bound(a);
  if (it == mappings_.begin()) return false;
  --it;
  return a < it->first + it->second.length;
}

std::optional<std::string> RemoteKfd::read_sysfs(std::string_view path) {
  const Topology* t = topology();
  return t ? t->read(path) : std::nullopt;
}

std::optional<std::vector<std::string>> RemoteKfd::list_sysfs(std::string_view dir) {
  const Topology* t = topology();
  return t ? t->list(dir) : std::nullopt;
}

std::optional<std::string> RemoteKfd::link_sysfs(std::string_view path) {
  const Topology* t = topology();
  return t ? t->link(path) : std::nullopt;
}

// KFD-MP-4: runs in the child. Its inherited descriptors stay numbers the process holds (so
// close works) but no ioctl or mmap of them reaches the daemon; the sockets are the parent's
// (its release must not wait for this child), so the child's copies close now.
void RemoteKfd::after_fork() {
  if (kfd_mutant_active(KfdMutant::SharedForkKeepsConnection)) return;
  std::lock_guard<std::mutex> lock(mu_);
  pid_ = static_cast<int>(::getpid());
  for (auto& [fd, d] : fds_) {
    d.inherited = true;
    if (d.session >= 0) close_fd(d.session);
    d.session = -1;
  }
  for (int s : call_pool_) close_fd(s);
  call_pool_.clear();
}

}  // namespace rocref::kfd
