// bench/queue/callgrind.h - single-thread push+pop instructions per pair, counted by callgrind.
#pragma once

#include <optional>
#include <string>

#include "bench/queue/options.h"

namespace rocref::bench {

inline constexpr uint64_t kCallgrindPairs = 80000;

// Re-runs this program under `valgrind --tool=callgrind` in child mode for
// one implementation and reads the instructions of the measured loop.
std::optional<double> instructions_per_pair(const SuiteOptions& options, const std::string& implementation,
                                            std::string* error);

// Child mode: runs the measured loop between callgrind's zero and dump requests.
int run_pairs_child(const SuiteOptions& options);

// --check-instructions: every implementation in the baseline file, within 10%.
// Exit status 0 within, 3 regressed, 2 could not measure.
int check_instructions(const SuiteOptions& options);

}  // namespace rocref::bench
