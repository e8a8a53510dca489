// kfd/kfd_server.cpp - the daemon side of the shared model (see kfd_server.h).
#include "kfd/kfd_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "common/log.h"
#include "common/own_memory.h"
#include "kfd/kfd_device.h"
#include "kfd/kfd_mutant.h"
#include "kfd/kfd_wire.h"
#include "kfd/user_copy.h"
#include "kfd/userptr_pin.h"

namespace rocref::kfd {
namespace {

using wire::Op;

int peer_pid(int sock) {
  ucred c{};
  socklen_t len = sizeof c;
  return ::getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &c, &len) == 0 ? c.pid : -1;
}

bool reply(int sock, int64_t rc, const void* extra = nullptr, size_t extra_size = 0, const std::vector<int>& fds = {}) {
  const wire::ResultHead head{rc, 0, 0};
  return wire::send_frame(sock, Op::Result, {{&head, sizeof head}, {extra, extra_size}}, fds);
}

// KFD-MP-2: the memory of the process at the other end of a call connection. The ioctl's
// argument struct came with the call (the window: amdkfd's kdata copy of _IOC_SIZE bytes), so
// the dispatcher's copy in and out of it costs no round trip; every other user pointer is a
// question to the caller, which waits for its ioctl's answer and serves them meanwhile.
class CallerMemory final : public UserMemory {
 public:
  CallerMemory(int sock, uint64_t window_addr, std::vector<uint8_t> window, bool has_window)
      : sock_(sock), window_addr_(window_addr), window_(std::move(window)), has_window_(has_window) {}

  int read(void* dst, uint64_t src, size_t size) noexcept override {
    if (in_window(src, size)) {
      std::memcpy(dst, window_.data() + (src - window_addr_), size);
      return 0;
    }
    if (kfd_mutant_active(KfdMutant::SharedCopiesOwnMemory)) return own_copy_from_user(dst, src, size);
    const wire::MemArgs a{src, size, 0, 0};
    std::vector<uint8_t> body;
    if (!ask(Op::MemRead, a, nullptr, 0, &body)) return -EFAULT;
    if (rc_of(body) != 0 || body.size() != sizeof(int64_t) + size) return -EFAULT;
    std::memcpy(dst, body.data() + sizeof(int64_t), size);
    return 0;
  }

  int write(uint64_t dst, const void* src, size_t size) noexcept override {
    if (in_window(dst, size)) {
      std::memcpy(window_.data() + (dst - window_addr_), src, size);
      written_ = true;
      return 0;
    }
    if (kfd_mutant_active(KfdMutant::SharedCopiesOwnMemory)) return own_copy_to_user(dst, src, size);
    const wire::MemArgs a{dst, size, 0, 0};
    std::vector<uint8_t> body;
    if (!ask(Op::MemWrite, a, src, size, &body) || rc_of(body) != 0) return -EFAULT;
    // The part of a longer write that lies in the window: the window is copied back last.
    if (has_window_) {
      const uint64_t lo = std::max(dst, window_addr_), hi = std::min(dst + size, window_addr_ + window_.size());
      if (lo < hi)
        std::memcpy(window_.data() + (lo - window_addr_), static_cast<const uint8_t*>(src) + (lo - dst), hi - lo);
    }
    return 0;
  }

  bool range_mapped(uint64_t addr, uint64_t size) noexcept override { return check(addr, size, 0); }
  bool range_has_vmas(uint64_t addr, uint64_t size) noexcept override { return check(addr, size, 1); }

  // The caller pins its own pages (it owns the address space: kfd/userptr_pin.h runs there) and
  // hands over the memfds behind them; the driver's view is this process's mapping of those.
  int pin(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) noexcept override {
    const wire::MemArgs a{user, size, writable ? 1u : 0u, 0};
    std::vector<uint8_t> body;
    std::vector<int> fds;
    if (!ask(Op::Pin, a, nullptr, 0, &body, &fds)) return close_all(fds, -EFAULT);
    const int64_t rc = rc_of(body);
    const size_t n = (body.size() - sizeof(int64_t)) / sizeof(wire::PinPiece);
    if (rc != 0) return close_all(fds, static_cast<int>(rc));
    if (n != fds.size() || n == 0) return close_all(fds, -EFAULT);
    void* reserved = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED) return close_all(fds, -ENOMEM);
    auto* view = static_cast<uint8_t*>(reserved);
    for (size_t i = 0; i < n; ++i) {
      wire::PinPiece piece;
      std::memcpy(&piece, body.data() + sizeof(int64_t) + i * sizeof piece, sizeof piece);
      if (piece.offset > size || piece.length > size - piece.offset) return close_all(fds, fail_view(view, size));
      void* at = view + piece.offset;
      const auto off = static_cast<off_t>(piece.file_offset);
      if (::mmap(at, piece.length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fds[i], off) == MAP_FAILED &&
          ::mmap(at, piece.length, PROT_READ, MAP_SHARED | MAP_FIXED, fds[i], off) == MAP_FAILED) {
        return close_all(fds, fail_view(view, size));
      }
    }
    close_all(fds, 0);
    *out = UserptrPin::adopt(user, size, view);
    return 0;
  }

