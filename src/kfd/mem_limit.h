// kfd/mem_limit.h - amdkfd's memory accounting (amdgpu_amdkfd_reserve_mem_limit, Linux 5.18).
//
// Every buffer object is charged against three budgets when it is allocated and gives the
// charge back when it is freed (amdgpu_amdkfd_release_notify): system memory (GTT and USERPTR
// pages plus the kernel's per-BO bookkeeping, "acc_size"), TTM memory (GTT pages plus acc_size)
// and the device's VRAM. ALLOC_MEMORY_OF_GPU past any budget is -ENOMEM and charges nothing
// (KFD-MEM-11). The real limits come from the host's free RAM at module load; the model's
// come from its own configured machine (CpuDescription::memory_bytes, the GPU's VRAM size),
// so they are the same on every host.
#pragma once

#include <cstdint>

namespace rocref::kfd {

// What one buffer object costs each budget, in bytes.
struct MemCharge {
  uint64_t system = 0;
  uint64_t ttm = 0;
  uint64_t vram = 0;
};

class MemLimit {
 public:
  // system_memory: the modelled machine's RAM (all of it free when the driver loads);
  // vram: the device's VRAM, which is also amdgpu_amdkfd_total_mem_size (one GPU).
  MemLimit(uint64_t system_memory, uint64_t vram);

  // The charge of a buffer of `size` bytes (page rounded) with these KFD_IOC_ALLOC_MEM_FLAGS_*.
  // The budgets are chosen in the order amdkfd tests the flags: GTT, VRAM, USERPTR, then
  // DOORBELL or MMIO_REMAP (bookkeeping only).
  static MemCharge charge_for(uint64_t size, uint32_t alloc_flags) noexcept;
  // The kernel's bookkeeping for a buffer (amdgpu_amdkfd_acc_size): its amdgpu_bo and ttm_tt
  // and one DMA address plus one page pointer per page.
  static uint64_t acc_size(uint64_t size) noexcept;

  // 0 after charging `c`, or -ENOMEM with nothing charged.
  int reserve(const MemCharge& c) noexcept;
  void unreserve(const MemCharge& c) noexcept;

  // AVAILABLE_MEMORY: VRAM that a new buffer may still take (KFD-MEM-9).
  uint64_t available_vram() const noexcept;

  uint64_t max_system() const noexcept { return max_system_; }
  uint64_t max_ttm() const noexcept { return max_ttm_; }
  uint64_t vram_limit() const noexcept { return vram_limit_; }
  const MemCharge& used() const noexcept { return used_; }

 private:
  uint64_t max_system_;  // 15/16 of system memory
  uint64_t max_ttm_;     // 3/8 of system memory
  uint64_t vram_limit_;  // VRAM less the page-table reserve (ESTIMATE_PT_SIZE)
  MemCharge used_;
};

}  // namespace rocref::kfd
