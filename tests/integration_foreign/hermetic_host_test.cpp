// tests/integration_foreign/hermetic_host_test.cpp - the foreign stack sees the model's CPU on any host
// (PRE-FS-3) and reads no host topology file the interposer does not control (PRE-FS-4).
//
// Each host variant runs in a private mount namespace (unshare(CLONE_NEWNS), root) with
// bind mounts over /sys/devices/system/cpu, /sys/devices/system/node, the CPUs' cache
// directories and /proc/cpuinfo: no CPU cacheinfo (as in a Firecracker microVM), one CPU,
// 64 CPUs, no NUMA directory. rocminfo, Debian's libhsakmt under our hsakmt suite, and
// Debian's ROCR under the foreign ROCR suite must pass on each, and rocminfo must print
// exactly what it prints on the unchanged host.
#include <gtest/gtest.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Mount {
  std::string source, target;
};

struct Variant {
  std::string name;
  std::vector<Mount> mounts;
};

struct RunResult {
  int status = -1;
  std::string out;
};

std::string temp_root() {
  static const std::string root = [] {
    const char* env = std::getenv("TMPDIR");
    std::string t = std::string(env && *env ? env : "/tmp") + "/rocref-hermetic-XXXXXX";
    return ::mkdtemp(t.data()) ? t : std::string();
  }();
  return root;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

void make_dirs(const std::string& path) {
  for (size_t at = 1; (at = path.find('/', at)) != std::string::npos; ++at) ::mkdir(path.substr(0, at).c_str(), 0755);
  ::mkdir(path.c_str(), 0755);
}

std::string range(int n) { return n == 1 ? "0" : "0-" + std::to_string(n - 1); }

// A host with `n` CPUs, each with one private L1d cache, in one NUMA node: the cpu and node
// trees and a /proc/cpuinfo to bind over the real ones.
std::vector<Mount> fake_host(int n) {
  const std::string base = temp_root() + "/host" + std::to_string(n);
  const std::string cpu = base + "/cpu", node = base + "/node";
  make_dirs(cpu);
  make_dirs(node + "/node0");
  for (const char* f : {"online", "possible", "present"}) write_file(cpu + "/" + f, range(n) + "\n");
  std::string cpuinfo;
  for (int p = 0; p < n; ++p) {
    const std::string idx = cpu + "/cpu" + std::to_string(p) + "/cache/index0";
    make_dirs(idx);
    write_file(idx + "/level", "1\n");
    write_file(idx + "/type", "Data\n");
    write_file(idx + "/size", "48K\n");
    write_file(idx + "/coherency_line_size", "64\n");
    write_file(idx + "/ways_of_associativity", "12\n");
    write_file(idx + "/physical_line_partition", "1\n");
    write_file(idx + "/shared_cpu_list", std::to_string(p) + "\n");
    char map[16];
    std::snprintf(map, sizeof map, "%08x", p < 32 ? 1u << p : 0u);
    write_file(idx + "/shared_cpu_map", std::string(map) + "\n");
    ::symlink(("../../cpu/cpu" + std::to_string(p)).c_str(), (node + "/node0/cpu" + std::to_string(p)).c_str());
    cpuinfo += "processor\t: " + std::to_string(p) + "\nvendor_id\t: GenuineIntel\nmodel name\t: Host CPU " +
               std::to_string(p) + "\napicid\t\t: " + std::to_string(p * 2) + "\n\n";
  }
  write_file(node + "/online", "0\n");
  write_file(node + "/possible", "0\n");
  write_file(node + "/node0/cpulist", range(n) + "\n");
  write_file(node + "/node0/meminfo", "Node 0 MemTotal:        1024 kB\nNode 0 MemFree:          512 kB\n");
  write_file(base + "/cpuinfo", cpuinfo);
  return {{cpu, "/sys/devices/system/cpu"}, {node, "/sys/devices/system/node"}, {base + "/cpuinfo", "/proc/cpuinfo"}};
}

std::string empty_dir() {
  const std::string d = temp_root() + "/empty";
  make_dirs(d);
  return d;
}

// Every CPU's cache directory replaced by an empty one: the kernel exposes no cacheinfo.
std::vector<Mount> no_cacheinfo() {
  std::vector<Mount> m;
  DIR* d = ::opendir("/sys/devices/system/cpu");
  if (d == nullptr) return m;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 || name[3] < '0' || name[3] > '9') continue;
    const std::string cache = "/sys/devices/system/cpu/" + name + "/cache";
    if (::access(cache.c_str(), F_OK) == 0) m.push_back({empty_dir(), cache});
  }
  ::closedir(d);
  return m;
}

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"unchanged host", {}},
      {"no CPU cacheinfo", no_cacheinfo()},
      {"one CPU", fake_host(1)},
      {"64 CPUs", fake_host(64)},
      {"no /sys/devices/system/node", {{empty_dir(), "/sys/devices/system/node"}}},
  };
  return v;
}

