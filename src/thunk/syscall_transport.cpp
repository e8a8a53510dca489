// thunk/syscall_transport.cpp - the transport that makes real system calls (a real /dev/kfd).
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

class SyscallTransport final : public Transport {
 public:
  int open_kfd() override { return retry_open("/dev/kfd"); }
  int open_render(uint32_t minor) override {
    return retry_open("/dev/dri/renderD" + std::to_string(minor));
  }
  int close(int fd) override { return ::close(fd) == 0 ? 0 : -errno; }
  // libhsakmt's kmtIoctl: restart on EINTR and EAGAIN.
  int ioctl(int fd, unsigned long request, void* arg) override {
    int rc;
    do {
      rc = ::ioctl(fd, request, arg);
    } while (rc == -1 && (errno == EINTR || errno == EAGAIN));
    return rc == -1 ? -errno : 0;
  }
  Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) override {
    void* p = ::mmap(addr, length, prot, flags, fd, offset);
    if (p == MAP_FAILED) return unexpected(-errno);
    return p;
  }
  int munmap(void* addr, size_t length) override { return ::munmap(addr, length) == 0 ? 0 : -errno; }
  std::optional<std::string> read_file(std::string_view path) override {
    const int fd = ::open(std::string(path).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string out;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
    }
    ::close(fd);
    return out;
  }
  std::optional<std::vector<std::string>> list_dir(std::string_view path) override {
    DIR* dir = ::opendir(std::string(path).c_str());
    if (!dir) return std::nullopt;
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(dir);
    return names;
  }

 private:
  static int retry_open(const std::string& path) {
    int fd;
    do {
      fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd < 0 ? -errno : fd;
  }
};

}  // namespace

std::unique_ptr<Transport> make_syscall_transport() { return std::make_unique<SyscallTransport>(); }

}  // namespace rocref::thunk
