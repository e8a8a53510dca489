// tests/unit/campaign/campaign_test.cpp - campaign descriptions, generators, the item rule, the local
// runner and the merge (missing, duplicate, foreign and failed items -> exit status), spec/campaign.md.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/campaign.h"
#include "cli/campaign_mutant.h"
#include "cli/campaign_runner.h"

namespace rocref::campaign {
namespace {

namespace fs = std::filesystem;

std::string minimal(const std::string& items, const std::string& extra = "") {
  return R"({"format": "rocref-campaign/1", "campaign": "c")" + extra + R"(, "items": )" + items + "}";
}

void expect_rejected(const std::string& text, const std::string& words) {
  try {
    parse_campaign(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const CampaignError& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

Campaign three_commands() {
  return parse_campaign(minimal(R"([{"id": "a", "argv": ["true"]}, {"id": "b", "argv": ["true"]},
                                   {"id": "c", "argv": ["true"]}])"));
}

ItemResult result(const Campaign& c, size_t index, bool passed, int exit = 0) {
  ItemResult r;
  r.campaign = c.name;
  r.index = index;
  r.id = c.items[index].id;
  r.passed = passed;
  r.exit_status = exit;
  r.seconds = 0.5;
  r.host = "node1";
  r.reason = passed ? "" : "exit status 1 is not an expected one";
  return r;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "rocref-campaign-test-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(Campaign, CAMP_DESC_1_RoundTripKeepsEveryField) {
  const Campaign c = parse_campaign(minimal(
      R"([{"id": "x", "argv": ["sh", "-c", "echo {index} > {results}/f"], "env": {"A": "1"},
           "expect": {"exit": [0, 3], "output": "ok"}},
          {"id": "y", "kind": "gpu-seed", "args": {"suite": "hsa", "seed": 9}}])",
      R"(, "root": "/src", "build": "b", "exclusive": true, "timeout_s": 30, "expect": {"exit": [1]})"));
  const Campaign d = parse_campaign(to_json(c));
  EXPECT_EQ(d.name, "c");
  EXPECT_EQ(d.root, "/src");
  EXPECT_EQ(d.build, "b");
  EXPECT_TRUE(d.exclusive);
  EXPECT_EQ(d.timeout_s, 30u);
  ASSERT_TRUE(d.expect);
  EXPECT_EQ(d.expect->exit, std::vector<int>{1});
  ASSERT_EQ(d.items.size(), 2u);
  EXPECT_EQ(d.items[0].argv.size(), 3u);
  EXPECT_EQ(d.items[0].env.at("A"), "1");
  ASSERT_TRUE(d.items[0].expect);
  EXPECT_EQ(d.items[0].expect->exit, (std::vector<int>{0, 3}));
  EXPECT_EQ(d.items[0].expect->output, "ok");
  EXPECT_EQ(d.items[1].kind, "gpu-seed");
  EXPECT_EQ(d.items[1].args["seed"], 9);
}

TEST(Campaign, CAMP_DESC_1_RejectsMalformedDescriptions) {
  expect_rejected("[1]", "JSON object");
  expect_rejected("{", "not JSON");
  expect_rejected(R"({"campaign": "c", "items": [{"id": "a", "argv": ["true"]}]})", "format");
  expect_rejected(minimal("[]"), "non-empty");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"]}, {"id": "a", "argv": ["true"]}])"), "duplicate id");
  expect_rejected(minimal(R"([{"id": "", "argv": ["true"]}])"), "empty id");
  expect_rejected(minimal(R"([{"id": "a"}])"), "argv");
  expect_rejected(minimal(R"([{"id": "a", "kind": "rocket"}])"), "unknown kind");
  expect_rejected(minimal(R"([{"id": "a", "kind": "gpu-seed", "args": {"suite": "hsa"}}])"), "args.seed");
  expect_rejected(minimal(R"([{"id": "a", "kind": "gpu-seed", "args": {"suite": "nope", "seed": 1}}])"),
                  "unknown suite");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"], "colour": 1}])"), "unknown field");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"], "expect": {"exit": [256]}}])"), "exit status");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"], "expect": {"output": "("}}])"), "regular expression");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"]}])", R"(, "merge": "verify")"), "verify-row items only");
  expect_rejected(minimal(R"([{"id": "a", "argv": ["true"]}])", R"(, "merge": "zip")"), "\"merge\"");
}

