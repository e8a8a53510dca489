// kfd/host_arena.cpp - memfd pool with first-fit allocation and coalescing frees.
#include "kfd/host_arena.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace rocref::kfd {

uint64_t HostArena::round(uint64_t size) noexcept { return (size + 4095) & ~uint64_t{4095}; }

HostArena::HostArena(const std::string& name, uint64_t size) : size_(round(size)) {
  fd_ = memfd_create(name.c_str(), MFD_CLOEXEC);
  if (fd_ < 0) return;
  if (ftruncate(fd_, static_cast<off_t>(size_)) != 0) return;
  void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd_, 0);
  if (p == MAP_FAILED) return;
  base_ = static_cast<uint8_t*>(p);
  free_[0] = size_;
  available_ = size_;
}

HostArena::~HostArena() {
  if (base_) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
}

std::optional<uint64_t> HostArena::allocate(uint64_t size) {
  if (!base_ || size == 0 || size > size_) return std::nullopt;
  const uint64_t len = round(size);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < len) continue;
    const uint64_t off = it->first;
    const uint64_t rest = it->second - len;
    free_.erase(it);
    if (rest) free_[off + len] = rest;
    available_ -= len;
    // Fresh pages for every buffer: drop what a previous owner left (another process's data).
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(off), static_cast<off_t>(len));
    return off;
  }
  return std::nullopt;
}

void HostArena::release(uint64_t offset, uint64_t size) {
  const uint64_t len = round(size);
  auto [it, inserted] = free_.emplace(offset, len);
  if (!inserted) return;
  available_ += len;
  auto next = std::next(it);
  if (next != free_.end() && it->first + it->second == next->first) {
    it->second += next->second;
    free_.erase(next);
  }
  if (it != free_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      free_.erase(it);
    }
  }
}

}  // namespace rocref::kfd
