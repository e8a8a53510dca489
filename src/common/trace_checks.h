// common/trace_checks.h - how often each spec clause's runtime check ran (TRACE-CHK-1).
//
// A runtime check site names its clause once: ROCREF_CHECKED("AQL-ERR-1") right where the
// check runs. While tracing records (trace::enabled()), each pass adds one to that site's
// counter; `rocref run` prints the sums per clause. With tracing off a site costs one relaxed
// load, as a trace event does. Sites register themselves on their first count (a list with no
// lock on the counting path), so only checks that ran appear.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

#include "common/trace.h"

namespace rocref::trace {

struct CheckSite {
  const char* clause;
  std::atomic<uint64_t> count{0};
  CheckSite* next = nullptr;
};

// The site's counter, registered on first use (thread-safe; call once per site).
CheckSite& register_check_site(const char* clause);
// One pass of a site's check.
void count_check(CheckSite& site) noexcept;
// Counts per clause, summed over its sites; clauses whose checks never ran are absent.
std::map<std::string, uint64_t> check_counts();
// Every site back to zero (trace::clear() does this too).
void clear_check_counts() noexcept;

}  // namespace rocref::trace

#define ROCREF_CHECKED(clause)                                                                             \
  do {                                                                                                     \
    if (::rocref::trace::enabled()) {                                                                      \
      static ::rocref::trace::CheckSite& rocref_check_site = ::rocref::trace::register_check_site(clause); \
      ::rocref::trace::count_check(rocref_check_site);                                                     \
    }                                                                                                      \
  } while (0)
