// tests/conformance/kfd/kfd_port.h - the only way the suite reaches a KFD: the raw device ABI.
//
// kfd_port_model.cpp binds it to rocref's KFD model; kfd_port_real.cpp to a
// real /dev/kfd and render node through system calls, so the same tests run
// on an AMD machine. Errors come back as -errno, as the model reports them.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace kfdport {

int open_kfd();
int open_render(uint32_t minor);
int close(int fd);
int ioctl(int fd, unsigned long request, void* arg);
void* mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset, int* error);
int munmap(void* addr, size_t length);
std::optional<std::string> read_sysfs(const std::string& path);
bool is_model();

}  // namespace kfdport
