// common/trace_checks.cpp - the per-clause runtime check counters (see trace_checks.h).
#include "common/trace_checks.h"

#include "common/trace_mutant.h"

namespace rocref::trace {
namespace {
// Never destroyed, and pushed at the front only: a site counted as the process exits stays valid.
std::atomic<CheckSite*> g_sites{nullptr};
}  // namespace

CheckSite& register_check_site(const char* clause) {
  auto* site = new CheckSite;
  site->clause = clause;
  site->next = g_sites.load(std::memory_order_relaxed);
  while (!g_sites.compare_exchange_weak(site->next, site, std::memory_order_release, std::memory_order_relaxed)) {
  }
  return *site;
}

void count_check(CheckSite& site) noexcept {
  // Mutant TRACE-CHK-1: a site counts its first pass only.
  if (trace_mutant_active(TraceMutant::CheckCountedOnce) && site.count.load(std::memory_order_relaxed) != 0) return;
  site.count.fetch_add(1, std::memory_order_relaxed);
}

std::map<std::string, uint64_t> check_counts() {
  std::map<std::string, uint64_t> out;
  for (CheckSite* s = g_sites.load(std::memory_order_acquire); s != nullptr; s = s->next) {
    const uint64_t n = s->count.load(std::memory_order_relaxed);
    if (n != 0) out[s->clause] += n;
  }
  return out;
}

void clear_check_counts() noexcept {
  for (CheckSite* s = g_sites.load(std::memory_order_acquire); s != nullptr; s = s->next)
    s->count.store(0, std::memory_order_relaxed);
}

#ifdef ROCREF_ENABLE_MUTANTS
namespace {
MutantSwitchboard<TraceMutant> g_switches;
}
bool trace_mutant_active(TraceMutant m) noexcept { return g_switches.active(m); }
void set_trace_mutant(TraceMutant m, bool on) noexcept { g_switches.set(m, on); }
#endif

}  // namespace rocref::trace
