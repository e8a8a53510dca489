// thunk/in_process_unavailable.cpp - the in-process transport when no KFD model is built in.
#include <cerrno>

#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

class NoModelTransport final : public Transport {
 public:
  int open_kfd() override { return -ENOENT; }  // what open("/dev/kfd") gives without a driver
  int open_render(uint32_t) override { return -ENOENT; }
  int close(int) override { return -EBADF; }
  int ioctl(int, unsigned long, void*) override { return -EBADF; }
  Expected<void*, int> mmap(void*, size_t, int, int, int, off_t) override { return unexpected(-EBADF); }
  int munmap(void*, size_t) override { return -EINVAL; }
  std::optional<std::string> read_file(std::string_view) override { return std::nullopt; }
  std::optional<std::vector<std::string>> list_dir(std::string_view) override { return std::nullopt; }
};

}  // namespace

std::unique_ptr<Transport> make_in_process_transport() { return std::make_unique<NoModelTransport>(); }

}  // namespace rocref::thunk
