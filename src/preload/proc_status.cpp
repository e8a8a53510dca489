// preload/proc_status.cpp - rewrites the CPU and memory-node lines of /proc/self/status.
#include "preload/proc_status.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "kfd/kfd_device.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rocref::preload {
namespace {

constexpr int kMaxNumNodes = 1024;  // Debian's CONFIG_NODES_SHIFT=10: the width of Mems_allowed

std::string model_file(const char* path, const char* fallback) {
  auto text = rocref::kfd::KfdDevice::instance().read_sysfs(path);
  std::string s = text ? *text : fallback;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// The kernel's %*pb of a node mask: 32-bit groups, most significant first.
std::string node_mask(const std::string& online_list) {
  uint32_t low = 0;
  // The model has nodes 0..N-1 listed as "0" or "0-N".
  const auto dash = online_list.find('-');
  const int last = dash == std::string::npos ? 0 : std::stoi(online_list.substr(dash + 1));
  for (int n = 0; n <= last && n < 32; ++n) low |= 1u << n;
  std::string out;
  char group[16];
  for (int g = kMaxNumNodes / 32 - 1; g >= 0; --g) {
    std::snprintf(group, sizeof group, "%08x", g == 0 ? low : 0u);
    out += group;
    if (g != 0) out += ',';
  }
  return out;
}

std::string rewrite(const std::string& host) {
  const std::string cpus = model_file("/sys/devices/system/node/node0/cpumap", "1");
  const std::string cpu_list = model_file("/sys/devices/system/node/node0/cpulist", "0");
  const std::string nodes = model_file("/sys/devices/system/node/online", "0");
  std::string out;
  size_t pos = 0;
  while (pos < host.size()) {
    size_t end = host.find('\n', pos);
    if (end == std::string::npos) end = host.size();
    const std::string line = host.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("Cpus_allowed:", 0) == 0) out += "Cpus_allowed:\t" + cpus;
    else if (line.rfind("Cpus_allowed_list:", 0) == 0) out += "Cpus_allowed_list:\t" + cpu_list;
    else if (line.rfind("Mems_allowed:", 0) == 0) out += "Mems_allowed:\t" + node_mask(nodes);
    else if (line.rfind("Mems_allowed_list:", 0) == 0) out += "Mems_allowed_list:\t" + nodes;
    else out += line;
    out += '\n';
  }
  return out;
}

}  // namespace

int open_proc_status(int flags) noexcept {
  ModelScope scope;
  std::string host;
  {
    const int fd = real::open("/proc/self/status", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return -1;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0) host.append(buf, size_t(n));
    real::close(fd);
  }
  std::string text;
  try {
    text = rewrite(host);
  } catch (...) {
    errno = ENOMEM;
    return -1;
  }
  const int fd = ::memfd_create("rocref-proc-status", (flags & O_CLOEXEC) != 0 ? MFD_CLOEXEC : 0);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      const int saved = errno;
      real::close(fd);
      errno = saved ? saved : EIO;
      return -1;
    }
    done += size_t(n);
  }
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

}  // namespace rocref::preload
