// cli/campaign.cpp - campaign descriptions, generators, item results and their merge (spec/campaign.md).
#include "cli/campaign.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>

#include "cli/campaign_mutant.h"
#include "cli/junit_xml.h"

#ifdef ROCREF_CAMPAIGN_MUTANTS
#include "common/mutant_switch.h"
namespace rocref::campaign {
namespace {
MutantSwitchboard<CampaignMutant> g_switches;
}
bool campaign_mutant_active(CampaignMutant m) noexcept { return g_switches.active(m); }
void set_campaign_mutant(CampaignMutant m, bool on) noexcept { g_switches.set(m, on); }
}  // namespace rocref::campaign
#endif

namespace rocref::campaign {
namespace {

using json = nlohmann::json;

const std::set<std::string> kKinds{"command", "verify-row", "gpu-seed", "mutant"};
const std::set<std::string> kSuites{"hip", "hsa", "hsakmt", "clr", "clr-mutants", "blit-mutants", "foreign"};

[[noreturn]] void fail(const std::string& what) { throw CampaignError(what); }

json expect_json(const Expect& e) {
  json j = json::object();
  j["exit"] = e.exit;
  if (!e.output.empty()) j["output"] = e.output;
  return j;
}

Expect parse_expect(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where + ": \"expect\" must be an object");
  Expect e;
  for (const auto& [key, value] : j.items()) {
    if (key == "exit") {
      if (!value.is_array()) fail(where + ": \"expect.exit\" must be a list of exit statuses");
      e.exit.clear();
      for (const json& v : value) {
        if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 255) {
          fail(where + ": \"expect.exit\" holds a value that is no exit status (0..255)");
        }
        e.exit.push_back(v.get<int>());
      }
    } else if (key == "output") {
      if (!value.is_string()) fail(where + ": \"expect.output\" must be a string");
      e.output = value.get<std::string>();
      try {
        std::regex check(e.output);
      } catch (const std::regex_error&) {
        fail(where + ": \"expect.output\" is not a regular expression: " + e.output);
      }
    } else {
      fail(where + ": unknown field \"expect." + key + "\"");
    }
  }
  return e;
}

std::string text_field(const json& j, const char* key, const std::string& where, bool required) {
  if (!j.contains(key)) {
    if (required) fail(where + ": missing \"" + key + "\"");
    return {};
  }
  if (!j[key].is_string()) fail(where + ": \"" + key + "\" must be a string");
  return j[key].get<std::string>();
}

