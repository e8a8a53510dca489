// tests/property/aql/tsan_mutant_test.cpp - the relaxed header store (AQL-PUB-1) is a data race.
//
// No sequential interleaving can see it, and on x86 a stress test never shows
// the stale body it allows: only ThreadSanitizer can. The test re-runs this
// binary as a child with one producer and one processor thread, once correct
// (the child must exit 0) and once with the mutant (TSan must report a data
// race). The race TSan reports is on the kernarg the packet points to, written
// before publication and read by the kernel: GCC's TSan does not instrument the
// 16-byte moves of the 60-byte body copy itself. Without TSan the test is skipped.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "common/mutant.h"
#include "properties.h"
#include "world.h"

namespace rocref::prop {
namespace {

#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

struct ChildResult {
  int exit_code = -1;
  std::string output;
};

ChildResult run_child(bool mutant) {
  // popen runs a shell: resolve this binary's path here, not as the shell's /proc/self/exe.
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return {};
  const std::string command = std::string("ROCREF_TSAN_CHILD_MUTANT=") + (mutant ? "1" : "0") +
                              " TSAN_OPTIONS='halt_on_error=1 exitcode=66' '" + self + "'"
                              " --gtest_also_run_disabled_tests"
                              " --gtest_filter=AqlMutantTsan.DISABLED_ProducerAndProcessorThreads 2>&1";
  ChildResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TEST(AqlMutantTsan, RelaxedHeaderStoreIsReportedAsRace) {
  if (!kThreadSanitizer) GTEST_SKIP() << "needs ThreadSanitizer (scripts/sanitize thread)";
  const ChildResult clean = run_child(false);
  ASSERT_EQ(clean.exit_code, 0) << "the correct code races:\n" << clean.output;
  const ChildResult bad = run_child(true);
  EXPECT_EQ(bad.exit_code, 66) << bad.output;
  EXPECT_NE(bad.output.find("data race"), std::string::npos) << bad.output;
}

// The child: one producer thread submits, one processor thread consumes.
TEST(AqlMutantTsan, DISABLED_ProducerAndProcessorThreads) {
  const char* flag = std::getenv("ROCREF_TSAN_CHILD_MUTANT");
  const bool mutant = flag != nullptr && flag[0] == '1';
  constexpr uint32_t kPackets = 2000;
  World world(WorldOptions{16, 0, kPackets});
  TestSignal done(kPackets);
  std::thread processor([&] {
    while (done.value() != 0) {
      if (world.processor().step().action == gpu::ProcessorAction::None) std::this_thread::yield();
    }
  });
  {
    std::unique_ptr<ScopedMutant> on;
    if (mutant) on = std::make_unique<ScopedMutant>(Mutant::RelaxedHeaderStore);
    for (uint32_t m = 0; m < kPackets; ++m) {
      const hsa_kernel_dispatch_packet_t p = world.dispatch(m, false, done.handle());
      // The kernarg the packet points to, written just before publication: the kernel reads it.
      static_cast<KernelRecord*>(p.kernarg_address)->packet = m;
      world.ring().submit(&p);
    }
    while (done.value() != 0) std::this_thread::yield();
  }
  processor.join();
  EXPECT_EQ(world.kernel_log().size(), kPackets);
}

}  // namespace
}  // namespace rocref::prop
