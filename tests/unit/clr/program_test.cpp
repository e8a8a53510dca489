// tests/unit/clr/program_test.cpp - a hipcc-built code object through the command layer: Program::load
// (HSA loader API, metadata note), the kernarg layout of build_kernargs, and a dispatch on a stream
// (CLR-PROG-1, CLR-KARG-1, CLR-KARG-2). The kernarg bugs of clr_mutant.h are caught here.
#include <gtest/gtest.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "clr/program.h"
#include "clr/virtual_gpu.h"

namespace {

using rocref::clr::ClrMutant;
using rocref::clr::Device;
using rocref::clr::KernelInfo;
using rocref::clr::Program;
using rocref::clr::ScopedClrMutant;

std::vector<uint8_t> image() {
  std::ifstream file(ROCREF_HSA_LOADER_KERNELS, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

class ClrProgram : public ::testing::Test {
 protected:
  void SetUp() override {
    device = Device::get();
    ASSERT_NE(device, nullptr) << "HSA status " << Device::open_status();
    auto loaded = Program::load(*device, image());
    ASSERT_TRUE(loaded) << "status " << (loaded ? 0 : loaded.error());
    program = std::move(loaded).value();
    kernel = program->kernel("read_table");
    ASSERT_NE(kernel, nullptr);
  }
  uint64_t at(const std::vector<uint8_t>& bytes, size_t offset, size_t size) const {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + offset, size);
    return v;
  }
  // Host memory the GPU may write (nullptr if it cannot be had).
  void* gpu_visible_host_buffer(size_t bytes) const {
    void* out = nullptr;
    if (hsa_amd_memory_pool_allocate(device->host_pool(), bytes, 0, &out) != HSA_STATUS_SUCCESS) return nullptr;
    hsa_agent_t agents[] = {device->gpu()};
    hsa_amd_agents_allow_access(1, agents, nullptr, out);
    return out;
  }
  // One work-group of 64 work-items of `k` with `params`, on a new stream, to its completion.
  bool run_one_group(const KernelInfo& k, const char* name, void** params) const {
    auto made = rocref::clr::VirtualGpu::create(*device);
    if (!made) return false;
    auto gpu = std::move(made).value();
    std::vector<uint8_t> kernargs;
    if (!rocref::clr::build_kernargs(k, params, nullptr, 0, &kernargs)) return false;
    rocref::clr::KernelDispatch d;
    d.kernel_object = k.kernel_object;
    d.name = name;
    d.grid_groups = {1, 1, 1};
    d.block = {64, 1, 1};
    d.static_group_bytes = k.group_segment_size;
    d.private_bytes = k.private_segment_size;
    d.args = kernargs.data();
    d.args_size = kernargs.size();
    d.args_align = k.kernarg_align;
    return gpu->launch(d) == HSA_STATUS_SUCCESS && gpu->synchronize() == HSA_STATUS_SUCCESS;
  }
  // Dispatches read_table(out, pad, scale) over 64 work-items on a stream; true when out is right.
  bool dispatch_runs(int8_t pad, int64_t scale) {
    void* out = gpu_visible_host_buffer(64 * 4);
    if (out == nullptr) return false;
    std::memset(out, 0, 64 * 4);
    void* params[] = {&out, &pad, &scale};
    bool ok = run_one_group(*kernel, "read_table", params);
    const int32_t table[4] = {11, 22, 33, 44};
    const auto* values = static_cast<const int32_t*>(out);
    for (int i = 0; ok && i < 64; ++i) ok = values[i] == table[i % 4] + static_cast<int32_t>(scale) * i + pad;
    hsa_amd_memory_pool_free(out);
    return ok;
  }
  Device* device = nullptr;
  std::unique_ptr<Program> program;
  const KernelInfo* kernel = nullptr;
};

TEST_F(ClrProgram, CLR_PROG_1_KernelsAndVariablesComeFromTheLoadedImage) {
  EXPECT_EQ(3u, kernel->explicit_count());
  EXPECT_NE(0u, kernel->kernel_object);
  EXPECT_GE(kernel->kernarg_size, 24u);
  void* table = nullptr;
  size_t size = 0;
  ASSERT_TRUE(program->variable("table", &table, &size));
  EXPECT_EQ(16u, size);
  EXPECT_FALSE(program->variable("read_table.kd", &table, &size)) << "a kernel is no variable";
  // A truncated image is refused by the loader; an image without its metadata note too.
  std::vector<uint8_t> truncated = image();
  truncated.resize(256);
  auto refused = Program::load(*device, truncated);
  ASSERT_FALSE(refused);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, refused.error());
}

TEST_F(ClrProgram, CLR_KARG_1_ExplicitArgumentsLieAtTheirMetadataOffsets) {
  int* out = reinterpret_cast<int*>(0x123456789000ull);
  int8_t pad = 5;
  int64_t scale = -3;
  auto layout_is_right = [&] {
    void* params[] = {&out, &pad, &scale};
    std::vector<uint8_t> k;
    if (!rocref::clr::build_kernargs(*kernel, params, nullptr, 0, &k) || k.size() != kernel->kernarg_size) return false;
    // hipcc's layout of (int*, char, long): 0, 8, 16.
    return at(k, 0, 8) == reinterpret_cast<uint64_t>(out) && at(k, 8, 1) == 5u &&
           static_cast<int64_t>(at(k, 16, 8)) == scale;
  };
  EXPECT_TRUE(layout_is_right());
  EXPECT_TRUE(dispatch_runs(1, 1000));
  // The packed form (HIP_LAUNCH_PARAM_BUFFER_POINTER) holds the explicit arguments at their offsets.
  std::vector<uint8_t> packed(24, 0);
  std::memcpy(packed.data(), &out, 8);
  std::memcpy(packed.data() + 8, &pad, 1);
  std::memcpy(packed.data() + 16, &scale, 8);
  std::vector<uint8_t> k;
  ASSERT_TRUE(rocref::clr::build_kernargs(*kernel, nullptr, packed.data(), packed.size(), &k));
  EXPECT_EQ(0, std::memcmp(k.data(), packed.data(), packed.size()));
  EXPECT_FALSE(rocref::clr::build_kernargs(*kernel, nullptr, packed.data(), 20, &k)) << "a short buffer";
  ScopedClrMutant bug(ClrMutant::KernargOffsetsIgnored);
  EXPECT_FALSE(layout_is_right()) << "KernargOffsetsIgnored: packed arguments went unnoticed";
  EXPECT_FALSE(dispatch_runs(1, 1000)) << "KernargOffsetsIgnored: the kernel read the right scale anyway";
}

TEST_F(ClrProgram, CLR_KARG_2_HiddenGlobalOffsetsAreZero) {
  const KernelInfo* offsets = program->kernel("global_offsets");
  ASSERT_NE(offsets, nullptr);
  EXPECT_EQ(1u, offsets->explicit_count());
  size_t declared = 0;
  for (const auto& a : offsets->args) declared += a.value_kind.rfind("hidden_global_offset_", 0) == 0 ? 1 : 0;
  ASSERT_EQ(3u, declared) << "hipcc's code object v4 declares hidden_global_offset_x/y/z";
  // The kernel reads its first three hidden arguments back into out[0..2].
  auto kernel_sees_zero_offsets = [&] {
    void* out = gpu_visible_host_buffer(64);
    if (out == nullptr) return false;
    std::memset(out, 0xee, 64);
    void* params[] = {&out};
    bool ok = run_one_group(*offsets, "global_offsets", params);
    const auto* values = static_cast<const int64_t*>(out);
    ok = ok && values[0] == 0 && values[1] == 0 && values[2] == 0;
    hsa_amd_memory_pool_free(out);
    return ok;
  };
  EXPECT_TRUE(kernel_sees_zero_offsets());
  ScopedClrMutant bug(ClrMutant::HiddenGlobalOffsetNonzero);
  EXPECT_FALSE(kernel_sees_zero_offsets()) << "HiddenGlobalOffsetNonzero: a global offset of 1 went unnoticed";
}

}  // namespace
