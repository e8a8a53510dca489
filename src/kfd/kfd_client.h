// kfd/kfd_client.h - the process's half of the shared model: KfdDevice's calls sent to the daemon.
//
// Holds what amdkfd leaves in the process: its descriptors (each an open session with the
// daemon, numbered here), its mappings of the daemon's memfds, and the topology files built from
// the daemon's GPU count (so every process reads one machine). An ioctl sends its number and
// _IOC_SIZE bytes of its argument on a call connection (one per calling thread at a time, from a
// pool) and serves the daemon's reads, writes, checks and pins of its memory until the answer
// comes (KFD-MP-1, KFD-MP-2). After fork the child's inherited descriptors answer -EBADF and
// its own opens are new sessions (KFD-MP-4).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/expected.h"

namespace rocref::kfd {

class Topology;

class RemoteKfd {
 public:
  explicit RemoteKfd(std::string socket_path);
  ~RemoteKfd();
  RemoteKfd(const RemoteKfd&) = delete;
  RemoteKfd& operator=(const RemoteKfd&) = delete;

  uint32_t gpu_count();
  int open_kfd();
  int open_render(uint32_t minor);
  int close(int fd);
  int ioctl(int fd, unsigned long request, void* arg);
  Expected<void*, int> mmap(void* addr, size_t length, int prot, int flags, int fd, off_t offset);
  int munmap(void* addr, size_t length);
  bool owns_fd(int fd) const;
  std::optional<uint32_t> render_minor(int fd) const;
  bool owns_mapping(const void* addr) const;
  std::optional<std::string> read_sysfs(std::string_view path);
  std::optional<std::vector<std::string>> list_sysfs(std::string_view dir);
  std::optional<std::string> link_sysfs(std::string_view path);
  // The fork handler (child side): inherited descriptors are refused, the connections dropped.
  void after_fork();

 private:
  struct Descriptor {
    int daemon_fd = -1;
    int session = -1;  // the session socket (-1 in a forked child)
    bool render = false;
    uint32_t minor = 0;
    bool inherited = false;  // KFD-MP-4: opened by the parent before fork
  };
  struct Mapping {
    size_t length = 0;
    int refs = 1;  // KFD-DB-3's shared doorbell view: one per unplaced mmap
    std::pair<int, uint64_t> view_key{-1, 0};
  };
  int open_session(bool render, uint32_t minor);
  const Topology* topology();
  int take_call_socket();
  void give_call_socket(int sock);
  // Sends a frame on a call connection and serves the daemon's memory requests until the
  // answer: false when the connection broke (the answer is then -EIO).
  bool call(int sock, uint32_t op, const void* head, size_t head_size, const void* data, size_t size,
            std::vector<uint8_t>* answer, std::vector<int>* fds);

  const std::string path_;
  mutable std::mutex mu_;
  std::map<int, Descriptor> fds_;
  int next_fd_ = 0;
  std::vector<int> call_pool_;
  int pid_ = 0;
  std::map<uintptr_t, Mapping> mappings_;
  std::map<std::pair<int, uint64_t>, uintptr_t> views_;
  bool hello_done_ = false;
  uint32_t gpus_ = 0;
  std::unique_ptr<Topology> topology_;
};

}  // namespace rocref::kfd