void check_kind_args(const Item& it, const std::string& where) {
  const json& a = it.args;
  auto need = [&](const char* key, bool number) {
    if (!a.contains(key) || (number ? !a[key].is_number_unsigned() : !a[key].is_string())) {
      fail(where + ": kind \"" + it.kind + "\" needs args." + key + (number ? " (a number)" : " (a string)"));
    }
  };
  if (it.kind == "command") {
    if (it.argv.empty()) fail(where + ": kind \"command\" needs a non-empty \"argv\"");
  } else if (it.kind == "verify-row") {
    need("row", true);
    if (a.contains("options") && !a["options"].is_array()) fail(where + ": args.options must be a list");
    for (const json& o : a.value("options", json::array())) {
      if (!o.is_string()) fail(where + ": args.options must be a list of strings");
    }
  } else if (it.kind == "gpu-seed") {
    need("suite", false);
    need("seed", true);
    if (!kSuites.count(a["suite"].get<std::string>())) {
      fail(where + ": unknown suite \"" + a["suite"].get<std::string>() + "\" (scripts/fuzz-gpu's suites)");
    }
  } else if (it.kind == "mutant") {
    need("mutant", false);
    need("catalogue", false);
  }
  if (it.kind != "command" && !it.argv.empty()) fail(where + ": \"argv\" belongs to kind \"command\" only");
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string join_path(const std::string& dir, const std::string& rel) {
  if (!rel.empty() && rel[0] == '/') return rel;
  return dir + "/" + rel;
}

std::string regex_quote(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

Campaign parse_campaign(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    fail(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) fail("a campaign is a JSON object");
  static const std::set<std::string> kFields{"format", "campaign",  "root",      "build", "merge",
                                             "expect", "exclusive", "timeout_s", "items"};
  for (const auto& [key, value] : j.items()) {
    if (!kFields.count(key)) fail("unknown field \"" + key + "\"");
  }
  if (text_field(j, "format", "campaign", true) != kFormat) fail(std::string("\"format\" must be \"") + kFormat + "\"");
  Campaign c;
  c.name = text_field(j, "campaign", "campaign", true);
  if (c.name.empty()) fail("\"campaign\" (the name) is empty");
  if (j.contains("root")) c.root = text_field(j, "root", "campaign", true);
  if (j.contains("build")) c.build = text_field(j, "build", "campaign", true);
  if (j.contains("merge")) c.merge = text_field(j, "merge", "campaign", true);
  if (c.merge != "status" && c.merge != "verify") fail("\"merge\" must be \"status\" or \"verify\"");
  if (j.contains("expect")) c.expect = parse_expect(j["expect"], "campaign");
  if (j.contains("exclusive")) {
    if (!j["exclusive"].is_boolean()) fail("\"exclusive\" must be true or false");
    c.exclusive = j["exclusive"].get<bool>();
  }
  if (j.contains("timeout_s")) {
    if (!j["timeout_s"].is_number_unsigned()) fail("\"timeout_s\" must be a number of seconds");
    c.timeout_s = j["timeout_s"].get<unsigned>();
  }
  if (!j.contains("items") || !j["items"].is_array() || j["items"].empty()) fail("\"items\" must be a non-empty list");
  std::set<std::string> ids;
  for (size_t i = 0; i < j["items"].size(); ++i) {
    const json& ji = j["items"][i];
    const std::string where = "item " + std::to_string(i);
    if (!ji.is_object()) fail(where + ": an item is an object");
    static const std::set<std::string> kItemFields{"id", "kind", "args", "argv", "env", "expect"};
    for (const auto& [key, value] : ji.items()) {
      if (!kItemFields.count(key)) fail(where + ": unknown field \"" + key + "\"");
    }
    Item it;
    it.id = text_field(ji, "id", where, true);
    if (it.id.empty()) fail(where + ": empty id");
    if (!ids.insert(it.id).second) fail(where + ": duplicate id \"" + it.id + "\"");
    it.kind = ji.contains("kind") ? text_field(ji, "kind", where, true) : "command";
    if (!kKinds.count(it.kind)) fail(where + ": unknown kind \"" + it.kind + "\"");
    if (ji.contains("args")) {
      if (!ji["args"].is_object()) fail(where + ": \"args\" must be an object");
      it.args = ji["args"];
    }
    if (ji.contains("argv")) {
      if (!ji["argv"].is_array()) fail(where + ": \"argv\" must be a list of strings");
      for (const json& a : ji["argv"]) {
        if (!a.is_string()) fail(where + ": \"argv\" must be a list of strings");
        it.argv.push_back(a.get<std::string>());
      }
    }
    if (ji.contains("env")) {
      if (!ji["env"].is_object()) fail(where + ": \"env\" must be an object of strings");
      for (const auto& [k, v] : ji["env"].items()) {
        if (!v.is_string() || k.empty() || k.find('=') != std::string::npos) fail(where + ": bad \"env\" entry " + k);
        it.env[k] = v.get<std::string>();
      }
    }
    if (ji.contains("expect")) it.expect = parse_expect(ji["expect"], where);
    check_kind_args(it, where);
    if (c.merge == "verify" && it.kind != "verify-row") fail(where + ": merge \"verify\" takes verify-row items only");
    c.items.push_back(std::move(it));
  }
  return c;
}

std::string to_json(const Campaign& c) {
  json j{{"format", kFormat}, {"campaign", c.name}, {"root", c.root}, {"build", c.build}, {"merge", c.merge}};
  if (c.expect) j["expect"] = expect_json(*c.expect);
  if (c.exclusive) j["exclusive"] = true;
  if (c.timeout_s) j["timeout_s"] = c.timeout_s;
  j["items"] = json::array();
  for (const Item& it : c.items) {
    json ji{{"id", it.id}, {"kind", it.kind}};
    if (!it.args.empty()) ji["args"] = it.args;
    if (!it.argv.empty()) ji["argv"] = it.argv;
    if (!it.env.empty()) ji["env"] = it.env;
    if (it.expect) ji["expect"] = expect_json(*it.expect);
    j["items"].push_back(std::move(ji));
  }
  return j.dump(2) + "\n";
}

Campaign verify_campaign(const std::string& name, const std::string& list_json,
                         const std::vector<std::string>& options) {
  json list;
  try {
    list = json::parse(list_json);
  } catch (const json::exception& e) {
    fail(std::string("verify --list --json: not JSON: ") + e.what());
  }
  if (!list.is_array() || list.empty()) fail("verify --list --json: no checks");
  Campaign c;
  c.name = name;
  c.merge = "verify";
  for (const json& row : list) {
    if (!row.is_object() || !row.contains("id") || !row["id"].is_number_unsigned()) {
      fail("verify --list --json: a check without a numeric id");
    }
    const unsigned id = row["id"].get<unsigned>();
    Item it;
    it.id = "verify-" + std::to_string(id);
    it.kind = "verify-row";
    it.args = json{{"row", id}, {"options", options}};
    if (row.contains("property")) it.args["property"] = row["property"];
    if (row.contains("configuration")) it.args["configuration"] = row["configuration"];
    c.items.push_back(std::move(it));
  }
  return c;
}

Campaign gpu_seed_campaign(const std::string& name, const std::vector<std::string>& suites, unsigned first,
                           unsigned count) {
  if (suites.empty() || count == 0) fail("a seed campaign needs a suite and at least one seed");
  Campaign c;
  c.name = name;
  for (unsigned seed = first; seed < first + count; ++seed) {
    for (const std::string& suite : suites) {
      if (!kSuites.count(suite)) fail("unknown suite \"" + suite + "\" (scripts/fuzz-gpu's suites)");
      Item it;
      it.id = suite + "-seed-" + std::to_string(seed);
      it.kind = "gpu-seed";
      it.args = json{{"suite", suite}, {"seed", seed}};
      c.items.push_back(std::move(it));
    }
  }
  return c;
}

Campaign mutant_campaign(const std::string& name, const std::string& catalogue_text, const std::string& catalogue_path,
                         const std::string& only) {
  std::regex select;
  try {
    select = std::regex(only.empty() ? std::string(".*") : only);
  } catch (const std::regex_error&) {
    fail("not a regular expression: " + only);
  }
  Campaign c;
  c.name = name;
  c.exclusive = true;
  std::istringstream in(catalogue_text);
  std::string line;
  std::set<std::string> ids;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::string id = line.substr(0, line.find('\t'));
    if (id.empty() || std::count(line.begin(), line.end(), '\t') != 4) fail("catalogue line is not 5 fields: " + line);
    if (!std::regex_search(id, select)) continue;
    if (!ids.insert(id).second) fail("catalogue names mutant " + id + " twice");
    Item it;
    it.id = "mutant-" + id;
    it.kind = "mutant";
    it.args = json{{"mutant", id}, {"catalogue", catalogue_path}};
    c.items.push_back(std::move(it));
  }
  if (c.items.empty()) fail("no mutant selected");
  return c;
}

Launch launch_of(const Campaign& c, size_t index, const std::string& rocref, const std::string& results) {
  const Item& it = c.items.at(index);
  const std::string build = join_path(c.root, c.build);
  Launch l;
  l.env = it.env;
  if (it.kind == "command") {
    for (const std::string& a : it.argv) {
      l.argv.push_back(replace_all(replace_all(a, "{results}", results), "{index}", std::to_string(index)));
    }
  } else if (it.kind == "verify-row") {
    l.artifact = results + "/artifact-" + std::to_string(index) + ".json";
    l.argv = {rocref, "verify"};
    for (const auto& o : it.args.value("options", json::array())) l.argv.push_back(o.get<std::string>());
    l.argv.insert(l.argv.end(), {"--row", std::to_string(it.args["row"].get<unsigned>()), "--json", l.artifact});
  } else if (it.kind == "gpu-seed") {
    const std::string suite = it.args["suite"].get<std::string>();
    l.argv = {join_path(c.root, "scripts/fuzz-gpu"),
              "--seed",
              std::to_string(it.args["seed"].get<unsigned>()),
              "--build",
              build,
              suite};
    // fuzz-gpu skips a suite that is not built and still exits 0: demand that the one run happened.
    l.expect.output = "scripts/fuzz-gpu: 1 runs, 0 failed";
  } else if (it.kind == "mutant") {
    const std::string id = it.args["mutant"].get<std::string>();
    l.argv = {join_path(c.root, "scripts/mutate"), join_path(c.root, it.args["catalogue"].get<std::string>()), build};
    l.env["MUT_ONLY"] = "^" + regex_quote(id) + "$";
    // scripts/mutate exits 0 whatever the verdict; the verdict line must say killed.
    l.expect.output = "(^|\\n)" + regex_quote(id) + "\\tkilled";
  }
  if (c.expect) l.expect = *c.expect;
  if (it.expect) l.expect = *it.expect;
  return l;
}

bool judge(const Expect& e, int exit_status, const std::string& output, std::string* why) {
  const bool exit_ok = e.exit.empty() || std::find(e.exit.begin(), e.exit.end(), exit_status) != e.exit.end() ||
                       campaign_mutant_active(CampaignMutant::ExitStatusIgnored);
  if (!exit_ok) {
    if (why) *why = "exit status " + std::to_string(exit_status) + " is not an expected one";
    return false;
  }
  if (!e.output.empty() && !std::regex_search(output, std::regex(e.output))) {
    if (why) *why = "output has no match of /" + e.output + "/";
    return false;
  }
  return true;
}

std::string to_json(const ItemResult& r) {
  json j{{"format", kFormat},     {"campaign", r.campaign},      {"index", r.index},     {"id", r.id},
         {"exit", r.exit_status}, {"passed", r.passed},          {"seconds", r.seconds}, {"host", r.host},
         {"reason", r.reason},    {"output_tail", r.output_tail}};
  if (!r.artifact.empty()) j["artifact"] = r.artifact;
  return j.dump(2) + "\n";
}

ItemResult item_result_from_json(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    fail(std::string("result is not JSON: ") + e.what());
  }
  try {
    if (j.at("format").get<std::string>() != kFormat) fail("result of another format");
    ItemResult r;
    r.campaign = j.at("campaign").get<std::string>();
    r.index = j.at("index").get<size_t>();
    r.id = j.at("id").get<std::string>();
    r.exit_status = j.at("exit").get<int>();
    r.passed = j.at("passed").get<bool>();
    r.seconds = j.at("seconds").get<double>();
    r.host = j.value("host", "");
    r.reason = j.value("reason", "");
    r.output_tail = j.value("output_tail", "");
    r.artifact = j.value("artifact", "");
    return r;
  } catch (const json::exception& e) {
    fail(std::string("malformed result: ") + e.what());
  }
}

