// kfd/kfd_wire.cpp - framing of the shared model's messages over a unix stream socket.
#include "kfd/kfd_wire.h"

#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

namespace rocref::kfd::wire {
namespace {

// Raw system calls: under the interposer the libc entry points may be hooked.
ssize_t sys_sendmsg(int sock, const msghdr* m) { return ::syscall(SYS_sendmsg, sock, m, MSG_NOSIGNAL); }
ssize_t sys_recvmsg(int sock, msghdr* m) { return ::syscall(SYS_recvmsg, sock, m, MSG_CMSG_CLOEXEC); }

bool write_all(int sock, const iovec* iov_in, size_t n, const std::vector<int>& fds) {
  std::vector<iovec> iov(iov_in, iov_in + n);
  size_t first = 0;
  bool fds_sent = fds.empty();
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
  while (first < iov.size()) {
    msghdr m{};
    m.msg_iov = iov.data() + first;
    m.msg_iovlen = iov.size() - first;
    if (!fds_sent) {
      m.msg_control = control;
      m.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&m);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    const ssize_t w = sys_sendmsg(sock, &m);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    fds_sent = true;
    size_t left = static_cast<size_t>(w);
    while (first < iov.size() && left >= iov[first].iov_len) left -= iov[first++].iov_len;
    if (first < iov.size()) {
      iov[first].iov_base = static_cast<char*>(iov[first].iov_base) + left;
      iov[first].iov_len -= left;
    }
  }
  return true;
}

bool read_all(int sock, void* data, size_t size, std::vector<int>* fds) {
  auto* p = static_cast<char*>(data);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
  while (size > 0) {
    iovec iov{p, size};
    msghdr m{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    const ssize_t r = sys_recvmsg(sock, &m);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < n; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
        if (fds) fds->push_back(fd);
        else ::syscall(SYS_close, fd);
      }
    }
    p += r;
    size -= static_cast<size_t>(r);
  }
  return true;
}

}  // namespace

bool send_frame(int sock, Op op, std::initializer_list<Part> parts, const std::vector<int>& fds) noexcept {
  if (fds.size() > kMaxFds) return false;
  Frame f{static_cast<uint32_t>(op), 0};
  std::vector<iovec> iov;
  iov.push_back(iovec{&f, sizeof f});
  for (const Part& p : parts) {
    if (p.size == 0) continue;
    f.size += static_cast<uint32_t>(p.size);
    iov.push_back(iovec{const_cast<void*>(p.data), p.size});
  }
  return write_all(sock, iov.data(), iov.size(), fds);
}

bool recv_frame(int sock, Op* op, std::vector<uint8_t>* body, std::vector<int>* fds) noexcept {
  Frame f;
  if (!read_all(sock, &f, sizeof f, fds)) return false;
  if (f.size > kMaxFrame) return false;
  *op = static_cast<Op>(f.op);
  body->resize(f.size);
  return f.size == 0 || read_all(sock, body->data(), f.size, fds);
}

int connect_socket(const char* path) noexcept {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  if (std::strlen(path) >= sizeof a.sun_path) return -ENAMETOOLONG;
  std::strcpy(a.sun_path, path);
  const int s = static_cast<int>(::syscall(SYS_socket, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (s < 0) return -errno;
  if (::syscall(SYS_connect, s, &a, sizeof a) != 0) {
    const int e = errno;
    ::syscall(SYS_close, s);
    return -e;
  }
  return s;
}

}  // namespace rocref::kfd::wire
