// tests/fuzz/preload/fuzz_preload.cpp - libFuzzer harness for the interposer's syscall hooks
// (src/preload, spec/preload.md).
//
// librocref_preload.so (copied next to this executable by the build) is loaded with dlopen (RTLD_LOCAL) and its exported hooks are called
// through dlsym, so the hooks see exactly what a preloaded program's libc calls would pass,
// while the fuzzer's own I/O stays on libc. Each input is a program of hook calls: open, openat
// (relative to opened directories too), fopen, opendir/readdir, stat, lstat, statx, access on
// model devices, the mirrored sysfs and procfs trees, and paths built from them with fuzzed
// suffixes ("..", "//", long names, other minors); ioctl of any request with any argument
// size on the descriptors the hooks returned; mmap of any offset and length on them, munmap,
// close (model descriptors twice, too). Flags never ask to create, truncate or write host
// files: a pass-through path reaches the real file system.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>


namespace {

constexpr unsigned long AMDKFD_IOCTL_BASE = 'K';  // linux/kfd_ioctl.h (which needs drm/drm.h)

struct Hooks {
  int (*open)(const char*, int, ...);
  int (*openat)(int, const char*, int, ...);
  FILE* (*fopen)(const char*, const char*);
  DIR* (*opendir)(const char*);
  int (*stat)(const char*, struct stat*);
  int (*lstat)(const char*, struct stat*);
  int (*statx)(int, const char*, int, unsigned, struct statx*);
  int (*access)(const char*, int);
  int (*close)(int);
  int (*ioctl)(int, unsigned long, ...);
  void* (*mmap)(void*, size_t, int, int, int, off_t);
  int (*munmap)(void*, size_t);
};
Hooks g;

template <typename F>
void bind(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) {
    std::fprintf(stderr, "fuzz_preload: %s not exported by the interposer\n", name);
    std::abort();
  }
}

const char* const kPaths[] = {
    "/dev/kfd",
    "/dev/dri/renderD128",
    "/dev/dri/renderD129",
    "/dev/dri/renderD127",
    "/sys/devices/virtual/kfd/kfd/topology",
    "/sys/devices/virtual/kfd/kfd/topology/nodes",
    "/sys/devices/virtual/kfd/kfd/topology/nodes/0/properties",
    "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties",
    "/sys/devices/virtual/kfd/kfd/topology/nodes/1/gpu_id",
    "/sys/devices/virtual/kfd/kfd/topology/nodes/1/mem_banks/0/properties",
    "/sys/devices/virtual/kfd/kfd/topology/nodes/1/io_links/0/properties",
    "/sys/devices/virtual/kfd/kfd/topology/generation_id",
    "/sys/devices/virtual/kfd/kfd/topology/system_properties",
    "/sys/class/kfd/kfd/topology/nodes/1/name",
    "/sys/class/kfd",
    "/sys/module/amdgpu",
    "/sys/module/amdgpu/parameters",
    "/proc/modules",
    "/sys/devices/system/node",
    "/dev",
    "/",
};

struct Program {
  FuzzedDataProvider& in;
  std::vector<int> fds;  // descriptors the hooks returned (model and mirrored files)
  std::vector<std::pair<void*, size_t>> maps;

