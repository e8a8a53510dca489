// tests/integration_foreign/preload_hooks_test.cpp - the interposer seen through plain libc calls.
//
// Runs under `rocref exec` and links no model code: every answer comes from the
// interposer, as it would for any foreign binary (spec/preload.md PRE-*).
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/kfd_ioctl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

const std::string kTopo = "/sys/devices/virtual/kfd/kfd/topology";

std::string slurp_fopen(const std::string& path) {
  std::string out;
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

uint64_t key_of(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  uint64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

std::set<std::string> list_dir(const std::string& path) {
  std::set<std::string> names;
  DIR* d = opendir(path.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] != '.') names.insert(e->d_name);
  }
  closedir(d);
  return names;
}

// The GPU node's render minor, read through the mirrored topology.
uint32_t gpu_render_minor() {
  for (const auto& n : list_dir(kTopo + "/nodes")) {
    const uint64_t minor = key_of(slurp_fopen(kTopo + "/nodes/" + n + "/properties"), "drm_render_minor");
    if (minor != 0) return uint32_t(minor);
  }
  return 0;
}

TEST(PreloadHooks, PRE_OPEN_1_DevKfdAnswersGetVersionWithTheRealAbi) {
  const int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  kfd_ioctl_get_version_args v{};
  ASSERT_EQ(ioctl(fd, AMDKFD_IOC_GET_VERSION, &v), 0) << std::strerror(errno);
  EXPECT_EQ(v.major_version, 1u);
  EXPECT_EQ(close(fd), 0);
  // PRE-FD-1: the number is a real descriptor, so after close it is simply gone.
  EXPECT_EQ(ioctl(fd, AMDKFD_IOC_GET_VERSION, &v), -1);
  EXPECT_EQ(errno, EBADF);
}

TEST(PreloadHooks, PRE_FD_1_ModelDescriptorsAreRealFilesToFcntlAndDup) {
  const int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  const int other = dup(fd);
  ASSERT_GE(other, 0);
  EXPECT_EQ(close(other), 0);  // closing a copy the model never saw leaves the model descriptor alone
  kfd_ioctl_get_version_args v{};
  EXPECT_EQ(ioctl(fd, AMDKFD_IOC_GET_VERSION, &v), 0);
  close(fd);
}