  bool written() const noexcept { return written_; }
  const std::vector<uint8_t>& window() const noexcept { return window_; }
  bool broken() const noexcept { return broken_; }

 private:
  bool in_window(uint64_t addr, size_t size) const noexcept {
    return has_window_ && addr >= window_addr_ && size <= window_.size() &&
           addr - window_addr_ <= window_.size() - size;
  }
  static int64_t rc_of(const std::vector<uint8_t>& body) noexcept {
    int64_t rc = -EFAULT;
    if (body.size() >= sizeof rc) std::memcpy(&rc, body.data(), sizeof rc);
    return rc;
  }
  static int close_all(std::vector<int>& fds, int rc) noexcept {
    for (int fd : fds) ::close(fd);
    fds.clear();
    return rc;
  }
  static int fail_view(void* view, size_t size) noexcept {
    ::munmap(view, size);
    return -EFAULT;
  }
  bool check(uint64_t addr, uint64_t size, uint32_t kind) noexcept {
    if (kfd_mutant_active(KfdMutant::SharedCopiesOwnMemory))
      return kind == 0 ? own_range_mapped(addr, size) : own_range_has_vmas(addr, size);
    const wire::MemArgs a{addr, size, kind, 0};
    std::vector<uint8_t> body;
    return ask(Op::MemCheck, a, nullptr, 0, &body) && rc_of(body) == 1;
  }
  bool ask(Op op, const wire::MemArgs& a, const void* data, size_t size, std::vector<uint8_t>* body,
           std::vector<int>* fds = nullptr) noexcept {
    if (broken_) return false;
    Op got;
    if (!wire::send_frame(sock_, op, {{&a, sizeof a}, {data, size}}) || !wire::recv_frame(sock_, &got, body, fds) ||
        got != Op::MemReply) {
      broken_ = true;  // the caller is gone: its copies fail, the call ends, the session releases it
      return false;
    }
    return true;
  }

  int sock_;
  uint64_t window_addr_;
  std::vector<uint8_t> window_;
  bool has_window_;
  bool written_ = false;
  bool broken_ = false;
};

}  // namespace

KfdServer::KfdServer(KfdDevice& device, std::string socket_path) : device_(device), path_(std::move(socket_path)) {}

KfdServer::~KfdServer() {
  stop();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

int KfdServer::listen() {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (path_.size() >= sizeof a.sun_path) return -ENAMETOOLONG;
  std::strcpy(a.sun_path, path_.c_str());
  // Two daemons started at once for one socket: the lock orders their probe, unlink and bind, so
  // the second finds the first answering instead of unlinking its socket (two machines).
  const std::string lock_path = path_ + ".lock";
  const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  const auto unlock = [lock] {
    if (lock >= 0) ::close(lock);
  };
  const int probe = wire::connect_socket(path_.c_str());
  if (probe >= 0) {  // a daemon answers there already
    ::close(probe);
    unlock();
    return -EADDRINUSE;
  }
  ::unlink(path_.c_str());  // a socket file left by a daemon that died
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) {
    const int e = errno;
    unlock();
    return -e;
  }
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_fd_, 64) != 0) {
    const int e = errno;
    ::close(listen_fd_);
    listen_fd_ = -1;
    unlock();
    return -e;
  }
  unlock();
  last_active_ = std::chrono::steady_clock::now();
  return 0;
}

void KfdServer::reap() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int s : finished_) {
      auto it = threads_.find(s);
      if (it != threads_.end()) {
        done.push_back(std::move(it->second));
        threads_.erase(it);
      }
      ::close(s);
    }
    finished_.clear();
  }
  for (std::thread& t : done) t.join();
}

void KfdServer::run(std::chrono::milliseconds idle) {
  while (!stopping_.load()) {
    pollfd p{listen_fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, 200);
    reap();
    if (r > 0 && (p.revents & POLLIN)) {
      const int s = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (s < 0) continue;
      std::lock_guard<std::mutex> lock(mu_);
      ++connections_;
      threads_.emplace(s, std::thread([this, s] { serve(s); }));
      continue;
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (connections_ == 0 && idle.count() > 0 && std::chrono::steady_clock::now() - last_active_ >= idle) break;
  }
}

void KfdServer::stop() {
  stopping_.store(true);
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [s, t] : threads_) ::shutdown(s, SHUT_RDWR);
  }
  for (;;) {
    std::thread t;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (threads_.empty()) break;
      auto it = threads_.begin();
      ::shutdown(it->first, SHUT_RDWR);
      t = std::move(it->second);
      threads_.erase(it);
    }
    if (t.joinable()) t.join();
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (int s : finished_) ::close(s);
  finished_.clear();
}

