// cli/campaign_runner.h - the campaign runners (spec/campaign.md): one item in this process's
// child, every item in local worker processes, or every item as one Slurm job array.
//
// Both runners end in run_item: the local runner forks `rocref campaign item` per item, and
// each Slurm array task runs the same command for item $SLURM_ARRAY_TASK_ID, so a results
// folder looks the same whichever ran it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "cli/campaign.h"

namespace rocref::campaign {

// Runs item `index` (cwd: the campaign's root), its output in RESULTS/item-N.log, judges it and
// writes RESULTS/item-N.json (through a temporary name and rename, so a reader on a shared
// filesystem never sees half a result). Returns what it wrote.
ItemResult run_item(const Campaign& c, size_t index, const std::string& rocref, const std::string& results);

// Runs every item as `ROCREF campaign item DESCRIPTION --index I --results RESULTS`, at most
// `jobs` at once (one when the campaign is exclusive), a progress line per finished item.
void run_local(const Campaign& c, const std::string& description, const std::string& rocref, const std::string& results,
               unsigned jobs, std::ostream& progress);

struct SubmitOptions {
  std::string partition, account, time, job_name;
  unsigned throttle = 0;                 // --array=0-(N-1)%THROTTLE; exclusive campaigns get 1
  std::vector<std::string> sbatch_args;  // passed to sbatch as they are
  std::vector<std::string> srun_args;    // non-empty: each task runs its item through `srun ARGS`
  bool wait = false;                     // sbatch --wait: return when every task has ended
};

// The batch script: one array task per item, each running item $SLURM_ARRAY_TASK_ID.
std::string sbatch_script(const Campaign& c, const std::string& description, const std::string& rocref,
                          const std::string& results, const SubmitOptions& o);
// sbatch's command line for that script (the script's path last).
std::vector<std::string> sbatch_command(const Campaign& c, const std::string& script, const SubmitOptions& o);

// Runs argv (PATH searched), capturing stdout; returns the exit status (128+N on signal N, 127 if
// it could not start).
int capture(const std::vector<std::string>& argv, std::string* out);

// Every RESULTS/item-*.json of these folders (throws CampaignError on an unreadable one).
std::vector<ItemResult> read_results(const std::vector<std::string>& dirs);

}  // namespace rocref::campaign
