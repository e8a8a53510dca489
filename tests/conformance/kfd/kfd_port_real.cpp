// tests/conformance/kfd/kfd_port_real.cpp - the port bound to a real /dev/kfd (system calls).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "kfd_port.h"

namespace kfdport {

int open_kfd() {
  const int fd = ::open("/dev/kfd", O_RDWR | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}
int open_render(uint32_t minor) {
  const int fd = ::open(("/dev/dri/renderD" + std::to_string(minor)).c_str(), O_RDWR | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}
int close(int fd) { return ::close(fd) == 0 ? 0 : -errno; }
int ioctl(int fd, unsigned long request, void* arg) { return ::ioctl(fd, request, arg) == 0 ? 0 : -errno; }
void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset, int* error) {
  void* p = ::mmap(addr, length, prot, flags, fd, offset);
  if (p == MAP_FAILED) {
    *error = -errno;
    return nullptr;
  }
  *error = 0;
  return p;
}
int munmap(void* addr, size_t length) { return ::munmap(addr, length) == 0 ? 0 : -errno; }
std::optional<std::string> read_sysfs(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
bool is_model() { return false; }

namespace {
// Without a device there is nothing to conform: every test is skipped, none fails.
class RealDeviceEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (::access("/dev/kfd", F_OK) != 0) GTEST_SKIP() << "no /dev/kfd on this machine";
  }
};
[[maybe_unused]] ::testing::Environment* const kRealDevice =
    ::testing::AddGlobalTestEnvironment(new RealDeviceEnvironment);
}  // namespace

}  // namespace kfdport