std::string result_file_name(size_t index) { return "item-" + std::to_string(index) + ".json"; }

Merged merge(const Campaign& c, const std::vector<ItemResult>& results) {
  Merged m;
  m.campaign = c.name;
  std::vector<const ItemResult*> by_index(c.items.size(), nullptr);
  for (const ItemResult& r : results) {
    if (r.campaign != c.name) fail("a result of campaign \"" + r.campaign + "\", not \"" + c.name + "\"");
    if (r.index >= c.items.size() || c.items[r.index].id != r.id) {
      fail("result for item " + std::to_string(r.index) + " \"" + r.id + "\", which this campaign does not have");
    }
    if (by_index[r.index] && !campaign_mutant_active(CampaignMutant::DuplicateLastWins)) {
      fail("two results for item " + std::to_string(r.index) + " \"" + r.id + "\"");
    }
    by_index[r.index] = &r;
  }
  for (size_t i = 0; i < c.items.size(); ++i) {
    MergedRow row;
    row.index = i;
    row.id = c.items[i].id;
    if (const ItemResult* r = by_index[i]) {
      row.state = r->passed ? "PASS" : "FAIL";
      row.exit_status = r->exit_status;
      row.seconds = r->seconds;
      row.host = r->host;
      row.reason = r->passed ? "" : r->reason + (r->output_tail.empty() ? "" : "\n" + r->output_tail);
      row.artifact = r->artifact;
      m.failed += !r->passed;
    } else {
      if (campaign_mutant_active(CampaignMutant::MissingItemDropped)) continue;
      row.state = "MISSING";
      row.reason = "no result (the item never ran, or died before writing it)";
      ++m.missing;
    }
    m.rows.push_back(std::move(row));
  }
  return m;
}

