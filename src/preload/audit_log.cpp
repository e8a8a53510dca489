// preload/audit_log.cpp - the opt-in record of /sys and /proc lookups (PRE-FS-4).
#include "preload/audit_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "preload/path_map.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rocref::preload {
namespace {

int audit_fd() {
  static const int fd = [] {
    const char* file = std::getenv("ROCREF_PRELOAD_AUDIT");
    if (file == nullptr || *file == '\0') return -1;
    ModelScope scope;
    return real::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }();
  return fd;
}

bool topical(const std::string& p) { return p.rfind("/sys/", 0) == 0 || p.rfind("/proc/", 0) == 0 || p == "/sys" || p == "/proc"; }

}  // namespace

void audit_path(int dirfd, const char* path, PathKind kind) noexcept {
  if (path == nullptr || audit_fd() < 0) return;
  ModelScope scope;
  try {
    std::string full = path;
    if (path[0] != '/') {
      if (dirfd == AT_FDCWD) return;  // relative to the working directory: not a /sys or /proc lookup we track
      char dir[4096];
      const std::string link = "/proc/self/fd/" + std::to_string(dirfd);
      const ssize_t n = ::readlink(link.c_str(), dir, sizeof dir - 1);
      if (n <= 0) return;
      full = std::string(dir, size_t(n)) + "/" + path;
    }
    if (!topical(full)) return;
    const char* tag = kind == PathKind::PassThrough ? "host" : kind == PathKind::Absent ? "absent" : "model";
    const std::string line = std::string(tag) + " " + full + "\n";
    [[maybe_unused]] ssize_t w = ::write(audit_fd(), line.data(), line.size());  // O_APPEND: whole lines
  } catch (...) {
  }
}

}  // namespace rocref::preload
