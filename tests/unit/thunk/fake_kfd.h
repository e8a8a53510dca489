// tests/unit/thunk/fake_kfd.h - a scripted Transport: sysfs files, a minimal KFD, a call log.
//
// Stands in for the KFD so the thunk's parsing and ioctl sequences can be checked
// without the model: every ioctl is logged by number, failures can be planted per
// ioctl number, and mmaps are real anonymous mappings at the requested address.
#pragma once

#include <linux/kfd_ioctl.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "thunk/transport.h"

namespace rocref::thunk::testing {

struct MmapCall {
  void* addr;
  size_t length;
  int prot;
  int flags;
  int fd;
  uint64_t offset;
};

class FakeKfd final : public Transport {
 public:
  static constexpr int kKfdFd = 700;
  static constexpr int kRenderFd = 701;
  static constexpr uint32_t kGpuId = 0x1234;
  static constexpr uint32_t kRenderMinor = 128;
  static constexpr uint64_t kDoorbellBase = uint64_t{3} << 62;

  FakeKfd();  // one CPU node (0) and one gfx900 GPU node (1)

  // --- Transport --------------------------------------------------------------
  int open_kfd() override;
  int open_render(uint32_t minor) override;
  int close(int fd) override;
  int ioctl(int fd, unsigned long request, void* arg) override;
  Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset) override;
  int munmap(void* addr, size_t length) override;
  std::optional<std::string> read_file(std::string_view path) override;
  std::optional<std::vector<std::string>> list_dir(std::string_view path) override;

  // --- scripting ------------------------------------------------------------
  std::map<std::string, std::string> files;          // sysfs path -> contents
  std::vector<std::string> generation_sequence;      // successive generation_id reads, then files[]
  std::map<unsigned, int> fail_ioctl;                // ioctl nr -> -errno to return
  bool fail_open = false;
  uint32_t major_version = KFD_IOCTL_MAJOR_VERSION;

  // --- observations ------------------------------------------------------------
  std::vector<unsigned> ioctl_log;         // /dev/kfd ioctl numbers (_IOC_NR) in call order
  std::vector<unsigned> render_ioctl_log;  // the same for the render node (DRM ioctls)
  std::vector<kfd_ioctl_alloc_memory_of_gpu_args> allocs;
  std::vector<kfd_ioctl_create_event_args> created_events;
  std::vector<MmapCall> mmaps;
  std::set<uint64_t> live_handles;
  std::set<uint64_t> mapped_handles;
  std::set<uint32_t> live_queues;
  std::set<uint32_t> live_events;
  int open_fds = 0;
  size_t generation_reads = 0;

  size_t count(unsigned nr) const;

 private:
  uint64_t next_handle_ = 1;
  uint32_t next_queue_ = 0;
  uint32_t next_event_ = 1;
};

}  // namespace rocref::thunk::testing
