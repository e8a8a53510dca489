// cli/campaign.h - a campaign as data (spec/campaign.md): its description, the generators of
// descriptions (verify rows, adversarial-GPU seeds x suites, mutants), item results and their merge.
//
// A campaign is a list of items, each one process to run; `rocref campaign` runs the items in
// local worker processes or as a Slurm job array (campaign_runner.h). Every runner writes one
// result file per item into a results folder; merge() turns a folder of them into one table,
// JUnit XML and exit status, whatever ran them.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rocref::campaign {

// A malformed description or result: the message names the problem (exit status 2).
struct CampaignError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The expected-result rule: an item passes when its exit status is one of `exit` (empty: any)
// and its combined output contains a match of `output` (ECMAScript; empty: no condition).
struct Expect {
  std::vector<int> exit{0};
  std::string output;
};

struct Item {
  std::string id;
  std::string kind;                                // "command", "verify-row", "gpu-seed", "mutant"
  nlohmann::json args = nlohmann::json::object();  // the kind's arguments
  std::vector<std::string> argv;                   // "command": the command line
  std::map<std::string, std::string> env;          // set for this item's process
  std::optional<Expect> expect;                    // overrides the kind's and the campaign's rule
};

struct Campaign {
  std::string name;
  std::string root = ".";        // folder the items run in (the checkout)
  std::string build = "build";   // build folder, relative to root or absolute
  std::string merge = "status";  // "status" or "verify" (verify rows: verify's own --merge)
  std::optional<Expect> expect;  // the campaign's default rule (else each kind's)
  bool exclusive = false;        // items must run one at a time (mutants edit the checkout)
  unsigned timeout_s = 0;        // per item; 0: none
  std::vector<Item> items;
};

inline constexpr const char* kFormat = "rocref-campaign/1";

// Parses and checks a description; throws CampaignError naming the first problem (unknown
// field value, duplicate or empty item id, unknown kind, a kind's missing argument).
Campaign parse_campaign(const std::string& text);
std::string to_json(const Campaign& c);

// Generators. `list_json` is what `rocref verify OPTIONS --list --json` printed; every item
// runs one of its rows with the same OPTIONS, and the campaign merges through verify's --merge.
Campaign verify_campaign(const std::string& name, const std::string& list_json,
                         const std::vector<std::string>& options);
// Seeds first..first+count-1 of each suite, as scripts/fuzz-gpu runs them (seed-major order).
Campaign gpu_seed_campaign(const std::string& name, const std::vector<std::string>& suites, unsigned first,
                           unsigned count);
// One item per mutant line of a scripts/mutate catalogue (tests/mutation.tsv); `only` (ECMAScript,
// empty: all) selects ids. Exclusive: each mutant edits and restores the checkout.
Campaign mutant_campaign(const std::string& name, const std::string& catalogue_text, const std::string& catalogue_path,
                         const std::string& only);

// What an item's process is: its command line, environment, rule and the file it must leave.
struct Launch {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
  Expect expect;
  std::string artifact;  // a file the item writes (verify rows: their --json); empty: none
};
// `rocref`: the tool's path; `results`: the results folder. `{results}` and `{index}` in a
// command item's arguments are replaced.
Launch launch_of(const Campaign& c, size_t index, const std::string& rocref, const std::string& results);

// Judges a finished item; on failure `why` says which part of the rule did not hold.
bool judge(const Expect& e, int exit_status, const std::string& output, std::string* why);

struct ItemResult {
  std::string campaign;
  size_t index = 0;
  std::string id;
  int exit_status = 0;  // 128+N: killed by signal N
  bool passed = false;
  double seconds = 0;
  std::string host;
  std::string reason;  // why it failed
  std::string output_tail;
  std::string artifact;  // absolute path, when the item has one
};
std::string to_json(const ItemResult& r);
ItemResult item_result_from_json(const std::string& text);  // throws CampaignError
// The file an item's result goes to, inside the results folder.
std::string result_file_name(size_t index);

struct MergedRow {
  size_t index = 0;
  std::string id;
  std::string state;  // PASS, FAIL, MISSING
  int exit_status = 0;
  double seconds = 0;
  std::string host;
  std::string reason;
  std::string artifact;
};
struct Merged {
  std::string campaign;
  std::vector<MergedRow> rows;  // one per item, in item order
  size_t failed = 0, missing = 0;
};
// One row per item. A result for no item of this campaign, or two results for one item, throw
// CampaignError (exit 2); an item without a result is MISSING and counts as failing.
Merged merge(const Campaign& c, const std::vector<ItemResult>& results);
// 0: every item passed; 1: an item failed or is missing.
inline int exit_status(const Merged& m) { return m.failed + m.missing == 0 ? 0 : 1; }

void print_table(std::ostream& out, const Merged& m);
void write_junit(std::ostream& out, const Merged& m);

}  // namespace rocref::campaign
