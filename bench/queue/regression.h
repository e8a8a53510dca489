// bench/queue/regression.h - the callgrind regression rule: instructions per pair against a kept baseline.
#pragma once

#include <istream>
#include <sstream>
#include <string>
#include <vector>

namespace rocref::bench {

struct BaselineEntry {
  std::string implementation;
  double instructions_per_pair = 0;
};

// Lines "name instructions-per-pair"; '#' starts a comment. Malformed lines are skipped.
inline std::vector<BaselineEntry> parse_baseline(std::istream& in) {
  std::vector<BaselineEntry> out;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    BaselineEntry e;
    if (fields >> e.implementation >> e.instructions_per_pair && e.instructions_per_pair > 0) out.push_back(e);
  }
  return out;
}

enum class Verdict { Within, Improved, Regressed };

// Regressed when more than `tolerance` (a fraction) above the baseline;
// Improved when more than `tolerance` below (time to lower the baseline).
inline Verdict compare_instructions(double measured, double baseline, double tolerance = 0.10) {
  if (!(measured <= baseline * (1 + tolerance))) return Verdict::Regressed;  // NaN regresses too
  if (measured < baseline * (1 - tolerance)) return Verdict::Improved;
  return Verdict::Within;
}

}  // namespace rocref::bench
