// tests/unit/isa/isa_same_source_test.cpp - one kernel source, two builds, equal results (ISA-SEM-2).
//
// same_source_kernels.hip is compiled here by the host compiler with rocref's
// kernel language and launched through rocref's HIP on the GPU model, and, at
// CMake time, by hipcc's clang for gfx900, whose code object the ISA
// interpreter runs. On random inputs (RapidCheck) the two give the same bytes.
// The planted interpreter bugs (isa_mutant.h) must make them differ.
#include <hip/hip_runtime.h>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <vector>

#include "code_object.h"
#include "gpu/isa/dispatch.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/kernel_descriptor.h"
#include "same_source_kernels.hip"

namespace rocref::gpu::isa {
namespace {

const test::CodeObject& gfx900() { static const test::CodeObject co(ROCREF_SAME_SOURCE_O2); return co; }

// --- the gfx900 build on the interpreter (GPU memory: the code object and the buffers passed) ---

struct Range { uint64_t lo, hi; };
class Memory final : public MemoryAccess {
 public:
  std::vector<Range> ranges;
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const Range& r : ranges) {
      if (va >= r.lo && va + size <= r.hi) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    }
    return nullptr;
  }
  void allow(const void* p, size_t bytes) {
    ranges.push_back({reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + bytes});
  }
};

template <typename Args>
bool run_gfx900(const char* name, const Args& args, uint32_t blocks, uint16_t block, Memory& memory) {
  const uint64_t ko = gfx900().kernel_object(name);
  if (ko == 0) return false;
  alignas(64) uint8_t kernarg[128] = {};
  static_assert(sizeof(Args) <= sizeof kernarg);
  std::memcpy(kernarg, &args, sizeof args);
  memory.allow(reinterpret_cast<const void*>(static_cast<uintptr_t>(gfx900().base())), gfx900().size());
  memory.allow(kernarg, sizeof kernarg);
  KernelDescriptor kd{};
  std::memcpy(&kd, reinterpret_cast<const void*>(static_cast<uintptr_t>(ko)), sizeof kd);
  hsa_kernel_dispatch_packet_t p{};
  p.header = HSA_PACKET_TYPE_KERNEL_DISPATCH;
  p.setup = 1;
  p.workgroup_size_x = block;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = blocks * block;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = ko;
  p.kernarg_address = kernarg;
  p.group_segment_size = kd.group_segment_fixed_size;
  p.private_segment_size = kd.private_segment_fixed_size;
  const IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory};
  return !run_isa_dispatch(d, nullptr).has_value();
}

// --- the host build through rocref's HIP ---

template <typename T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t n;
  explicit DeviceBuffer(const std::vector<T>& host) : n(host.size()) {
    if (hipMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)) != hipSuccess) p = nullptr;
    if (p != nullptr && hipMemcpy(p, host.data(), n * sizeof(T), hipMemcpyHostToDevice) != hipSuccess) p = nullptr;
  }
  ~DeviceBuffer() { if (p != nullptr) (void)hipFree(p); }
  std::vector<T> read() const {
    std::vector<T> out(n);
    if (p == nullptr || hipMemcpy(out.data(), p, n * sizeof(T), hipMemcpyDeviceToHost) != hipSuccess) out.clear();
    return out;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

bool synchronized() { return hipGetLastError() == hipSuccess && hipDeviceSynchronize() == hipSuccess; }

template <typename T>
uint64_t addr(const std::vector<T>& v) { return reinterpret_cast<uintptr_t>(v.data()); }

// --- the kernels, each: host build == gfx900 build ---

bool same_collatz(const std::vector<int>& in, int k) {
  const int n = static_cast<int>(in.size());
  const uint32_t blocks = (n + 127) / 128;
  DeviceBuffer<int> din(in), dout(std::vector<int>(n, 0));
  hipLaunchKernelGGL(ss_collatz, dim3(blocks), dim3(128), 0, 0, din.p, dout.p, n, k);
  if (!synchronized()) return false;
  std::vector<int> out(n, 0);
  Memory m;
  m.allow(in.data(), n * sizeof(int));
  m.allow(out.data(), n * sizeof(int));
  struct { uint64_t in, out; int n, k; } args{addr(in), addr(out), n, k};
  return run_gfx900("ss_collatz", args, blocks, 128, m) && out == dout.read();
}

bool same_block_sum(const std::vector<int>& in) {
  const int n = static_cast<int>(in.size());
  const uint32_t blocks = (n + 255) / 256;
  DeviceBuffer<int> din(in), dout(std::vector<int>(blocks, 0));
  hipLaunchKernelGGL(ss_block_sum, dim3(blocks), dim3(256), 0, 0, din.p, dout.p, n);
  if (!synchronized()) return false;
  std::vector<int> out(blocks, 0);
  Memory m;
  m.allow(in.data(), n * sizeof(int));
  m.allow(out.data(), blocks * sizeof(int));
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  return run_gfx900("ss_block_sum", args, blocks, 256, m) && out == dout.read();
}

bool same_histogram(const std::vector<unsigned>& in) {
  const int n = static_cast<int>(in.size());
  const uint32_t blocks = (n + 63) / 64;
  DeviceBuffer<unsigned> din(in), dbins(std::vector<unsigned>(33, 0));
  hipLaunchKernelGGL(ss_histogram, dim3(blocks), dim3(64), 0, 0, din.p, dbins.p, n);
  if (!synchronized()) return false;
  std::vector<unsigned> bins(33, 0);
  Memory m;
  m.allow(in.data(), n * sizeof(unsigned));
  m.allow(bins.data(), bins.size() * sizeof(unsigned));
  struct { uint64_t in, bins; int n; } args{addr(in), addr(bins), n};
  return run_gfx900("ss_histogram", args, blocks, 64, m) && bins == dbins.read();
}

bool same_bytes(const std::vector<unsigned>& in) {
  const int n = static_cast<int>(in.size());
  const uint32_t blocks = (n + 63) / 64;
  DeviceBuffer<unsigned> din(in);
  DeviceBuffer<unsigned long long> dout(std::vector<unsigned long long>(n, 0));
  hipLaunchKernelGGL(ss_bytes, dim3(blocks), dim3(64), 0, 0, din.p, dout.p, n);
  if (!synchronized()) return false;
  std::vector<unsigned long long> out(n, 0);
  Memory m;
  m.allow(in.data(), n * sizeof(unsigned));
  m.allow(out.data(), n * sizeof(unsigned long long));
  struct { uint64_t in, out; int n; } args{addr(in), addr(out), n};
  return run_gfx900("ss_bytes", args, blocks, 64, m) && out == dout.read();
}

bool same_float(const std::vector<float>& x) {
  const int n = static_cast<int>(x.size());
  const uint32_t blocks = (n + 63) / 64;
  DeviceBuffer<float> dx(x), dy(std::vector<float>(n, 0.0f));
  hipLaunchKernelGGL(ss_float, dim3(blocks), dim3(64), 0, 0, dx.p, dy.p, n);
  if (!synchronized()) return false;
  std::vector<float> y(n, 0.0f);
  Memory m;
  m.allow(x.data(), n * sizeof(float));
  m.allow(y.data(), n * sizeof(float));
  struct { uint64_t x, y; int n; } args{addr(x), addr(y), n};
  const std::vector<float> host = dy.read();
  return run_gfx900("ss_float", args, blocks, 64, m) && host.size() == y.size() &&
         std::memcmp(host.data(), y.data(), y.size() * sizeof(float)) == 0;  // bit-exact
}

TEST(IsaSameSource, CodeObjectLoads) { ASSERT_TRUE(gfx900().ok()) << gfx900().error(); }

RC_GTEST_PROP(IsaSameSource, ISA_SEM_2_DivergentLoopsAgree, ()) {
  const int n = *rc::gen::inRange(1, 400);
  RC_ASSERT(same_collatz(*rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-100000, 100000)),
                         *rc::gen::inRange(1, 9)));
}

