// tests/integration_foreign/hip_printf.hip - device printf from a hipcc-built program
// (HIP-PRINTF-1, HIP-PRINTF-2).
// covers: HIP-PRINTF-1 HIP-PRINTF-2
//
// The kernel prints from several work-items with the conversions HIP documents (%d %i %u %x
// %f %e %g %s %c %p, widths, precisions, '*', %%). The program sends its stdout to a file while
// the kernels run and compares what they printed, byte for byte, with the C library's printf of
// the same formats and values on the host. One wave prints in lane order; the lines of several
// blocks are compared as a multiset (their order across waves is not specified).
#include <hip/hip_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define FORMATS                                                                     \
  X("lane %d of %i: u=%u x=%x X=%08X\n", i, -i, 4000000000u + i, 0xbeef + i, i * 17) \
  X("f=%f e=%e g=%g prec=%.3f width=[%10.2f] left=[%-8.1f]\n", 1.5f * i, 1234.5 + i,  \
    0.0001 * (i + 1), 3.14159265, -2.5 * i, 0.25 * i)                                \
  X("s=%s [%6s] [%-7s] c=%c%c %%done%%\n", "hip", "rt", "ab", 'a' + i, 'Z')            \
  X("star=[%*d] [%.*f] p=%p long=%ld ll=%lld\n", 6, i, 2, 0.125 * i, (void*)(0x1000ul + i), -5l * i, 1ll << 40)

__global__ void print_lanes() {
  const int i = static_cast<int>(threadIdx.x);
#define X(...) printf(__VA_ARGS__);
  FORMATS
#undef X
}

__global__ void print_blocks() { printf("block %d thread %d: %s %5.1f\n", (int)blockIdx.x, (int)threadIdx.x, "eightchr", 0.5 * blockIdx.x); }

static std::string host_text(int lanes) {
  std::string out;
  char buf[512];
#define X(...) \
  for (int i = 0; i < lanes; ++i) out.append(buf, std::snprintf(buf, sizeof buf, __VA_ARGS__));
  FORMATS
#undef X
  return out;
}

static std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < s.size()) {
    size_t nl = s.find('\n', at);
    if (nl == std::string::npos) nl = s.size();
    lines.push_back(s.substr(at, nl - at));
    at = nl + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

#define CHECK(x)                                                          \
  do {                                                                    \
    hipError_t e_ = (x);                                                  \
    if (e_ != hipSuccess) {                                               \
      std::fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_));        \
      std::exit(2);                                                       \
    }                                                                     \
  } while (0)

// Runs `launch` with stdout going to a file; returns what was printed.
template <typename F>
static std::string captured(F launch) {
  char path[] = "/tmp/rocref-printf-XXXXXX";
  const int fd = mkstemp(path);
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(fd, 1);
  launch();
  CHECK(hipDeviceSynchronize());
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  char buf[4096];
  lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fd);
  unlink(path);
  return text;
}

int main() {
  int failures = 0;
  constexpr int kLanes = 24;
  const std::string lanes = captured([] { hipLaunchKernelGGL(print_lanes, dim3(1), dim3(kLanes), 0, 0); });
  const std::string want = host_text(kLanes);
  if (lanes != want) {
    std::fprintf(stderr, "HIP-PRINTF-2: one wave printed\n%s\nexpected\n%s\n", lanes.c_str(), want.c_str());
    ++failures;
  }
  constexpr int kBlocks = 3, kThreads = 80;  // two waves a block
  const std::string blocks = captured([] { hipLaunchKernelGGL(print_blocks, dim3(kBlocks), dim3(kThreads), 0, 0); });
  std::string expected_blocks;
  char buf[128];
  for (int b = 0; b < kBlocks; ++b) {
    for (int t = 0; t < kThreads; ++t) {
      expected_blocks.append(buf, std::snprintf(buf, sizeof buf, "block %d thread %d: %s %5.1f\n", b, t, "eightchr", 0.5 * b));
    }
  }
  if (lines_of(blocks) != lines_of(expected_blocks)) {
    std::fprintf(stderr, "HIP-PRINTF-1: %d blocks printed\n%s\nexpected the lines of\n%s\n", kBlocks, blocks.c_str(),
                 expected_blocks.c_str());
    ++failures;
  }
  std::printf("%s\n", failures == 0 ? "device printf matches the host's" : "device printf differs");
  return failures == 0 ? 0 : 1;
}
