// kfd/mem_limit.cpp - the budgets and charges of amdgpu_amdkfd_reserve_mem_limit (Linux 5.18).
#include "kfd/mem_limit.h"

#include <linux/kfd_ioctl.h>

#include <cerrno>

#include "kfd/kfd_mutant.h"

namespace rocref::kfd {
namespace {

constexpr uint64_t kPage = 4096;
// sizeof(struct amdgpu_bo) and sizeof(struct ttm_tt) rounded up to powers of two, as
// amdgpu_amdkfd_acc_size rounds them. They depend on the kernel's configuration; these are
// the model's values (an x86-64 5.18 build's structures round to them).
constexpr uint64_t kAmdgpuBoBytes = 1024;
constexpr uint64_t kTtmTtBytes = 128;
constexpr uint64_t kPerPageBytes = sizeof(uint64_t) + sizeof(void*);  // dma_addr_t + struct page*

uint64_t page_align(uint64_t n) noexcept { return (n + kPage - 1) & ~(kPage - 1); }

}  // namespace

MemLimit::MemLimit(uint64_t system_memory, uint64_t vram)
    // amdgpu_amdkfd_gpuvm_init_mem_limits: system = mem - mem/16, TTM = mem/2 - mem/8.
    : max_system_(system_memory - (system_memory >> 4)),
      max_ttm_((system_memory >> 1) - (system_memory >> 3)),
      // ESTIMATE_PT_SIZE(amdgpu_amdkfd_total_mem_size): page tables for the VRAM of every GPU
      // at a 2 MiB/4 KiB mix, 1/16384 of it, kept back from what KFD buffers may take.
      vram_limit_(vram - (vram >> 14)) {}

uint64_t MemLimit::acc_size(uint64_t size) noexcept {
  return kAmdgpuBoBytes + kTtmTtBytes + page_align((size / kPage) * kPerPageBytes);
}

MemCharge MemLimit::charge_for(uint64_t size, uint32_t f) noexcept {
  const uint64_t acc = acc_size(size);
  MemCharge c;
  if (f & KFD_IOC_ALLOC_MEM_FLAGS_GTT) {
    c.system = acc + size;
    c.ttm = acc + size;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) {
    c.system = acc;
    c.ttm = acc;
    c.vram = size;
  } else if (f & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
    c.system = acc + size;  // the pinned user pages
    c.ttm = acc;
  } else {  // DOORBELL, MMIO_REMAP: no memory of their own
    c.system = acc;
    c.ttm = acc;
  }
  return c;
}

int MemLimit::reserve(const MemCharge& c) noexcept {
  const bool over =
      c.system > max_system_ - used_.system || c.ttm > max_ttm_ - used_.ttm || c.vram > vram_limit_ - used_.vram;
  if (over && !kfd_mutant_active(KfdMutant::MemLimitUnchecked)) return -ENOMEM;
  used_.system += c.system;
  used_.ttm += c.ttm;
  used_.vram += c.vram;
  return 0;
}

void MemLimit::unreserve(const MemCharge& c) noexcept {
  if (kfd_mutant_active(KfdMutant::FreeKeepsMemCharge)) return;
  used_.system -= c.system;
  used_.ttm -= c.ttm;
  used_.vram -= c.vram;
}

uint64_t MemLimit::available_vram() const noexcept { return used_.vram < vram_limit_ ? vram_limit_ - used_.vram : 0; }

}  // namespace rocref::kfd
