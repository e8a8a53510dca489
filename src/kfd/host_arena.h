// kfd/host_arena.h - a memfd-backed memory pool (the VRAM arena, the GTT pool).
//
// The KFD keeps the whole pool mapped (what the GPU reaches through GPUVM);
// user space maps buffer objects of it a second time at their GPU VA (the
// render-node mmap), so both views share the same pages. First-fit page
// allocation; freed ranges coalesce.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace rocref::kfd {

class HostArena {
 public:
  HostArena(const std::string& name, uint64_t size);
  ~HostArena();
  HostArena(const HostArena&) = delete;
  HostArena& operator=(const HostArena&) = delete;

  bool ok() const noexcept { return base_ != nullptr; }
  // Page-aligned offset of a zeroed range of `size` bytes (rounded up to pages), or nullopt.
  std::optional<uint64_t> allocate(uint64_t size);
  void release(uint64_t offset, uint64_t size);

  uint8_t* at(uint64_t offset) const noexcept { return base_ + offset; }
  int fd() const noexcept { return fd_; }
  uint64_t size() const noexcept { return size_; }
  uint64_t available() const noexcept { return available_; }

 private:
  static uint64_t round(uint64_t size) noexcept;
  int fd_ = -1;
  uint8_t* base_ = nullptr;
  uint64_t size_ = 0;
  uint64_t available_ = 0;
  std::map<uint64_t, uint64_t> free_;  // offset -> length
};

}  // namespace rocref::kfd