TEST(Campaign, CAMP_GEN_1_VerifyRowsFromListJson) {
  const std::string list = R"([{"id": 1, "property": "p", "configuration": "c1"},
                               {"id": 2, "property": "p", "configuration": "c2"}])";
  const Campaign c = parse_campaign(to_json(verify_campaign("v", list, {"--quick", "--property", "aql"})));
  EXPECT_EQ(c.merge, "verify");
  ASSERT_EQ(c.items.size(), 2u);
  EXPECT_EQ(c.items[1].id, "verify-2");
  const Launch l = launch_of(c, 1, "/bin/rocref", "/res");
  EXPECT_EQ(l.argv, (std::vector<std::string>{"/bin/rocref", "verify", "--quick", "--property", "aql", "--row", "2",
                                              "--json", "/res/artifact-1.json"}));
  EXPECT_EQ(l.artifact, "/res/artifact-1.json");
  EXPECT_EQ(l.expect.exit, std::vector<int>{0});
  EXPECT_THROW(verify_campaign("v", "[]", {}), CampaignError);
  EXPECT_THROW(verify_campaign("v", R"([{"property": "p"}])", {}), CampaignError);
}

TEST(Campaign, CAMP_GEN_2_SeedsTimesSuitesAsFuzzGpuRunsThem) {
  const Campaign c = parse_campaign(to_json(gpu_seed_campaign("g", {"hsa", "clr"}, 5, 3)));
  ASSERT_EQ(c.items.size(), 6u);
  EXPECT_EQ(c.items[0].id, "hsa-seed-5");
  EXPECT_EQ(c.items[1].id, "clr-seed-5");
  EXPECT_EQ(c.items[5].id, "clr-seed-7");
  Campaign rooted = c;
  rooted.root = "/src";
  const Launch l = launch_of(rooted, 2, "/bin/rocref", "/res");
  EXPECT_EQ(l.argv, (std::vector<std::string>{"/src/scripts/fuzz-gpu", "--seed", "6", "--build", "/src/build", "hsa"}));
  // A suite that is not built makes fuzz-gpu exit 0 with no run: that must not pass.
  EXPECT_FALSE(judge(l.expect, 0, "scripts/fuzz-gpu: 0 runs, 0 failed (seeds 6..6)\n", nullptr));
  EXPECT_TRUE(judge(l.expect, 0, "scripts/fuzz-gpu: 1 runs, 0 failed (seeds 6..6)\n", nullptr));
  EXPECT_FALSE(judge(l.expect, 1, "FAIL suite=hsa seed=6\nscripts/fuzz-gpu: 1 runs, 1 failed\n", nullptr));
  EXPECT_THROW(gpu_seed_campaign("g", {"nope"}, 1, 1), CampaignError);
  EXPECT_THROW(gpu_seed_campaign("g", {"hsa"}, 1, 0), CampaignError);
}

TEST(Campaign, CAMP_GEN_3_MutantsFromTheCatalogue) {
  const std::string tsv =
      "# comment\nC01\tsrc/a.cpp\ts/x/y/\tt1\t^t1\nC02\tsrc/a.cpp\ts/x/z/\tt1\t^t1\nH01\tsrc/b.cpp\ts/p/q/\tt2\t^t2\n";
  const Campaign c = parse_campaign(to_json(mutant_campaign("m", tsv, "tests/mutation.tsv", "^C")));
  EXPECT_TRUE(c.exclusive);
  ASSERT_EQ(c.items.size(), 2u);
  EXPECT_EQ(c.items[1].id, "mutant-C02");
  Campaign rooted = c;
  rooted.root = "/src";
  const Launch l = launch_of(rooted, 1, "/bin/rocref", "/res");
  EXPECT_EQ(l.argv, (std::vector<std::string>{"/src/scripts/mutate", "/src/tests/mutation.tsv", "/src/build"}));
  EXPECT_EQ(l.env.at("MUT_ONLY"), "^C02$");
  EXPECT_TRUE(judge(l.expect, 0, "C02\tkilled(unit_clr)\t12s\tsrc/a.cpp\ts/x/z/\n", nullptr));
  EXPECT_FALSE(judge(l.expect, 0, "C02\tsurvived\t12s\tsrc/a.cpp\ts/x/z/\n", nullptr));
  EXPECT_FALSE(judge(l.expect, 0, "C01\tkilled(unit_clr)\t12s\n", nullptr));
  EXPECT_THROW(mutant_campaign("m", tsv, "t", "^Z"), CampaignError);
  EXPECT_THROW(mutant_campaign("m", "C01\tonly two\n", "t", ""), CampaignError);
}

