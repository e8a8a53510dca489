// kfd/kfd_mutant.cpp - switches for the planted KFD bugs of kfd_mutant.h.
#include "kfd/kfd_mutant.h"

#ifdef ROCREF_KFD_MUTANTS
#include <atomic>

namespace rocref::kfd {
namespace {
std::atomic<bool> g_on[static_cast<unsigned>(KfdMutant::kCount)];
}
bool kfd_mutant_active(KfdMutant m) noexcept { return g_on[static_cast<unsigned>(m)].load(std::memory_order_relaxed); }
void set_kfd_mutant(KfdMutant m, bool on) noexcept { g_on[static_cast<unsigned>(m)].store(on); }
}  // namespace rocref::kfd
#endif
