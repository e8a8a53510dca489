// tests/conformance/kfd/kfd_port_model.cpp - the port bound to rocref's KFD model.
#include "kfd_port.h"

#include "kfd/kfd_device.h"

namespace kfdport {
namespace {
rocref::kfd::KfdDevice& dev() { return rocref::kfd::KfdDevice::instance(); }
}  // namespace

int open_kfd() { return dev().open_kfd(); }
int open_render(uint32_t minor) { return dev().open_render(minor); }
int close(int fd) { return dev().close(fd); }
int ioctl(int fd, unsigned long request, void* arg) { return dev().ioctl(fd, request, arg); }
void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset, int* error) {
  const rocref::Expected<void*, int> mapped = dev().mmap(addr, length, prot, flags, fd, offset);
  if (error) *error = mapped ? 0 : mapped.error();
  return mapped.value_or(nullptr);
}
int munmap(void* addr, size_t length) { return dev().munmap(addr, length); }
std::optional<std::string> read_sysfs(const std::string& path) { return dev().read_sysfs(path); }
bool is_model() { return true; }

}  // namespace kfdport
