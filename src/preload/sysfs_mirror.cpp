// preload/sysfs_mirror.cpp - fills the private tree from the KFD model and the host's /proc/modules.
#include "preload/sysfs_mirror.h"

#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>

#include "kfd/kfd_device.h"
#include "preload/real_calls.h"
#include "preload/reentry.h"

namespace rocref::preload {
namespace {

constexpr const char* kTopologyRoot = "/sys/devices/virtual/kfd/kfd/topology";
constexpr int kMaxDepth = 8;

pid_t g_owner = 0;

bool write_file(const std::string& path, const std::string& text) {
  const int fd = real::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += size_t(n);
  }
  real::close(fd);
  return done == text.size();
}

std::string read_host_file(const char* path) {
  std::string out;
  const int fd = real::open(path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) return out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.append(buf, size_t(n));
  real::close(fd);
  return out;
}

// Entries the model lists are directories if it lists them too, files if it reads them.
void copy_model_dir(const rocref::kfd::KfdDevice& kfd, const std::string& model_dir, const std::string& host_dir,
                    int depth) {
  if (depth > kMaxDepth) return;
  ::mkdir(host_dir.c_str(), 0755);
  const auto names = kfd.list_sysfs(model_dir);
  if (!names) return;
  for (const std::string& name : *names) {
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) continue;
    const std::string child = model_dir + "/" + name;
    if (auto target = kfd.link_sysfs(child)) {
      [[maybe_unused]] int rc = ::symlink(target->c_str(), (host_dir + "/" + name).c_str());
    } else if (kfd.list_sysfs(child)) {
      copy_model_dir(kfd, child, host_dir + "/" + name, depth + 1);
    } else if (auto text = kfd.read_sysfs(child)) {
      write_file(host_dir + "/" + name, *text);
    }
  }
}

int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