  std::string path() {
    std::string p = kPaths[in.ConsumeIntegralInRange<size_t>(0, std::size(kPaths) - 1)];
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: p += in.ConsumeRandomLengthString(64); break;
      case 1: p += "/.."; break;
      case 2: p = "/" + p; break;  // "//dev/kfd"
      case 3: p += "/"; break;
      default: break;
    }
    // Never a write, a creation or a truncation of whatever the path names.
    return p;
  }
  int read_flags() {
    int f = in.ConsumeBool() ? O_RDONLY : O_RDWR;
    if (in.ConsumeBool()) f |= O_CLOEXEC;
    if (in.ConsumeBool()) f |= O_DIRECTORY;
    if (in.ConsumeBool()) f |= O_NONBLOCK;
    return f;
  }
  bool device_path(const std::string& p) { return p.rfind("/dev/kfd", 0) == 0 || p.rfind("/dev/dri/", 0) == 0; }
  int keep(int fd) {
    if (fd >= 0) fds.push_back(fd);
    return fd;
  }
  int any_fd() {
    if (!fds.empty() && in.ConsumeIntegralInRange<int>(0, 7)) return fds[in.ConsumeIntegralInRange<size_t>(0, fds.size() - 1)];
    return in.ConsumeIntegralInRange<int>(-1, 1 << 21);  // ...including the model's own numbers
  }

  void open_op() {
    const std::string p = path();
    int flags = read_flags();
    if (!device_path(p)) flags &= ~O_RDWR;  // host files are only read
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: keep(g.open(p.c_str(), flags)); break;
      case 1: {
        const int dirfd = fds.empty() || in.ConsumeBool() ? AT_FDCWD : fds[in.ConsumeIntegralInRange<size_t>(0, fds.size() - 1)];
        const std::string rel = in.ConsumeBool() ? p : in.ConsumeRandomLengthString(32);
        if (rel.find("..") != std::string::npos && dirfd != AT_FDCWD) break;
        keep(g.openat(dirfd, rel.c_str(), flags & ~O_RDWR));
        break;
      }
      case 2: {
        FILE* f = g.fopen(p.c_str(), in.ConsumeBool() ? "r" : "re");
        if (f) {
          char buf[512];
          (void)std::fread(buf, 1, sizeof buf, f);
          std::fclose(f);
        }
        break;
      }
      default: {
        DIR* d = g.opendir(p.c_str());
        if (d) {
          for (int i = 0; i < 64 && readdir(d); ++i) {
          }
          closedir(d);
        }
        break;
      }
    }
  }

  void stat_op() {
    const std::string p = path();
    struct stat st {};
    struct statx sx {};
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: g.stat(p.c_str(), &st); break;
      case 1: g.lstat(p.c_str(), &st); break;
      case 2: g.statx(AT_FDCWD, p.c_str(), in.ConsumeBool() ? 0 : AT_SYMLINK_NOFOLLOW, in.ConsumeIntegral<unsigned>(), &sx); break;
      default: g.access(p.c_str(), in.ConsumeIntegralInRange<int>(0, 7)); break;
    }
  }

  void ioctl_op() {
    if (fds.empty()) return;
    const int fd = fds[in.ConsumeIntegralInRange<size_t>(0, fds.size() - 1)];
    const unsigned nr = in.ConsumeIntegralInRange<unsigned>(0, 0x30);
    const unsigned sz = in.ConsumeIntegralInRange<unsigned>(0, 256);
    const unsigned dir = in.ConsumeIntegralInRange<unsigned>(0, 3);
    const unsigned long req = (static_cast<unsigned long>(dir) << 30) | (static_cast<unsigned long>(sz) << 16) |
                              (static_cast<unsigned long>(in.ConsumeBool() ? AMDKFD_IOCTL_BASE : in.ConsumeIntegral<uint8_t>()) << 8) | nr;
    if ((req & 0xff00) != (static_cast<unsigned long>(AMDKFD_IOCTL_BASE) << 8)) return;  // other drivers' numbers stay away from host files
    if (nr == 0x0C) return;  // WAIT_EVENTS could block on a pointer-chosen timeout
    std::vector<uint8_t> buf(std::max(sz, 1u));
    const auto bytes = in.ConsumeBytes<uint8_t>(sz);
    if (!bytes.empty()) std::memcpy(buf.data(), bytes.data(), bytes.size());
    g.ioctl(fd, req, buf.data());
  }

  void mmap_op() {
    if (in.ConsumeBool() && !maps.empty()) {
      const size_t k = in.ConsumeIntegralInRange<size_t>(0, maps.size() - 1);
      g.munmap(maps[k].first, maps[k].second);
      maps.erase(maps.begin() + long(k));
      return;
    }
    const int fd = any_fd();
    const size_t len = in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<size_t>(1, 4) * 4096 : in.ConsumeIntegral<uint32_t>();
    const uint64_t off = in.ConsumeBool() ? (uint64_t{in.ConsumeIntegralInRange<unsigned>(0, 3)} << 62) | (uint64_t{in.ConsumeIntegral<uint16_t>()} << 12)
                                          : in.ConsumeIntegral<uint64_t>();
    void* p = g.mmap(nullptr, len, PROT_READ | (in.ConsumeBool() ? PROT_WRITE : 0), MAP_SHARED, fd, static_cast<off_t>(off));
    if (p != MAP_FAILED && p != nullptr) maps.emplace_back(p, len);
  }

  void close_op() {
    if (fds.empty()) return;
    const size_t k = in.ConsumeIntegralInRange<size_t>(0, fds.size() - 1);
    g.close(fds[k]);
    fds.erase(fds.begin() + long(k));
  }

  void run() {
    for (int op = 0; op < 32 && in.remaining_bytes() > 0; ++op) {
      switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: open_op(); break;
        case 1: stat_op(); break;
        case 2: ioctl_op(); break;
        case 3: mmap_op(); break;
        default: close_op(); break;
      }
    }
    for (auto& [p, len] : maps) g.munmap(p, len);
    for (int fd : fds) g.close(fd);
  }
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // librocref_preload.so next to this executable (the build copies it there).
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  std::string dir = n > 0 ? std::string(exe, size_t(n)) : std::string(".");
  dir = dir.substr(0, dir.find_last_of('/'));
  void* lib = dlopen((dir + "/librocref_preload.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "fuzz_preload: %s\n", dlerror());
    std::abort();
  }
  bind(lib, g.open, "open");
  bind(lib, g.openat, "openat");
  bind(lib, g.fopen, "fopen");
  bind(lib, g.opendir, "opendir");
  bind(lib, g.stat, "stat");
  bind(lib, g.lstat, "lstat");
  bind(lib, g.statx, "statx");
  bind(lib, g.access, "access");
  bind(lib, g.close, "close");
  bind(lib, g.ioctl, "ioctl");
  bind(lib, g.mmap, "mmap");
  bind(lib, g.munmap, "munmap");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program{in};
  program.run();
  return 0;
}