RC_GTEST_PROP(IsaSameSource, ISA_SEM_2_LdsReductionsAgree, ()) {
  const int n = *rc::gen::inRange(1, 1000);
  // Values whose sums over a work-group of 256 cannot overflow int (the host build is C++).
  RC_ASSERT(same_block_sum(*rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-(1 << 22), 1 << 22))));
}

RC_GTEST_PROP(IsaSameSource, ISA_SEM_2_AtomicsAgree, ()) {
  const int n = *rc::gen::inRange(1, 500);
  RC_ASSERT(same_histogram(*rc::gen::container<std::vector<unsigned>>(n, rc::gen::arbitrary<unsigned>())));
}

RC_GTEST_PROP(IsaSameSource, ISA_SEM_2_ByteSelectsAnd64BitAgree, ()) {
  const int n = *rc::gen::inRange(1, 400);
  RC_ASSERT(same_bytes(*rc::gen::container<std::vector<unsigned>>(n, rc::gen::arbitrary<unsigned>())));
}

RC_GTEST_PROP(IsaSameSource, ISA_SEM_2_IeeeFloatAgreesBitExactly, ()) {
  const int n = *rc::gen::inRange(1, 400);
  RC_ASSERT(same_float(*rc::gen::container<std::vector<float>>(
      n, rc::gen::map(rc::gen::inRange(-2000000, 2000000), [](int v) { return static_cast<float>(v) / 1024.0f; }))));
}

#ifdef ROCREF_ISA_MUTANTS
struct Mutant {
  explicit Mutant(IsaMutant m) : m_(m) { set_isa_mutant(m_, true); }
  ~Mutant() { set_isa_mutant(m_, false); }
  IsaMutant m_;
};

// covers: ISA-SEM-2
TEST(IsaSameSourceMutants, InterpreterBugsMakeTheBuildsDiffer) {
  std::vector<int> ints(700);
  for (int i = 0; i < 700; ++i) ints[i] = (i * 7919) % 20001 - 10000;
  std::vector<unsigned> words(300);
  for (unsigned i = 0; i < 300; ++i) words[i] = 0x8091a0b0u + i * 0x01030507u;
  ASSERT_TRUE(same_collatz(ints, 3));
  ASSERT_TRUE(same_block_sum(ints));
  ASSERT_TRUE(same_bytes(words));
  {
    Mutant m(IsaMutant::IgnoreExec);
    EXPECT_FALSE(same_collatz(ints, 3));
  }
  {
    Mutant m(IsaMutant::BarrierNotWaiting);
    EXPECT_FALSE(same_block_sum(ints));
  }
  {
    Mutant m(IsaMutant::SdwaNoSignExtend);
    EXPECT_FALSE(same_bytes(words));
  }
}
#endif

}  // namespace
}  // namespace rocref::gpu::isa
