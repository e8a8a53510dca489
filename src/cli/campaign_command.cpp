// cli/campaign_command.cpp - `rocref campaign {make,run,submit,item,merge}`: long campaigns as data,
// run in local worker processes or as a Slurm job array, merged into one table (spec/campaign.md).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/campaign.h"
#include "cli/campaign_runner.h"
#include "cli/command.h"
#include "cli/parse_args.h"

namespace {

namespace fs = std::filesystem;
using namespace rocref::campaign;

constexpr const char* kDescription =
    "Long campaigns (verify rows, adversarial-GPU seeds, mutants, any command lines) as one JSON\n"
    "description, run in local worker processes (`run`) or as a Slurm job array (`submit`), each item\n"
    "writing its result into a results folder; `merge` turns the folder into one table, JUnit XML and\n"
    "exit status (verify campaigns: verify's own --merge table). Exit status 1 if an item failed or has\n"
    "no result, 2 on a bad description, a result for no item or two results for one item.";

std::string self_exe() {
  std::error_code ec;
  const auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw CampaignError("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool write_text(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text << std::flush;
    return true;
  }
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "rocref campaign: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

// A description with its root made absolute (relative roots are relative to the description's folder).
Campaign load(const std::string& path) {
  Campaign c = parse_campaign(read_file(path));
  if (fs::path(c.root).is_relative()) c.root = fs::weakly_canonical(fs::absolute(path).parent_path() / c.root).string();
  return c;
}

// The merge step of run, submit --wait and merge. Verify campaigns hand their rows' --json files
// to `rocref verify --merge`, so the table is the one `rocref verify --jobs N` prints.
int merge_and_report(const Campaign& c, const std::vector<std::string>& dirs, const std::string& junit) {
  Merged m;
  try {
    m = merge(c, read_results(dirs));
  } catch (const CampaignError& e) {
    std::fprintf(stderr, "rocref campaign merge: %s\n", e.what());
    return 2;
  }
  if (c.merge == "verify") {
    // A row whose --json file is gone cannot be merged: it fails, and the campaign's table says so.
    for (MergedRow& r : m.rows) {
      if (r.state == "PASS" && (r.artifact.empty() || !fs::exists(r.artifact))) {
        r.state = "FAIL";
        r.reason = "its verify --json file " + r.artifact + " is missing";
        ++m.failed;
      }
    }
  }
  bool artifacts = c.merge == "verify" && m.missing == 0;
  for (const MergedRow& r : m.rows) artifacts = artifacts && !r.artifact.empty() && fs::exists(r.artifact);
  if (artifacts) {
    std::vector<std::string> argv{self_exe(), "verify", "--merge"};
    for (const MergedRow& r : m.rows) argv.push_back(r.artifact);
    if (!junit.empty()) argv.insert(argv.end(), {"--junit", junit});
    std::string out;
    const int status = capture(argv, &out);
    std::cout << out << std::flush;
    return status;
  }
  print_table(std::cout, m);
  if (!junit.empty()) {
    std::ostringstream x;
    write_junit(x, m);
    if (!write_text(junit, x.str())) return 2;
  }
  return exit_status(m);
}

struct Common {
  std::string name, root, build = "build", output;
};

void add_common(CLI::App* app, Common& o) {
  app->add_option("--name", o.name, "the campaign's name (default: the generator's)");
  app->add_option("--root", o.root, "the checkout items run in (default: the current folder)");
  app->add_option("--build", o.build, "the build folder, relative to the root or absolute (default: build)");
  app->add_option("-o,--output", o.output, "write the description to FILE (default: stdout)");
}

int finish_make(Campaign c, const Common& o, const std::string& default_name) {
  c.name = o.name.empty() ? default_name : o.name;
  c.root = o.root.empty() ? fs::current_path().string() : fs::absolute(o.root).string();
  c.build = o.build;
  const std::string text = to_json(c);
  parse_campaign(text);  // what make writes, run reads
  return write_text(o.output, text) ? 0 : 2;
}

int campaign_main(const std::vector<std::string>& args) {
  CLI::App app{kDescription, "rocref campaign"};
  app.get_formatter()->column_width(26);
  app.require_subcommand(1);

  CLI::App* make = app.add_subcommand("make", "write a campaign description from a generator");
  make->require_subcommand(1);
  Common mv, mg, mm;
  CLI::App* make_verify = make->add_subcommand("verify", "one item per `rocref verify OPTIONS --list --json` row");
  add_common(make_verify, mv);
  std::vector<std::string> verify_options;
  std::string list_file;
  make_verify->add_option("--list", list_file, "read the rows from this --list --json output instead of running it")
      ->check(CLI::ExistingFile);
  make_verify->add_option("options", verify_options, "verify's options, after `--` (e.g. -- --quick --property aql)");
  CLI::App* make_gpu = make->add_subcommand("gpu-seeds", "seeds x suites of the adversarial GPU (scripts/fuzz-gpu)");
  add_common(make_gpu, mg);
  std::vector<std::string> suites;
  unsigned first = 1, seeds = 100;
  make_gpu->add_option("--suite", suites, "a scripts/fuzz-gpu suite (repeat; default: all)");
  make_gpu->add_option("--first", first, "first seed (default 1)");
  make_gpu->add_option("--seeds", seeds, "how many seeds (default 100)")->check(CLI::Range(1u, 1000000u));
  CLI::App* make_mut = make->add_subcommand("mutants", "one item per mutant of a scripts/mutate catalogue");
  add_common(make_mut, mm);
  std::string catalogue = "tests/mutation.tsv", only;
  make_mut->add_option("--catalogue", catalogue, "the catalogue, relative to the root (default tests/mutation.tsv)");
  make_mut->add_option("--only", only, "only mutant ids matching this regular expression");

  std::string description, junit;
  std::vector<std::string> results;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  CLI::App* run = app.add_subcommand("run", "run every item in local worker processes, then merge");
  run->add_option("description", description, "the campaign's JSON file")->required()->check(CLI::ExistingFile);
  run->add_option("--results", results, "the results folder")->required()->expected(1);
  run->add_option("-j,--jobs", jobs, "items at once (default: the machine's cores)")->check(CLI::Range(1u, 1024u));
  run->add_option("--junit", junit, "write JUnit XML to FILE");

  SubmitOptions so;
  bool dry_run = false;
  CLI::App* submit = app.add_subcommand("submit", "submit every item as one Slurm job array (sbatch --array)");
  submit->add_option("description", description, "the campaign's JSON file")->required()->check(CLI::ExistingFile);
  submit->add_option("--results", results, "the results folder, on a filesystem every node shares")
      ->required()
      ->expected(1);
  submit->add_option("-p,--partition", so.partition, "sbatch --partition");
  submit->add_option("-A,--account", so.account, "sbatch --account");
  submit->add_option("-t,--time", so.time, "sbatch --time, per array task (e.g. 0:30:00)");
  submit->add_option("-J,--job-name", so.job_name, "sbatch --job-name (default rocref-NAME)");
  submit->add_option("--throttle", so.throttle, "at most this many tasks at once (--array=...%N)");
  submit->add_option("--sbatch-arg", so.sbatch_args, "one more sbatch option, passed as it is (repeat)")
      ->allow_extra_args(false);
  submit->add_option("--srun-arg", so.srun_args, "run each item through `srun ARG...` (repeat)")
      ->allow_extra_args(false);
  submit->add_flag("--wait", so.wait, "sbatch --wait, then merge");
  submit->add_flag("--dry-run", dry_run, "write the batch script and print the sbatch command; submit nothing");
  submit->add_option("--junit", junit, "with --wait: write JUnit XML to FILE");

  size_t index = 0;
  CLI::App* item = app.add_subcommand("item", "run one item (what each worker and each array task runs)");
  item->add_option("description", description, "the campaign's JSON file")->required()->check(CLI::ExistingFile);
  item->add_option("--results", results, "the results folder")->required()->expected(1);
  item->add_option("--index", index, "the item (0-based; default $SLURM_ARRAY_TASK_ID)");

  CLI::App* merge_cmd = app.add_subcommand("merge", "merge results folders into the table, JUnit XML and exit status");
  merge_cmd->add_option("description", description, "the campaign's JSON file")->required()->check(CLI::ExistingFile);
  merge_cmd->add_option("--results", results, "a results folder (repeat to merge several)")->required();
  merge_cmd->add_option("--junit", junit, "write JUnit XML to FILE");

  if (const int code = rocref::cli::parse_args(app, args); code >= 0) return code;
  const std::string exe = self_exe();
  try {
    if (*make_verify) {
      std::string list;
      if (!list_file.empty()) {
        list = read_file(list_file);
      } else {
        std::vector<std::string> argv{exe, "verify"};
        argv.insert(argv.end(), verify_options.begin(), verify_options.end());
        argv.insert(argv.end(), {"--list", "--json"});
        if (capture(argv, &list) != 0) throw CampaignError("rocref verify --list --json failed");
      }
      return finish_make(verify_campaign("verify", list, verify_options), mv, "verify");
    }
    if (*make_gpu) {
      if (suites.empty()) suites = {"hip", "hsa", "hsakmt", "clr", "clr-mutants", "blit-mutants", "foreign"};
      return finish_make(gpu_seed_campaign("gpu-seeds", suites, first, seeds), mg, "gpu-seeds");
    }
    if (*make_mut) {
      const std::string root = mm.root.empty() ? fs::current_path().string() : mm.root;
      const std::string path = fs::path(catalogue).is_relative() ? (fs::path(root) / catalogue).string() : catalogue;
      return finish_make(mutant_campaign("mutants", read_file(path), catalogue, only), mm, "mutants");
    }
    const std::string desc = fs::absolute(description).string();
    const Campaign c = load(desc);
    std::vector<std::string> dirs;
    for (const std::string& r : results) dirs.push_back(fs::absolute(r).string());
    if (*item) {
      if (!item->count("--index")) {
        const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
        if (!task) throw CampaignError("no --index and no SLURM_ARRAY_TASK_ID");
        index = std::strtoul(task, nullptr, 10);
      }
      if (index >= c.items.size()) {
        throw CampaignError("no item " + std::to_string(index) + " (there are " + std::to_string(c.items.size()) + ")");
      }
      return run_item(c, index, exe, dirs[0]).passed ? 0 : 1;
    }
    if (*run) {
      run_local(c, desc, exe, dirs[0], jobs, std::cerr);
      return merge_and_report(c, dirs, junit);
    }
    if (*submit) {
      fs::create_directories(dirs[0]);
      const std::string script = (fs::path(dirs[0]) / "campaign.sbatch").string();
      if (!write_text(script, sbatch_script(c, desc, exe, dirs[0], so))) return 2;
      const std::vector<std::string> cmd = sbatch_command(c, script, so);
      if (dry_run) {
        for (const std::string& a : cmd) std::cout << a << (&a == &cmd.back() ? "\n" : " ");
        return 0;
      }
      std::string out;
      const int status = capture(cmd, &out);
      while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
      std::fprintf(stderr, "rocref campaign submit: job %s (%zu array tasks)\n", out.c_str(), c.items.size());
      if (status != 0 && !so.wait) {
        std::fprintf(stderr, "rocref campaign submit: sbatch failed (exit status %d)\n", status);
        return 2;
      }
      // sbatch --wait exits non-zero when a task did: the merge says which and why.
      return so.wait ? merge_and_report(c, dirs, junit) : 0;
    }
    if (*merge_cmd) return merge_and_report(c, dirs, junit);
  } catch (const CampaignError& e) {
    std::fprintf(stderr, "rocref campaign: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rocref campaign: %s\n", e.what());
    return 2;
  }
  return 2;
}

const rocref::cli::CommandRegistration kCampaign("campaign",
                                                 "run long campaigns locally or as Slurm job arrays, then merge",
                                                 campaign_main);

}  // namespace
