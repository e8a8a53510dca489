// thunk/transport.h - how the thunk reaches a KFD: in-process model or real syscalls.
//
// The same hsakmt.h implementation runs on the KFD model (InProcessTransport,
// the default) and on a real /dev/kfd (SyscallTransport). Calls mirror the
// system calls the real libhsakmt makes; errors come back as -errno.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"

namespace rocref::thunk {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int open_kfd() = 0;                                   // fd or -errno
  virtual int open_render(uint32_t minor) = 0;                  // fd or -errno
  virtual int close(int fd) = 0;
  virtual int ioctl(int fd, unsigned long request, void* arg) = 0;  // 0 or -errno
  // The mapped address or -errno.
  virtual Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) = 0;
  virtual int munmap(void* addr, size_t length) = 0;
  virtual std::optional<std::string> read_file(std::string_view path) = 0;
  virtual std::optional<std::vector<std::string>> list_dir(std::string_view path) = 0;
};

std::unique_ptr<Transport> make_in_process_transport();
std::unique_ptr<Transport> make_syscall_transport();

// The transport hsaKmtOpenKFD uses: ROCREF_KFD=real selects syscalls, anything else the model.
Transport& active_transport();

// Replaces the transport hsaKmtOpenKFD uses (a fake in unit tests); nullptr restores the
// default. Takes effect at the next open of a closed thunk.
void set_active_transport(Transport* transport);

}  // namespace rocref::thunk
