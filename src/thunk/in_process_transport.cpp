// thunk/in_process_transport.cpp - the transport that calls the KFD model in this process.
#include <sys/mman.h>

#include <cerrno>

#include "kfd/kfd_device.h"
#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

class InProcessTransport final : public Transport {
 public:
  int open_kfd() override { return device().open_kfd(); }
  int open_render(uint32_t minor) override { return device().open_render(minor); }
  int close(int fd) override { return device().close(fd); }
  int ioctl(int fd, unsigned long request, void* arg) override { return device().ioctl(fd, request, arg); }
  Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) override {
    return device().mmap(addr, length, prot, flags, fd, offset);
  }
  int munmap(void* addr, size_t length) override { return device().munmap(addr, length); }
  std::optional<std::string> read_file(std::string_view path) override { return device().read_sysfs(path); }
  std::optional<std::vector<std::string>> list_dir(std::string_view path) override {
    return device().list_sysfs(path);
  }

 private:
  static kfd::KfdDevice& device() { return kfd::KfdDevice::instance(); }
};

}  // namespace

std::unique_ptr<Transport> make_in_process_transport() { return std::make_unique<InProcessTransport>(); }

}  // namespace rocref::thunk