TEST(Campaign, CAMP_RES_1_RuleJudgesExitStatusAndOutput) {
  std::string why;
  EXPECT_TRUE(judge(Expect{}, 0, "", &why));
  EXPECT_FALSE(judge(Expect{}, 1, "", &why));
  EXPECT_NE(why.find("exit status 1"), std::string::npos);
  EXPECT_TRUE(judge(Expect{{1, 2}, ""}, 2, "", &why));
  EXPECT_TRUE(judge(Expect{{}, "done"}, 139, "all done\n", &why));
  EXPECT_FALSE(judge(Expect{{0}, "done"}, 0, "nothing\n", &why));
  EXPECT_NE(why.find("no match"), std::string::npos);
  const ItemResult r = item_result_from_json(to_json(result(three_commands(), 1, false, 1)));
  EXPECT_EQ(r.id, "b");
  EXPECT_EQ(r.index, 1u);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.exit_status, 1);
  EXPECT_EQ(r.host, "node1");
  EXPECT_THROW(item_result_from_json("{}"), CampaignError);
  EXPECT_THROW(item_result_from_json("nope"), CampaignError);
}

TEST(Campaign, CAMP_RES_1_MutantExitStatusIgnoredIsCaught) {
  set_campaign_mutant(CampaignMutant::ExitStatusIgnored, true);
  const bool judged = judge(Expect{}, 1, "", nullptr);
  set_campaign_mutant(CampaignMutant::ExitStatusIgnored, false);
  EXPECT_TRUE(judged) << "the planted bug changed nothing";
  EXPECT_FALSE(judge(Expect{}, 1, "", nullptr));
}

TEST(Campaign, CAMP_MRG_1_TableJunitAndExitStatus) {
  const Campaign c = three_commands();
  Merged m = merge(c, {result(c, 2, true), result(c, 0, true), result(c, 1, true)});
  EXPECT_EQ(exit_status(m), 0);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.rows[0].id, "a");  // item order, not result order
  m = merge(c, {result(c, 0, true), result(c, 1, false, 1), result(c, 2, true)});
  EXPECT_EQ(exit_status(m), 1);
  EXPECT_EQ(m.failed, 1u);
  std::ostringstream table, junit;
  print_table(table, m);
  write_junit(junit, m);
  EXPECT_NE(table.str().find("FAIL"), std::string::npos);
  EXPECT_NE(table.str().find("3 items of campaign c: 1 failed, 0 missing"), std::string::npos) << table.str();
  EXPECT_NE(junit.str().find("tests=\"3\" failures=\"1\""), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("<failure message=\"exit status 1"), std::string::npos) << junit.str();
}

TEST(Campaign, CAMP_MRG_2_MissingItemFails) {
  const Campaign c = three_commands();
  const Merged m = merge(c, {result(c, 0, true), result(c, 2, true)});
  EXPECT_EQ(m.missing, 1u);
  EXPECT_EQ(exit_status(m), 1);
  ASSERT_EQ(m.rows.size(), 3u);
  EXPECT_EQ(m.rows[1].state, "MISSING");
  std::ostringstream junit;
  write_junit(junit, m);
  EXPECT_NE(junit.str().find("failures=\"1\""), std::string::npos);
  EXPECT_EQ(exit_status(merge(c, {})), 1);
}

TEST(Campaign, CAMP_MRG_2_MutantMissingItemDroppedIsCaught) {
  const Campaign c = three_commands();
  set_campaign_mutant(CampaignMutant::MissingItemDropped, true);
  const Merged m = merge(c, {result(c, 0, true), result(c, 2, true)});
  set_campaign_mutant(CampaignMutant::MissingItemDropped, false);
  // The planted bug passes a campaign with an item never run: exactly what CAMP_MRG_2 refuses.
  EXPECT_EQ(exit_status(m), 0);
  EXPECT_EQ(exit_status(merge(c, {result(c, 0, true), result(c, 2, true)})), 1);
}

