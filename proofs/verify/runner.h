// proofs/verify/runner.h - runs catalog checks in this process or in parallel worker processes,
// printing one progress line per check with the elapsed time and an estimate of what is left.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "proofs/verify/catalog.h"
#include "proofs/verify/results.h"

namespace rocref::proofs {

// Runs the checks with these 1-based ids here, one after another.
VerifyResults run_here(const std::vector<Check>& checks, const std::vector<uint32_t>& ids, std::ostream& progress);

// Runs every check as `EXE verify WORKER_ARGS... --row ID --json FILE`, at most `jobs` at once
// (fork/exec: each Z3 context stays single-threaded in its own process). A worker that dies or
// writes no result gives one ERROR row with the end of its output.
VerifyResults run_workers(const std::string& exe, const std::vector<Check>& checks,
                          const std::vector<std::string>& worker_args, unsigned jobs, std::ostream& progress);

// The options as `rocref verify` arguments, so a worker builds the same catalog.
std::vector<std::string> option_args(const VerifyOptions& options);

}  // namespace rocref::proofs
