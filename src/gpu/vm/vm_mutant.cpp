// gpu/vm/vm_mutant.cpp - switches for the planted GPUVM bugs (test-only library).
#include "gpu/vm/vm_mutant.h"

#ifdef ROCREF_GPUVM_MUTANTS
#include <atomic>

namespace rocref::gpu::vm {
namespace {
std::atomic<uint32_t> g_active{0};
}
bool vm_mutant_active(VmMutant m) noexcept {
  return (g_active.load(std::memory_order_relaxed) >> static_cast<uint32_t>(m)) & 1u;
}
void set_vm_mutant(VmMutant m, bool on) noexcept {
  const uint32_t bit = 1u << static_cast<uint32_t>(m);
  if (on) g_active.fetch_or(bit, std::memory_order_relaxed);
  else g_active.fetch_and(~bit, std::memory_order_relaxed);
}
}  // namespace rocref::gpu::vm
#endif