// PRE-FD-2: a duplicate is the same open file: its ioctls reach the model after the original
// is closed, and the model descriptor closes with the last copy (libdrm dups the render node).
TEST(PreloadHooks, PRE_FD_2_DuplicatesStandForTheSameModelDescriptor) {
  const int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const int by_dup = dup(fd);
  const int by_fcntl = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  ASSERT_GE(by_dup, 0);
  ASSERT_GE(by_fcntl, 0);
  EXPECT_EQ(fcntl(by_fcntl, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  ASSERT_EQ(close(fd), 0);
  kfd_ioctl_get_version_args v{};
  EXPECT_EQ(ioctl(by_dup, AMDKFD_IOC_GET_VERSION, &v), 0) << std::strerror(errno);
  EXPECT_EQ(v.major_version, 1u);
  // dup2 onto another model descriptor: the target's own model descriptor is closed, and the
  // number now stands for the copied one.
  const int other = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(other, 0);
  ASSERT_EQ(dup2(by_fcntl, other), other);
  ASSERT_EQ(close(by_dup), 0);
  ASSERT_EQ(close(by_fcntl), 0);
  v = {};
  EXPECT_EQ(ioctl(other, AMDKFD_IOC_GET_VERSION, &v), 0) << "the last copy keeps the model descriptor open";
  ASSERT_EQ(close(other), 0);
  const int plain = dup(STDERR_FILENO);  // not a model descriptor: its ioctls stay the kernel's
  ASSERT_GE(plain, 0);
  EXPECT_EQ(ioctl(plain, AMDKFD_IOC_GET_VERSION, &v), -1);
  close(plain);
}

TEST(PreloadHooks, PRE_IO_1_ModelErrnosReachTheCaller) {
  const int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  kfd_ioctl_acquire_vm_args vm{};
  vm.gpu_id = 0xdead;  // no such GPU
  vm.drm_fd = uint32_t(fd);
  EXPECT_EQ(ioctl(fd, AMDKFD_IOC_ACQUIRE_VM, &vm), -1);
  EXPECT_EQ(errno, EINVAL);
  close(fd);
}

TEST(PreloadHooks, PRE_IO_3_AcquireVmTakesTheRenderNodesRealDescriptor) {
  const uint32_t minor = gpu_render_minor();
  ASSERT_NE(minor, 0u);
  uint32_t gpu_id = 0;
  for (const auto& n : list_dir(kTopo + "/nodes")) {
    const std::string id = slurp_fopen(kTopo + "/nodes/" + n + "/gpu_id");
    if (std::strtoul(id.c_str(), nullptr, 10) != 0) gpu_id = uint32_t(std::strtoul(id.c_str(), nullptr, 10));
  }
  ASSERT_NE(gpu_id, 0u);
  const int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  const int drm = open(("/dev/dri/renderD" + std::to_string(minor)).c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(kfd, 0);
  ASSERT_GE(drm, 0);
  kfd_ioctl_acquire_vm_args vm{};
  vm.gpu_id = gpu_id;
  vm.drm_fd = uint32_t(drm);
  EXPECT_EQ(ioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &vm), 0) << std::strerror(errno);
  close(drm);
  close(kfd);
}

TEST(PreloadHooks, PRE_STAT_1_DevicesLookLikeCharacterDevices) {
  struct stat st{};
  ASSERT_EQ(stat("/dev/kfd", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(access("/dev/kfd", R_OK | W_OK), 0);
  const uint32_t minor = gpu_render_minor();
  ASSERT_NE(minor, 0u);
  const std::string render = "/dev/dri/renderD" + std::to_string(minor);
  ASSERT_EQ(stat(render.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(major(st.st_rdev), 226u);
  EXPECT_EQ(minor(st.st_rdev), minor);
}

// PRE-STAT-2: fstat of a model descriptor (and fstatat/statx with AT_EMPTY_PATH) reports the
// device it opened, as libdrm's drmGetNodeTypeFromFd checks.
TEST(PreloadHooks, PRE_STAT_2_DescriptorsOfDevicesAreCharacterDevices) {
  const uint32_t minor = gpu_render_minor();
  ASSERT_NE(minor, 0u);
  const int render = open(("/dev/dri/renderD" + std::to_string(minor)).c_str(), O_RDWR | O_CLOEXEC);
  const int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  ASSERT_GE(render, 0);
  ASSERT_GE(kfd, 0);
  struct stat st {};
  ASSERT_EQ(fstat(render, &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(major(st.st_rdev), 226u);
  EXPECT_EQ(minor(st.st_rdev), minor);
  ASSERT_EQ(fstatat(render, "", &st, AT_EMPTY_PATH), 0);
  EXPECT_EQ(minor(st.st_rdev), minor);
  struct statx sx {};
  ASSERT_EQ(statx(render, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx), 0);
  EXPECT_TRUE(S_ISCHR(sx.stx_mode));
  EXPECT_EQ(sx.stx_rdev_major, 226u);
  EXPECT_EQ(sx.stx_rdev_minor, minor);
  const int copy = dup(render);
  ASSERT_EQ(fstat(copy, &st), 0);
  EXPECT_EQ(minor(st.st_rdev), minor) << "a duplicate is the same device";
  ASSERT_EQ(fstat(kfd, &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_NE(major(st.st_rdev), 226u);
  ASSERT_EQ(fstat(STDIN_FILENO, &st), 0) << "other descriptors are the kernel's";
  // libdrm's drmNodeIsDRM: the device's sysfs directory exists, with its DRM nodes (PRE-FS-5).
  const std::string drm = "/sys/dev/char/226:" + std::to_string(minor) + "/device/drm";
  ASSERT_EQ(stat(drm.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  const auto nodes = list_dir(drm);
  EXPECT_EQ(std::set<std::string>(nodes.begin(), nodes.end()),
            (std::set<std::string>{"card" + std::to_string(minor - 128), "renderD" + std::to_string(minor)}));
  close(copy);
  close(render);
  close(kfd);
}

TEST(PreloadHooks, PRE_OPEN_2_UnknownRenderMinorIsNotTheModels) {
  const uint32_t minor = gpu_render_minor() + 7;
  errno = 0;
  const int fd = open(("/dev/dri/renderD" + std::to_string(minor)).c_str(), O_RDWR);
  if (fd >= 0) close(fd);
  EXPECT_LT(fd, 0) << "a render node the model does not have opened (this machine has no DRM devices)";
  EXPECT_EQ(errno, ENOENT);
}

TEST(PreloadHooks, PRE_FS_1_TopologyIsReadableThroughEveryLibcPath) {
  const std::string gen = slurp_fopen(kTopo + "/generation_id");
  ASSERT_FALSE(gen.empty());
  // open + read, and the /sys/class/kfd name of the same file.
  const int fd = open((kTopo + "/generation_id").c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  char buf[64] = {};
  EXPECT_GT(read(fd, buf, sizeof buf - 1), 0);
  close(fd);
  EXPECT_EQ(gen, std::string(buf));
  EXPECT_EQ(slurp_fopen("/sys/class/kfd/kfd/topology/generation_id"), gen);
  // opendir/readdir, and openat relative to an opened directory.
  const auto nodes = list_dir(kTopo + "/nodes");
  ASSERT_GE(nodes.size(), 2u);
  const int dir = open((kTopo + "/nodes/" + *nodes.begin()).c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dir, 0);
  const int prop = openat(dir, "properties", O_RDONLY);
  EXPECT_GE(prop, 0);
  if (prop >= 0) close(prop);
  close(dir);
  struct stat st{};
  EXPECT_EQ(stat((kTopo + "/nodes").c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  // Node counts agree with the directories (ROCR asserts on a mismatch).
  for (const auto& n : nodes) {
    const std::string props = slurp_fopen(kTopo + "/nodes/" + n + "/properties");
    EXPECT_EQ(key_of(props, "mem_banks_count"), list_dir(kTopo + "/nodes/" + n + "/mem_banks").size()) << n;
    EXPECT_EQ(key_of(props, "caches_count"), list_dir(kTopo + "/nodes/" + n + "/caches").size()) << n;
  }
}

TEST(PreloadHooks, PRE_FS_2_TheDriverLooksLoaded) {
  EXPECT_NE(slurp_fopen("/proc/modules").find("amdgpu "), std::string::npos);
  EXPECT_EQ(slurp_fopen("/sys/module/amdgpu/initstate"), "live\n");
  EXPECT_EQ(access("/sys/module/amdgpu", F_OK), 0);
}

TEST(PreloadHooks, PRE_HOOK_1_OtherPathsPassThroughUntouched) {
  EXPECT_NE(slurp_fopen("/proc/self/status").find("Name:"), std::string::npos);
  struct stat st{};
  ASSERT_EQ(stat("/", &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(open("/nonexistent/rocref/path", O_RDONLY), -1);
  EXPECT_EQ(errno, ENOENT);
  // A path that merely starts like a mirrored one is not mirrored.
  EXPECT_EQ(access("/sys/class/kfdx", F_OK), -1);
}

}  // namespace