TEST(Campaign, CAMP_MRG_3_DuplicateAndForeignResultsRefused) {
  const Campaign c = three_commands();
  EXPECT_THROW(merge(c, {result(c, 0, true), result(c, 0, false, 1), result(c, 1, true), result(c, 2, true)}),
               CampaignError);
  ItemResult wrong_id = result(c, 1, true);
  wrong_id.id = "a";  // mis-merged: item 1's slot holding item 0's name
  EXPECT_THROW(merge(c, {result(c, 0, true), wrong_id, result(c, 2, true)}), CampaignError);
  ItemResult past_end = result(c, 2, true);
  past_end.index = 3;
  EXPECT_THROW(merge(c, {past_end}), CampaignError);
  ItemResult other = result(c, 0, true);
  other.campaign = "another";
  EXPECT_THROW(merge(c, {other}), CampaignError);
}

TEST(Campaign, CAMP_MRG_3_MutantDuplicateLastWinsIsCaught) {
  const Campaign c = three_commands();
  set_campaign_mutant(CampaignMutant::DuplicateLastWins, true);
  int status = -1;
  try {
    status =
        exit_status(merge(c, {result(c, 0, false, 1), result(c, 0, true), result(c, 1, true), result(c, 2, true)}));
  } catch (const CampaignError&) {
  }
  set_campaign_mutant(CampaignMutant::DuplicateLastWins, false);
  EXPECT_EQ(status, 0) << "the planted bug changed nothing";
}

TEST(Campaign, CAMP_RUN_1_LocalRunnerItemResultsAndTimeout) {
  TempDir dir;
  Campaign c = parse_campaign(minimal(
      R"([{"id": "ok", "argv": ["sh", "-c", "echo hello {index} > {results}/out-{index}; echo fine"],
           "expect": {"output": "fine"}},
          {"id": "bad", "argv": ["sh", "-c", "echo broken; exit 3"]},
          {"id": "slow", "argv": ["sleep", "30"]},
          {"id": "absent", "argv": ["/no/such/program"]}])",
      R"(, "timeout_s": 1)"));
  c.root = dir.path.string();
  const std::string res = (dir.path / "res").string();
  std::vector<ItemResult> results;
  for (size_t i = 0; i < c.items.size(); ++i) results.push_back(run_item(c, i, "/unused", res));
  EXPECT_TRUE(results[0].passed) << results[0].reason;
  std::ifstream out(res + "/out-0");
  std::string word;
  out >> word;
  EXPECT_EQ(word, "hello");
  EXPECT_FALSE(results[1].passed);
  EXPECT_EQ(results[1].exit_status, 3);
  EXPECT_NE(results[1].output_tail.find("broken"), std::string::npos);
  EXPECT_FALSE(results[2].passed);
  EXPECT_NE(results[2].reason.find("timeout"), std::string::npos);
  EXPECT_LT(results[2].seconds, 10);
  EXPECT_EQ(results[3].exit_status, 127);
  const std::vector<ItemResult> back = read_results({res});
  ASSERT_EQ(back.size(), 4u);
  const Merged m = merge(c, back);
  EXPECT_EQ(m.failed, 3u);
  EXPECT_EQ(exit_status(m), 1);
}

TEST(Campaign, CAMP_RUN_2_SbatchArrayScriptAndOptions) {
  Campaign c = three_commands();
  SubmitOptions o;
  o.partition = "gpu";
  o.account = "proj1";
  o.time = "0:10:00";
  o.throttle = 2;
  o.sbatch_args = {"--mem=4G"};
  o.srun_args = {"--cpu-bind=none"};
  o.wait = true;
  const std::string script = sbatch_script(c, "/shared/c.json", "/opt/rocref", "/shared/res", o);
  EXPECT_EQ(script.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_NE(script.find("exec srun '--cpu-bind=none' '/opt/rocref' campaign item '/shared/c.json' --index "
                        "\"$SLURM_ARRAY_TASK_ID\" --results '/shared/res'"),
            std::string::npos)
      << script;
  const std::vector<std::string> cmd = sbatch_command(c, "/shared/res/campaign.sbatch", o);
  const std::vector<std::string> want{"sbatch",
                                      "--parsable",
                                      "--array=0-2%2",
                                      "--job-name=rocref-c",
                                      "--output=/shared/res/slurm-%A_%a.out",
                                      "--partition=gpu",
                                      "--account=proj1",
                                      "--time=0:10:00",
                                      "--wait",
                                      "--mem=4G",
                                      "/shared/res/campaign.sbatch"};
  EXPECT_EQ(cmd, want);
  c.exclusive = true;
  EXPECT_EQ(sbatch_command(c, "/r/s", SubmitOptions{})[2], "--array=0-2%1");
}

}  // namespace
}  // namespace rocref::campaign