void print_table(std::ostream& out, const Merged& m) {
  char line[512];
  std::snprintf(line, sizeof line, "%6s  %-40s %-8s %5s %-16s %9s\n", "item", "id", "result", "exit", "host", "time");
  out << line << std::string(90, '-') << "\n";
  double total = 0;
  for (const MergedRow& r : m.rows) {
    total += r.seconds;
    std::snprintf(line, sizeof line, "%6zu  %-40.40s %-8s %5s %-16.16s %8.1fs\n", r.index, r.id.c_str(),
                  r.state.c_str(), r.state == "MISSING" ? "-" : std::to_string(r.exit_status).c_str(), r.host.c_str(),
                  r.seconds);
    out << line;
  }
  std::snprintf(line, sizeof line, "%zu items of campaign %s: %zu failed, %zu missing, %.1f s in items\n",
                m.rows.size(), m.campaign.c_str(), m.failed, m.missing, total);
  out << std::string(90, '-') << "\n" << line;
  if (m.failed + m.missing) {
    out << "\nfailing items:\n";
    for (const MergedRow& r : m.rows) {
      if (r.state != "PASS") out << r.id << " (" << r.state << "): " << r.reason << "\n";
    }
  }
}

void write_junit(std::ostream& out, const Merged& m) {
  std::vector<cli::JunitCase> cases;
  for (const MergedRow& r : m.rows) {
    cli::JunitCase jc;
    jc.classname = "campaign." + m.campaign;
    jc.name = r.id;
    jc.seconds = r.seconds;
    jc.failed = r.state != "PASS";
    jc.message = r.state == "MISSING" ? "missing: no result"
                 : r.state == "FAIL"  ? r.reason.substr(0, r.reason.find('\n'))
                                      : "";
    jc.detail = r.reason;
    cases.push_back(std::move(jc));
  }
  cli::write_junit(out, "rocref campaign " + m.campaign, cases);
}

}  // namespace rocref::campaign