__attribute__((destructor)) void remove_mirror() {
  if (g_owner != 0 && g_owner == ::getpid() && std::getenv("ROCREF_PRELOAD_KEEP") == nullptr) {
    ModelScope scope;
    ::nftw(mirror_root().c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
}

// PRE-FS-1: a process that died without running destructors (an abort, SIGKILL) leaves its
// mirror behind; the next process removes mirrors whose owner no longer exists.
void sweep_stale_mirrors(const std::string& tmp) {
  DIR* d = ::opendir(tmp.c_str());  // inside ModelScope: not redirected
  if (d == nullptr) return;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind("rocref-sysfs-", 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + 13, nullptr, 10);
    if (pid <= 0 || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
    ::nftw((tmp + "/" + name).c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
  ::closedir(d);
}

}  // namespace

const std::string& mirror_root() {
  static const std::string* root = [] {
    ModelScope scope;
    const char* env = std::getenv("TMPDIR");
    const std::string tmp = env && *env ? env : "/tmp";
    sweep_stale_mirrors(tmp);
    std::string templ = tmp + "/rocref-sysfs-" + std::to_string(::getpid()) + "-XXXXXX";
    std::string dir;
    if (::mkdtemp(templ.data()) != nullptr) {
      dir = templ;
      g_owner = ::getpid();
    }
    return new std::string(dir);  // never destroyed: hooks may run during exit
  }();
  return *root;
}

void ensure_topology_mirror() {
  static std::once_flag once;
  std::call_once(once, [] {
    ModelScope scope;
    const std::string& root = mirror_root();
    if (root.empty()) return;
    const auto& kfd = rocref::kfd::KfdDevice::instance();
    ::mkdir((root + "/kfd").c_str(), 0755);
    copy_model_dir(kfd, kTopologyRoot, root + "/kfd/topology", 0);
    ::mkdir((root + "/class_kfd").c_str(), 0755);
    [[maybe_unused]] int rc = ::symlink("../kfd", (root + "/class_kfd/kfd").c_str());
  });
}

void ensure_cpu_mirror() {
  static std::once_flag once;
  std::call_once(once, [] {
    ModelScope scope;
    const std::string& root = mirror_root();
    if (root.empty()) return;
    const auto& kfd = rocref::kfd::KfdDevice::instance();
    for (const char* dir : {"/sys", "/sys/devices", "/sys/devices/system", "/proc"}) ::mkdir((root + dir).c_str(), 0755);
    // node/node0/cpuN -> ../../cpu/cpuN resolve inside the mirror: both trees keep their sysfs places.
    copy_model_dir(kfd, "/sys/devices/system/cpu", root + "/sys/devices/system/cpu", 0);
    copy_model_dir(kfd, "/sys/devices/system/node", root + "/sys/devices/system/node", 0);
    if (auto text = kfd.read_sysfs("/proc/cpuinfo")) write_file(root + "/proc/cpuinfo", *text);
  });
}

long model_cpu_count() {
  static const long count = [] {
    ModelScope scope;
    const auto text = rocref::kfd::KfdDevice::instance().read_sysfs("/sys/devices/system/cpu/possible");
    // "0" or "0-N": the model's processors are numbered from 0 without gaps.
    long n = 1;
    if (text) {
      const auto dash = text->find('-');
      if (dash != std::string::npos) n = std::strtol(text->c_str() + dash + 1, nullptr, 10) + 1;
    }
    return n > 0 ? n : 1;
  }();
  return count;
}

void ensure_proc_modules_mirror() {
  static std::once_flag once;
  std::call_once(once, [] {
    ModelScope scope;
    const std::string& root = mirror_root();
    if (root.empty()) return;
    std::string text = read_host_file("/proc/modules");
    if (text.find("amdgpu ") == std::string::npos) {
      text += "amdgpu 9547392 0 - Live 0x0000000000000000\n";
    }
    write_file(root + "/proc_modules", text);
  });
}

void ensure_module_mirror() {
  static std::once_flag once;
  std::call_once(once, [] {
    ModelScope scope;
    const std::string& root = mirror_root();
    if (root.empty()) return;
    const std::string dir = root + "/module_amdgpu";
    ::mkdir(dir.c_str(), 0755);
    ::mkdir((dir + "/holders").c_str(), 0755);
    ::mkdir((dir + "/parameters").c_str(), 0755);
    write_file(dir + "/initstate", "live\n");
    write_file(dir + "/refcnt", "0\n");
  });
}

void ensure_drm_mirror() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::vector<uint32_t>& minors = model_render_minors();
    ModelScope scope;
    const std::string& root = mirror_root();
    if (root.empty()) return;
    ::mkdir((root + "/dev_char").c_str(), 0755);
    for (uint32_t minor : minors) {
      const std::string device = root + "/dev_char/226:" + std::to_string(minor) + "/device";
      ::mkdir((root + "/dev_char/226:" + std::to_string(minor)).c_str(), 0755);
      ::mkdir(device.c_str(), 0755);
      ::mkdir((device + "/drm").c_str(), 0755);
      // amdgpu's primary node and render node of one device: card<i> and renderD<128 + i>.
      ::mkdir((device + "/drm/card" + std::to_string(minor - 128)).c_str(), 0755);
      ::mkdir((device + "/drm/renderD" + std::to_string(minor)).c_str(), 0755);
    }
  });
}

const std::vector<uint32_t>& model_render_minors() {
  static const std::vector<uint32_t>* minors = [] {
    ensure_topology_mirror();
    ModelScope scope;
    auto* out = new std::vector<uint32_t>;
    const auto& kfd = rocref::kfd::KfdDevice::instance();
    const std::string nodes = std::string(kTopologyRoot) + "/nodes";
    if (auto names = kfd.list_sysfs(nodes)) {
      for (const std::string& n : *names) {
        auto props = kfd.read_sysfs(nodes + "/" + n + "/properties");
        if (!props) continue;
        std::istringstream in(*props);
        std::string key;
        uint64_t value = 0;
        while (in >> key >> value) {
          if (key == "drm_render_minor" && value != 0) out->push_back(uint32_t(value));
        }
      }
    }
    return out;
  }();
  return *minors;
}

}  // namespace rocref::preload