// Child side: a private mount namespace with `mounts`, then `argv`; exit 97 if a mount fails.
void child_with_mounts(const std::vector<Mount>& mounts, const std::vector<std::string>& argv,
                       const std::string& out_path, const std::vector<std::string>& env) {
  const int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) ::_exit(96);
  ::dup2(fd, 1);
  ::dup2(fd, 2);
  if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    std::fprintf(stderr, "namespace: %s\n", std::strerror(errno));
    ::_exit(98);
  }
  for (const Mount& m : mounts) {
    if (::mount(m.source.c_str(), m.target.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      std::fprintf(stderr, "bind %s over %s: %s\n", m.source.c_str(), m.target.c_str(), std::strerror(errno));
      ::_exit(97);
    }
  }
  for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
  ::_exit(127);
}

RunResult run(const std::vector<Mount>& mounts, const std::vector<std::string>& program,
        const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {ROCREF_TOOL, "exec", "--lib", ROCREF_PRELOAD_LIB, "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  const std::string out_path = temp_root() + "/out.txt";
  RunResult r;
  const pid_t pid = ::fork();
  if (pid == 0) child_with_mounts(mounts, argv, out_path, env);
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return r;
  r.status = status;
  std::ifstream in(out_path);
  std::stringstream ss;
  ss << in.rdbuf();
  r.out = ss.str();
  return r;
}

// Mount namespaces need root (or a user namespace): probe once, skip with the reason where refused.
std::string namespace_refusal() {
  static const std::string why = [] {
    if (temp_root().empty()) return std::string("no temporary directory");
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (::unshare(CLONE_NEWNS) != 0) ::_exit(1);
      if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) ::_exit(2);
      if (::mount(empty_dir().c_str(), "/sys/devices/system/node", nullptr, MS_BIND, nullptr) != 0) ::_exit(3);
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::string();
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return std::string(code == 1   ? "unshare(CLONE_NEWNS) is not allowed"
                       : code == 2 ? "making / private in a new mount namespace is not allowed"
                                   : "bind-mounting over /sys/devices/system/node is not allowed") +
           " here (needs root or CAP_SYS_ADMIN): the varied-host check cannot run";
  }();
  return why;
}

#define SKIP_WITHOUT_NAMESPACES()                                  \
  do {                                                             \
    if (!namespace_refusal().empty()) GTEST_SKIP() << namespace_refusal(); \
  } while (0)

// The first line where two outputs differ, for a readable failure.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = bool(std::getline(x, la)), gb = bool(std::getline(y, lb));
    if (!ga && !gb) return "";
    if (!ga || !gb || la != lb)
      return "line " + std::to_string(line) + ": \"" + (ga ? la : "<end>") + "\" vs unchanged host \"" + (gb ? lb : "<end>") + "\"";
  }
}

bool passed(const RunResult& r) { return WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0; }
std::string tail(const std::string& s) { return s.size() > 3000 ? s.substr(s.size() - 3000) : s; }

TEST(ForeignHermetic, PRE_FS_3_RocminfoIsTheSameOnEveryHost) {
  SKIP_WITHOUT_NAMESPACES();
  ASSERT_EQ(::access("/usr/bin/rocminfo", X_OK), 0) << "Debian's rocminfo is part of the foreign suite";
  std::string reference;
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.name);
    const RunResult r = run(v.mounts, {"/usr/bin/rocminfo"});
    ASSERT_TRUE(passed(r)) << tail(r.out);
    EXPECT_NE(r.out.find("gfx900"), std::string::npos) << "the GPU agent is listed\n" << tail(r.out);
    EXPECT_NE(r.out.find("Device Type:             CPU"), std::string::npos) << "the CPU agent is listed";
    if (reference.empty()) reference = r.out;
    EXPECT_EQ(first_difference(r.out, reference), "") << "rocminfo differs from the unchanged host's: the host leaks through";
  }
}

