// tests/unit/thunk/syscall_transport_test.cpp - the real-syscall transport (ROCREF_KFD=real).
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

TEST(SyscallTransport, MissingDeviceIsANegativeErrno) {
  auto t = make_syscall_transport();
  const int fd = t->open_kfd();
  if (fd >= 0) {
    EXPECT_EQ(t->close(fd), 0);  // a machine with a real /dev/kfd
    GTEST_SKIP() << "this machine has /dev/kfd";
  }
  EXPECT_TRUE(fd == -ENOENT || fd == -EACCES || fd == -EPERM) << fd;
  EXPECT_LT(t->open_render(65535), 0);
}

TEST(SyscallTransport, ErrorsComeBackAsNegativeErrno) {
  auto t = make_syscall_transport();
  int arg = 0;
  EXPECT_EQ(t->ioctl(-1, FIONREAD, &arg), -EBADF);
  EXPECT_EQ(t->close(-1), -EBADF);
  const Expected<void*, int> mapped = t->mmap(nullptr, 4096, PROT_READ, MAP_SHARED, -1, 0);
  ASSERT_FALSE(mapped.has_value());
  EXPECT_NE(mapped.error(), 0);
}

TEST(SyscallTransport, ReadsFilesAndListsDirectories) {
  auto t = make_syscall_transport();
  const auto status = t->read_file("/proc/self/status");
  ASSERT_TRUE(status.has_value());
  EXPECT_NE(status->find("Pid:"), std::string::npos);
  EXPECT_FALSE(t->read_file("/nonexistent/rocref").has_value());
  const auto entries = t->list_dir("/proc/self");
  ASSERT_TRUE(entries.has_value());
  EXPECT_NE(std::find(entries->begin(), entries->end(), "status"), entries->end());
  EXPECT_EQ(std::find(entries->begin(), entries->end(), "."), entries->end());
  EXPECT_FALSE(t->list_dir("/nonexistent/rocref").has_value());
}

TEST(SyscallTransport, MmapAndMunmapAreTheSystemCalls) {
  auto t = make_syscall_transport();
  const Expected<void*, int> mapped =
      t->mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_TRUE(mapped.has_value());
  void* p = *mapped;
  ASSERT_NE(p, nullptr);
  static_cast<char*>(p)[8191] = 1;
  EXPECT_EQ(t->munmap(p, 8192), 0);
}

}  // namespace
}  // namespace rocref::thunk
