// tests/unit/isa/isa_llvm_test.cpp - runs isa_llvm_check.py: the decoder vs llvm-mc-15, and the coverage table.
//
// The comparison itself lives in the script (it drives llvm-mc and isa_decode_tool);
// these tests give it clause names and check its verdicts, including that the
// planted decoder bug makes it fail.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

int run_check(const std::string& extra) {
  const std::string command = std::string(ROCREF_PYTHON) + " " + ROCREF_ISA_CHECK_SCRIPT + " --tool " +
                              ROCREF_ISA_DECODE_TOOL + " --llvm-mc " + ROCREF_LLVM_MC + " --llvm-cache " +
                              ROCREF_ISA_COVERAGE_DIR + "/llvm_disassembly.json " + extra + " > /dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const std::string& coverage_path() {
  static const std::string path = std::string(ROCREF_ISA_COVERAGE_DIR) + "/isa_coverage.md";
  return path;
}

// One comparison run serves both the agreement verdict and the coverage table.
int checked_run() {
  static const int status = [] {
    std::remove(coverage_path().c_str());
    return run_check("--coverage " + coverage_path());
  }();
  return status;
}

TEST(IsaDecoder, ISA_DEC_1_AgreesWithLlvmOnEveryExecutedFormat) {
  EXPECT_EQ(checked_run(), 0) << "rerun tests/unit/isa/isa_llvm_check.py by hand to see the disagreements";
}

TEST(IsaDecoder, ISA_DEC_1_PlantedDecoderBugDisagreesWithLlvm) {
  // --mutant exits 0 only when the check found disagreements under the planted bug.
  EXPECT_EQ(run_check("--mutant Vop2Src1AsSgpr"), 0);
}

TEST(IsaDecoder, ISA_DEC_1_PlantedSdwaDecoderBugDisagreesWithLlvm) {
  EXPECT_EQ(run_check("--mutant SdwaSrcSelSwapped"), 0);
}

TEST(IsaDecoder, ISA_DEC_1_PlantedMimgDecoderBugDisagreesWithLlvm) {
  EXPECT_EQ(run_check("--mutant MimgSsampFromSrsrc"), 0);
}

TEST(IsaDecoder, ISA_COV_1_CoverageTableIsGenerated) {
  ASSERT_EQ(checked_run(), 0);
  std::ifstream table(coverage_path());
  std::stringstream text;
  text << table.rdbuf();
  EXPECT_NE(text.str().find("| total |"), std::string::npos);
  EXPECT_NE(text.str().find("v_add_f32"), std::string::npos);  // an implemented opcode is listed
  EXPECT_NE(text.str().find("| VOP3P |"), std::string::npos);
  EXPECT_NE(text.str().find("| SDWA |"), std::string::npos);
  EXPECT_NE(text.str().find("| DPP |"), std::string::npos);
  EXPECT_NE(text.str().find("v_pk_fma_f16"), std::string::npos);  // VOP3P is listed, implemented
  EXPECT_EQ(text.str().find("~~v_pk_fma_f16~~"), std::string::npos);
  EXPECT_NE(text.str().find("| MIMG |"), std::string::npos);
  EXPECT_NE(text.str().find(" image_sample_lz"), std::string::npos);  // MIMG is listed, implemented
  EXPECT_NE(text.str().find(" buffer_load_format_xyzw"), std::string::npos);
  EXPECT_NE(text.str().find("~~image_atomic_add~~"), std::string::npos);  // known to LLVM, not implemented
}

}  // namespace