size_t KfdServer::open_sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return session_pid_.size();
}

void KfdServer::serve(int sock) {
  const int pid = peer_pid(sock);
  Op op;
  std::vector<uint8_t> body;
  if (wire::recv_frame(sock, &op, &body)) {
    switch (op) {
      case Op::Hello: reply(sock, device_.gpu_count()); break;
      case Op::OpenKfd: serve_session(sock, pid, true, 0); break;
      case Op::OpenRender: {
        uint32_t minor = 0;
        if (body.size() == sizeof minor) std::memcpy(&minor, body.data(), sizeof minor);
        serve_session(sock, pid, false, minor);
        break;
      }
      case Op::Call:
      case Op::Mmap: serve_calls(sock, pid, op, std::move(body)); break;
      default: break;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  --connections_;
  last_active_ = std::chrono::steady_clock::now();
  finished_.push_back(sock);
}

void KfdServer::serve_session(int sock, int pid, bool kfd, uint32_t minor) {
  const int fd = kfd ? device_.open_kfd() : device_.open_render(minor);
  if (fd >= 0) {
    std::lock_guard<std::mutex> lock(mu_);
    session_pid_[fd] = pid;
  }
  if (!reply(sock, fd) || fd < 0) {
    if (fd >= 0) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        session_pid_.erase(fd);
      }
      device_.close(fd);
    }
    return;
  }
  // The session lasts as long as the process's descriptor: an explicit Close answers when the
  // release is done; the socket's end (exit, kill -9) is the same release (KFD-MP-3).
  Op op;
  std::vector<uint8_t> body;
  bool closed_by_request = false;
  while (wire::recv_frame(sock, &op, &body)) {
    if (op == Op::Close) {
      closed_by_request = true;
      break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    session_pid_.erase(fd);
  }
  if (closed_by_request || !kfd_mutant_active(KfdMutant::SharedEndKeepsProcess)) device_.close(fd);
  if (closed_by_request) reply(sock, 0);
}

void KfdServer::serve_calls(int sock, int pid, Op op, std::vector<uint8_t> body) {
  for (;;) {
    if (op == Op::Call && body.size() >= sizeof(wire::CallArgs)) {
      wire::CallArgs a;
      std::memcpy(&a, body.data(), sizeof a);
      const size_t window = body.size() - sizeof a;
      if (a.window != window) return;
      bool mine = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = session_pid_.find(a.fd);
        mine = it != session_pid_.end() && it->second == pid;
      }
      std::vector<uint8_t> bytes(body.begin() + sizeof a, body.end());
      CallerMemory memory(sock, a.arg, std::move(bytes), window != 0);
      int rc = -EBADF;  // KFD-MP-4: a descriptor of another process (a forked child's) is refused
      if (mine) {
        ScopedUserMemory scope(&memory);
        rc = device_.ioctl(a.fd, static_cast<unsigned long>(a.request), reinterpret_cast<void*>(a.arg));
      }
      if (memory.broken()) return;
      const wire::ResultHead head{rc, memory.written() ? static_cast<uint32_t>(memory.window().size()) : 0u, 0};
      if (!wire::send_frame(sock, Op::Result, {{&head, sizeof head}, {memory.window().data(), head.written}})) return;
    } else if (op == Op::Mmap && body.size() == sizeof(wire::MmapArgs)) {
      wire::MmapArgs a;
      std::memcpy(&a, body.data(), sizeof a);
      bool mine = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        const auto it = session_pid_.find(a.fd);
        mine = it != session_pid_.end() && it->second == pid;
      }
      const auto src = mine ? device_.mmap_source(a.fd, a.length, a.placed != 0, static_cast<off_t>(a.offset))
                            : Expected<KfdDevice::MmapSource, int>(unexpected(-EBADF));
      if (!src) {
        if (!reply(sock, src.error())) return;
      } else {
        const wire::MmapAnswer answer{src->offset, src->driver_view ? 1u : 0u, 0};
        if (!reply(sock, 0, &answer, sizeof answer, {src->fd})) return;
      }
    } else {
      return;
    }
    if (!wire::recv_frame(sock, &op, &body)) return;
  }
}

}  // namespace rocref::kfd