#ifdef FOREIGN_HSAKMT_SUITE
TEST(ForeignHermetic, PRE_FS_3_HsakmtSuitePassesOnEveryHost) {
  SKIP_WITHOUT_NAMESPACES();
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.name);
    const RunResult r = run(v.mounts, {FOREIGN_HSAKMT_SUITE});
    EXPECT_TRUE(passed(r)) << tail(r.out);
  }
}
#endif

#ifdef FOREIGN_ROCR_SUITE
TEST(ForeignHermetic, PRE_FS_3_RocrSuitePassesOnEveryHost) {
  SKIP_WITHOUT_NAMESPACES();
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.name);
    const RunResult r = run(v.mounts, {FOREIGN_ROCR_SUITE});
    EXPECT_TRUE(passed(r)) << tail(r.out);
  }
}
#endif

// PRE-FS-4: host /sys and /proc files the foreign stack may read, none describing CPUs, caches
// or NUMA nodes. A path not listed here fails the check until it is served or classified.
bool allowed_host_path(const std::string& p) {
  static const char* const kExact[] = {
      "/proc/self/maps",            // ROCR: its own mappings
      "/proc/cmdline",              // ROCR: the kernel command line (amd_iommu / HSA_* options)
      "/proc/sys/kernel/pid_max",   // the C++ runtime's thread ids
  };
  for (const char* e : kExact)
    if (p == e) return true;
  // libdrm: the sysfs device of a DRM descriptor (the model's render node is a memfd).
  return p.rfind("/sys/dev/char/", 0) == 0 && p.size() > 4 && p.substr(p.size() - 11) == "/device/drm";
}

TEST(ForeignHermetic, PRE_FS_4_ForeignStackReadsNoUncontrolledHostTopology) {
  std::vector<std::vector<std::string>> programs = {{"/usr/bin/rocminfo"}};
#ifdef FOREIGN_HSAKMT_SUITE
  programs.push_back({FOREIGN_HSAKMT_SUITE});
#endif
#ifdef FOREIGN_ROCR_SUITE
  programs.push_back({FOREIGN_ROCR_SUITE});
#endif
  ASSERT_FALSE(temp_root().empty());
  const std::string audit = temp_root() + "/audit.txt";
  ::unlink(audit.c_str());
  for (const auto& program : programs) {
    // No namespace needed: the unchanged host, recorded by the interposer's audit.
    std::vector<std::string> argv = {ROCREF_TOOL, "exec", "--lib", ROCREF_PRELOAD_LIB, "--"};
    argv.insert(argv.end(), program.begin(), program.end());
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int fd = ::open("/dev/null", O_WRONLY);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::setenv("ROCREF_PRELOAD_AUDIT", audit.c_str(), 1);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << program[0];
  }
  std::ifstream in(audit);
  std::string tag, path;
  std::set<std::string> model, uncontrolled;
  while (in >> tag >> path) {
    if (tag == "model" || tag == "absent") model.insert(path);
    else if (!allowed_host_path(path)) uncontrolled.insert(path);
  }
  std::string list;
  for (const auto& p : uncontrolled) list += "  " + p + "\n";
  EXPECT_TRUE(uncontrolled.empty()) << "host files read that the interposer does not control:\n" << list;
  // The audit saw the lookups that matter, so an empty list means something.
  for (const char* must : {"/proc/cpuinfo", "/proc/self/status", "/sys/devices/system/node",
                           "/sys/devices/virtual/kfd/kfd/topology/generation_id"})
    EXPECT_TRUE(model.count(must)) << must << " was not looked up through the interposer";
}

// The fake host trees and outputs go when the binary ends.
int remove_entry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }
class TempCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!temp_root().empty()) ::nftw(temp_root().c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  }
};
const auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new TempCleanup);

}  // namespace
