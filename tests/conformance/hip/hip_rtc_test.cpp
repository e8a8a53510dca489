// tests/conformance/hip/hip_rtc_test.cpp - hiprtc (<hip/hiprtc.h>, HIP 5.2.3): programs compiled
// at run time, loaded with hipModuleLoadData and launched with hipModuleLaunchKernel; device
// printf from such a kernel (HIP-RTC-*, HIP-PRINTF-*).
#include <hip/hiprtc.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hip_suite.h"

namespace hip_suite {
namespace {

#define EXPECT_RTC(expected, call) EXPECT_EQ(static_cast<int>(expected), static_cast<int>(call))
#define ASSERT_RTC_OK(call) ASSERT_EQ(static_cast<int>(HIPRTC_SUCCESS), static_cast<int>(call))

std::string log_of(hiprtcProgram prog) {
  size_t size = 0;
  if (hiprtcGetProgramLogSize(prog, &size) != HIPRTC_SUCCESS) return {};
  std::string log(size, '\0');
  if (size != 0 && hiprtcGetProgramLog(prog, &log[0]) != HIPRTC_SUCCESS) return {};
  return log;
}

std::vector<char> code_of(hiprtcProgram prog) {
  size_t size = 0;
  if (hiprtcGetCodeSize(prog, &size) != HIPRTC_SUCCESS) return {};
  std::vector<char> code(size);
  if (size != 0 && hiprtcGetCode(prog, code.data()) != HIPRTC_SUCCESS) return {};
  return code;
}

// Compiles `source`; the code object, or empty (the log goes to the test's output).
std::vector<char> compile(const char* source, const std::vector<const char*>& names = {},
                          std::vector<std::string>* lowered = nullptr) {
  hiprtcProgram prog = nullptr;
  if (hiprtcCreateProgram(&prog, source, "rtc_test.cpp", 0, nullptr, nullptr) != HIPRTC_SUCCESS) return {};
  for (const char* n : names) EXPECT_RTC(HIPRTC_SUCCESS, hiprtcAddNameExpression(prog, n));
  const hiprtcResult r = hiprtcCompileProgram(prog, 0, nullptr);
  EXPECT_RTC(HIPRTC_SUCCESS, r) << log_of(prog);
  std::vector<char> code = r == HIPRTC_SUCCESS ? code_of(prog) : std::vector<char>{};
  for (const char* n : names) {
    const char* name = nullptr;
    EXPECT_RTC(HIPRTC_SUCCESS, hiprtcGetLoweredName(prog, n, &name));
    if (lowered != nullptr) lowered->push_back(name != nullptr ? name : "");
  }
  EXPECT_RTC(HIPRTC_SUCCESS, hiprtcDestroyProgram(&prog));
  return code;
}

constexpr const char kSaxpy[] = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(HipRtc, HIP_RTC_1_CompiledSaxpyLoadsAndRuns) {
  HIP_CLAUSE("HIP-RTC-1");
  int major = 0, minor = 0;
  ASSERT_RTC_OK(hiprtcVersion(&major, &minor));
  EXPECT_GT(major, 0);
  const std::vector<char> code = compile(kSaxpy);
  ASSERT_FALSE(code.empty());
  hipModule_t module = nullptr;
  ASSERT_HIP_OK(hipModuleLoadData(&module, code.data()));
  hipFunction_t f = nullptr;
  ASSERT_HIP_OK(hipModuleGetFunction(&f, module, "saxpy"));
  constexpr int n = 300;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f - static_cast<float>(i) / 2;
  }
  float *dx = nullptr, *dy = nullptr;
  ASSERT_HIP_OK(hipMalloc(&dx, n * sizeof(float)));
  ASSERT_HIP_OK(hipMalloc(&dy, n * sizeof(float)));
  ASSERT_HIP_OK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  ASSERT_HIP_OK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 3.0f;
  int count = n;
  void* args[] = {&a, &dx, &dy, &count};
  ASSERT_HIP_OK(hipModuleLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  std::vector<float> out(n);
  ASSERT_HIP_OK(hipMemcpy(out.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i] + y[i], out[i]) << "element " << i;
  EXPECT_HIP(hipSuccess, hipFree(dx));
  EXPECT_HIP(hipSuccess, hipFree(dy));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST(HipRtc, HIP_RTC_2_BadSourceFailsWithALog) {
  HIP_CLAUSE("HIP-RTC-2");
  hiprtcProgram prog = nullptr;
  ASSERT_RTC_OK(
      hiprtcCreateProgram(&prog, "__global__ void k() { undeclared_thing = 1; }", "bad.cpp", 0, nullptr, nullptr));
  EXPECT_RTC(HIPRTC_ERROR_COMPILATION, hiprtcCompileProgram(prog, 0, nullptr));
  const std::string log = log_of(prog);
  EXPECT_NE(std::string::npos, log.find("undeclared_thing")) << log;
  EXPECT_NE(std::string::npos, log.find("error")) << log;
  size_t size = 1;
  ASSERT_RTC_OK(hiprtcGetCodeSize(prog, &size));
  EXPECT_EQ(0u, size);
  EXPECT_RTC(HIPRTC_SUCCESS, hiprtcDestroyProgram(&prog));
  // Arguments.
  EXPECT_RTC(HIPRTC_ERROR_INVALID_PROGRAM, hiprtcCreateProgram(nullptr, kSaxpy, "p", 0, nullptr, nullptr));
  EXPECT_RTC(HIPRTC_ERROR_INVALID_INPUT, hiprtcCreateProgram(&prog, kSaxpy, "p", -1, nullptr, nullptr));
  EXPECT_RTC(HIPRTC_ERROR_INVALID_INPUT, hiprtcCreateProgram(&prog, kSaxpy, "p", 1, nullptr, nullptr));
  EXPECT_RTC(HIPRTC_ERROR_INVALID_INPUT, hiprtcVersion(nullptr, nullptr));
  EXPECT_RTC(HIPRTC_ERROR_INVALID_INPUT, hiprtcDestroyProgram(nullptr));
  EXPECT_STREQ("HIPRTC_ERROR_COMPILATION", hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION));
  EXPECT_STREQ("HIPRTC_SUCCESS", hiprtcGetErrorString(HIPRTC_SUCCESS));
}

TEST(HipRtc, HIP_RTC_2_HeadersAndOptionsReachTheCompiler) {
  HIP_CLAUSE("HIP-RTC-2");
  const char* header = "#define SCALE_BY (FACTOR * 2)\n";
  const char* header_name = "scale.h";
  hiprtcProgram prog = nullptr;
  ASSERT_RTC_OK(hiprtcCreateProgram(&prog,
                                    "#include \"scale.h\"\n"
                                    "extern \"C\" __global__ void scale(int* p) { p[threadIdx.x] *= SCALE_BY; }\n",
                                    "scale.cpp", 1, &header, &header_name));
  const char* missing_define[] = {"-O2"};
  EXPECT_RTC(HIPRTC_ERROR_COMPILATION, hiprtcCompileProgram(prog, 1, missing_define));  // FACTOR undeclared
  EXPECT_NE(std::string::npos, log_of(prog).find("FACTOR"));
  EXPECT_RTC(HIPRTC_SUCCESS, hiprtcDestroyProgram(&prog));
  ASSERT_RTC_OK(hiprtcCreateProgram(&prog,
                                    "#include \"scale.h\"\n"
                                    "extern \"C\" __global__ void scale(int* p) { p[threadIdx.x] *= SCALE_BY; }\n",
                                    "scale.cpp", 1, &header, &header_name));
  const char* options[] = {"-DFACTOR=5", "--offload-arch=gfx900"};
  ASSERT_RTC_OK(hiprtcCompileProgram(prog, 2, options)) << log_of(prog);
  const std::vector<char> code = code_of(prog);
  EXPECT_RTC(HIPRTC_SUCCESS, hiprtcDestroyProgram(&prog));
  hipModule_t module = nullptr;
  ASSERT_HIP_OK(hipModuleLoadData(&module, code.data()));
  hipFunction_t f = nullptr;
  ASSERT_HIP_OK(hipModuleGetFunction(&f, module, "scale"));
  int* d = nullptr;
  std::vector<int> v = {1, 2, 3, 4};
  ASSERT_HIP_OK(hipMalloc(&d, v.size() * sizeof(int)));
  ASSERT_HIP_OK(hipMemcpy(d, v.data(), v.size() * sizeof(int), hipMemcpyHostToDevice));
  void* args[] = {&d};
  ASSERT_HIP_OK(hipModuleLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr));
  ASSERT_HIP_OK(hipMemcpy(v.data(), d, v.size() * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT_EQ((std::vector<int>{10, 20, 30, 40}), v);
  EXPECT_HIP(hipSuccess, hipFree(d));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST(HipRtc, HIP_RTC_3_NameExpressionsGiveTheTemplateKernelsSymbols) {
  HIP_CLAUSE("HIP-RTC-3");
  constexpr const char source[] = R"(
namespace ops {
template <typename T, int N> __global__ void add_n(T* p) { p[threadIdx.x] += static_cast<T>(N); }
}
)";
  // Before compilation there is no lowered name.
  hiprtcProgram prog = nullptr;
  ASSERT_RTC_OK(hiprtcCreateProgram(&prog, source, "t.cpp", 0, nullptr, nullptr));
  ASSERT_RTC_OK(hiprtcAddNameExpression(prog, "ops::add_n<int, 3>"));
  const char* early = nullptr;
  EXPECT_RTC(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID, hiprtcGetLoweredName(prog, "ops::add_n<int, 3>", &early));
  EXPECT_RTC(HIPRTC_SUCCESS, hiprtcDestroyProgram(&prog));

  std::vector<std::string> lowered;
  const std::vector<char> code = compile(source, {"ops::add_n<int, 3>", "&ops::add_n<float, 7>"}, &lowered);
  ASSERT_FALSE(code.empty());
  ASSERT_EQ(2u, lowered.size());
  // Itanium mangling of void ops::add_n<int, 3>(int*) and <float, 7>(float*).
  EXPECT_EQ("_ZN3ops5add_nIiLi3EEEvPT_", lowered[0]);
  EXPECT_EQ("_ZN3ops5add_nIfLi7EEEvPT_", lowered[1]);
  hipModule_t module = nullptr;
  ASSERT_HIP_OK(hipModuleLoadData(&module, code.data()));
  hipFunction_t fi = nullptr, ff = nullptr;
  ASSERT_HIP_OK(hipModuleGetFunction(&fi, module, lowered[0].c_str()));
  ASSERT_HIP_OK(hipModuleGetFunction(&ff, module, lowered[1].c_str()));
  int* di = nullptr;
  float* df = nullptr;
  ASSERT_HIP_OK(hipMalloc(&di, 2 * sizeof(int)));
  ASSERT_HIP_OK(hipMalloc(&df, 2 * sizeof(float)));
  ASSERT_HIP_OK(hipMemset(di, 0, 2 * sizeof(int)));
  ASSERT_HIP_OK(hipMemset(df, 0, 2 * sizeof(float)));
  void* ai[] = {&di};
  void* af[] = {&df};
  ASSERT_HIP_OK(hipModuleLaunchKernel(fi, 1, 1, 1, 2, 1, 1, 0, nullptr, ai, nullptr));
  ASSERT_HIP_OK(hipModuleLaunchKernel(ff, 1, 1, 1, 2, 1, 1, 0, nullptr, af, nullptr));
  int vi[2] = {0, 0};
  float vf[2] = {0, 0};
  ASSERT_HIP_OK(hipMemcpy(vi, di, sizeof vi, hipMemcpyDeviceToHost));
  ASSERT_HIP_OK(hipMemcpy(vf, df, sizeof vf, hipMemcpyDeviceToHost));
  EXPECT_EQ(3, vi[0]);
  EXPECT_EQ(3, vi[1]);
  EXPECT_EQ(7.0f, vf[0]);
  EXPECT_EQ(7.0f, vf[1]);
  EXPECT_HIP(hipSuccess, hipFree(di));
  EXPECT_HIP(hipSuccess, hipFree(df));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

// What the program writes to stdout while `run` runs (the descriptor is sent to a file).
template <typename F>
std::string stdout_of(F run) {
  char path[] = "/tmp/hip-rtc-stdout-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(fd, 1);
  run();
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

// covers: HIP-PRINTF-1
TEST(HipPrintf, HIP_PRINTF_2_DevicePrintfFormatsAsTheHostPrintf) {
  HIP_CLAUSE("HIP-PRINTF-2");
  const std::vector<char> code = compile(R"(
extern "C" __global__ void say(int base) {
  const int i = threadIdx.x;
  printf("%d|%5i|%-4u|%x|%08.3f|%e|%g|%s|%c|%%|%.*f|%*d\n", base + i, -i, 7u * i, 255 + i, 1.25 * i,
         1000.0 + i, 0.5 / (i + 1), "word", 'a' + i, 2, 0.125 * i, 4, i);
}
)");
  ASSERT_FALSE(code.empty());
  hipModule_t module = nullptr;
  ASSERT_HIP_OK(hipModuleLoadData(&module, code.data()));
  hipFunction_t f = nullptr;
  ASSERT_HIP_OK(hipModuleGetFunction(&f, module, "say"));
  constexpr int kLanes = 5;
  int base = 40;
  void* args[] = {&base};
  hipError_t launched = hipSuccess, synced = hipSuccess;
  const std::string got = stdout_of([&] {
    launched = hipModuleLaunchKernel(f, 1, 1, 1, kLanes, 1, 1, 0, nullptr, args, nullptr);
    synced = hipDeviceSynchronize();  // HIP-PRINTF-1: printed by the end of the kernel
  });
  EXPECT_HIP(hipSuccess, launched);
  EXPECT_HIP(hipSuccess, synced);
  std::string want;
  char line[256];
  for (int i = 0; i < kLanes; ++i) {
    std::snprintf(line, sizeof line, "%d|%5i|%-4u|%x|%08.3f|%e|%g|%s|%c|%%|%.*f|%*d\n", base + i, -i, 7u * i, 255 + i,
                  1.25 * i, 1000.0 + i, 0.5 / (i + 1), "word", 'a' + i, 2, 0.125 * i, 4, i);
    want += line;
  }
  EXPECT_EQ(want, got);
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

}  // namespace
}  // namespace hip_suite
