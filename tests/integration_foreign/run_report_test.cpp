// tests/integration_foreign/run_report_test.cpp - `rocref run` as a newcomer sees it (spec/trace.md
// TRACE-RUN-*): the default sample (built by hipcc for gfx900) and another hipcc-built program in a
// child under the interposer and the drop-ins, the compact report, the full trace on request.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Result {
  int status = -1;
  std::string out;
  double seconds = 0;
};

class RunReport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rocref-run-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `rocref run ARGS` in the test's own folder, stdout and stderr together.
  Result run(const std::string& args) const {
    const std::string cmd = "cd '" + dir_.string() + "' && " + ROCREF_TOOL + " run " + args + " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    Result r;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (pipe == nullptr) return r;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) != 0;) r.out.append(buf, n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  fs::path dir_;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has(const std::string& text, const std::string& pattern) { return std::regex_search(text, std::regex(pattern)); }

// The report's shape: under 60 lines, none over 80 columns, every part present, every layer busy.
void expect_report(const std::string& out) {
  const auto lines = lines_of(out);
  EXPECT_LT(lines.size(), 60u) << out;
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << line;
  for (const char* part :
       {"\n== [^\n]+: PASS\n", "\n  hip +[1-9][0-9]* ", "\n  clr +[1-9]", "\n  hsa +[1-9]", "\n  thunk +[1-9]",
        "\n  kfd +[1-9]", "\n  gpu +[0-9]+ +[1-9]", "\ndispatches: [1-9]",
        "\n  #[0-9]+ +gfx900 +[1-9][0-9]* wg +[1-9][0-9]* waves +[1-9][0-9]* instr \\([1-9][0-9]* s, [1-9][0-9]* v\\)",
        "\nchecks run: [1-9][0-9]* clauses", " AQL-ERR-1 +[1-9]", " KFD-IOC-1 +[1-9]", " VM-XLATE-1 +[1-9]",
        "\ntrace: [1-9][0-9]* events in\n  /[^\n]+rocref-trace.json\n"}) {
    EXPECT_TRUE(has(out, part)) << "no match for " << part << " in:\n" << out;
  }
}

TEST_F(RunReport, TRACE_RUN_1_DefaultRunIsTheGfx900SampleInACompactReport) {
  const Result r = run("");
  ASSERT_EQ(r.status, 0) << r.out;
  expect_report(r.out);
  EXPECT_TRUE(has(r.out, "rocref_sample_saxpy_reduce \\(hipcc, gfx900\\): PASS\n[^\n]*exit status 0")) << r.out;
  EXPECT_TRUE(has(r.out, "\\| saxpy: 0 of 16384 results differ")) << r.out;
  EXPECT_TRUE(has(r.out, "\\| block_sums \\(LDS, barriers\\): 0 of 64 sums differ")) << r.out;
  EXPECT_LT(r.seconds, 30.0);
}

// covers: TRACE-RUN-4
TEST_F(RunReport, TRACE_RUN_4_FullTraceGoesToAFileAndTraceTextPrintsIt) {
  const Result quiet = run("");
  ASSERT_EQ(quiet.status, 0) << quiet.out;
  EXPECT_TRUE(fs::exists(dir_ / "rocref-trace.json")) << "the default file is in the current directory";
  EXPECT_TRUE(has(quiet.out, "\n  " + (dir_ / "rocref-trace.json").string() + "\n")) << quiet.out;
  EXPECT_FALSE(has(quiet.out, "> hipMalloc")) << "no line per event by default";

  const Result r = run("--trace-text --trace full.json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_GT(lines_of(r.out).size(), 200u);
  EXPECT_TRUE(has(r.out, " us  t[0-9]+ +hip +> hipMalloc")) << r.out;
  EXPECT_TRUE(has(r.out, " kfd +> CREATE_QUEUE")) << r.out;
  EXPECT_TRUE(has(r.out, " gpu +- dispatch stats  id=[0-9]+ code=gfx900")) << r.out;
  std::ifstream in(dir_ / "full.json");
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_TRUE(has(json.str(), "\"traceEvents\"")) << "--trace FILE holds the Chrome/Perfetto trace";
  EXPECT_TRUE(has(json.str(), "\"name\":\"dispatch stats\""));
}

TEST_F(RunReport, TRACE_RUN_3_AnyHipccBuiltProgramIsReportedTheSameWay) {
#ifdef ROCREF_ISA_PROGRAM
  const Result r = run(ROCREF_ISA_PROGRAM);
  ASSERT_EQ(r.status, 0) << r.out;
  expect_report(r.out);
  EXPECT_TRUE(has(r.out, "== " + fs::path(ROCREF_ISA_PROGRAM).filename().string() + ": PASS")) << r.out;
  EXPECT_TRUE(has(r.out, "\ndispatches: [1-9][0-9]+ ")) << "every one of its dispatches counted:\n" << r.out;
#else
  GTEST_SKIP() << "the hipcc-built ISA test program is not built";
#endif
}

TEST_F(RunReport, TRACE_RUN_3_HostCompiledSamplesRunInProcessWithTheSameReport) {
  const Result r = run("--sample reduction");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto lines = lines_of(r.out);
  EXPECT_LT(lines.size(), 60u) << r.out;
  for (const std::string& line : lines) EXPECT_LE(line.size(), 80u) << line;
  EXPECT_TRUE(has(r.out, "== reduction \\(host-compiled kernels, in-process\\): PASS\n")) << r.out;
  EXPECT_TRUE(has(r.out, "\n  [1-9][0-9]* host-compiled \\(copies, fills, host kernels\\): [1-9]")) << r.out;
  EXPECT_TRUE(has(r.out, " KFD-IOC-1 +[1-9]")) << r.out;
  EXPECT_EQ(run("--sample no-such-sample").status, 2);
}

TEST_F(RunReport, TRACE_RUN_3_AProgramThatNeverReachesTheStackFails) {
  const Result r = run("true");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(has(r.out, "== true: FAIL\n")) << r.out;
  EXPECT_TRUE(has(r.out, "== true: FAIL\n   no trace came back")) << r.out;
  const Result missing = run("./no-such-program");
  EXPECT_EQ(missing.status, 1) << missing.out;
  EXPECT_TRUE(has(missing.out, "exit status 127")) << missing.out;
}

}  // namespace
