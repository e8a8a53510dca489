// tests/conformance/hsa/async_copy_test.cpp - the rect copy (HSA-MEM-8) and the timing of asynchronous copies
// (HSA-PROF-2).
#include <cstring>

#include "async_checks.h"
#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

class HsaAsyncCopy : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    vram_ = find_pool(agents_.gpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);
    system_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    ASSERT_NE(vram_.handle, 0u);
    ASSERT_NE(system_.handle, 0u);
  }
  hsa_amd_memory_pool_t vram_{0}, system_{0};
};

// HSA-MEM-8: ROCR 5.2.3's checks in its order, then the SDMA packet's limits; every refusal
// leaves the destination and the completion signal as they were, and so does an empty range.
TEST_F(HsaAsyncCopy, HSA_MEM_8_CopyRectChecksItsArgumentsInRocrsOrder) {
  record_clause("HSA-MEM-8");
  constexpr size_t kBytes = 4 * 4096;
  auto* src = static_cast<uint8_t*>(granted_system_memory(agents_.gpu, system_, kBytes));
  auto* dst = static_cast<uint8_t*>(granted_system_memory(agents_.gpu, system_, kBytes));
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  std::memset(src, 0x11, kBytes);
  std::memset(dst, 0x22, kBytes);
  hsa_signal_t done{0}, dependency{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &done), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(0, 0, nullptr, &dependency), HSA_STATUS_SUCCESS);
  const hsa_agent_t gpu = agents_.gpu, none{0};
  const hsa_signal_t null_signal{0};
  hsa_pitched_ptr_t to{dst, 256, 256 * 8}, from{src, 256, 256 * 8};
  hsa_dim3_t to_offset{0, 0, 0}, from_offset{0, 0, 0}, range{64, 4, 2};
  auto rect = [&](const hsa_pitched_ptr_t* d, const hsa_pitched_ptr_t* s, const hsa_dim3_t* r, hsa_agent_t agent,
                  hsa_amd_copy_direction_t dir, uint32_t deps, const hsa_signal_t* dep, hsa_signal_t signal) {
    return hsa_amd_memory_async_copy_rect(d, &to_offset, s, &from_offset, r, agent, dir, deps, dep, signal);
  };
  EXPECT_EQ(rect(nullptr, &from, &range, gpu, hsaHostToDevice, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, nullptr, &range, gpu, hsaHostToDevice, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, &from, nullptr, gpu, hsaHostToDevice, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_memory_async_copy_rect(&to, nullptr, &from, &from_offset, &range, gpu, hsaHostToDevice, 0, nullptr,
                                           done),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, &from, &range, gpu, hsaHostToDevice, 1, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, &from, &range, gpu, hsaHostToDevice, 0, &dependency, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // The direction before the agent, the agent before the signals.
  EXPECT_EQ(rect(&to, &from, &range, none, hsaHostToHost, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, &from, &range, none, hsaHostToDevice, 0, nullptr, null_signal), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(rect(&to, &from, &range, agents_.cpu, hsaHostToDevice, 0, nullptr, done), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(rect(&to, &from, &range, gpu, hsaHostToDevice, 1, &null_signal, done), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(rect(&to, &from, &range, gpu, hsaHostToDevice, 0, nullptr, null_signal), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  // An empty range is done at once, even one the packet could not express.
  const hsa_dim3_t empty{64, 0, 2};
  hsa_pitched_ptr_t odd{dst + 1, 3, 0};
  EXPECT_EQ(rect(&odd, &from, &empty, gpu, hsaDeviceToHost, 0, nullptr, done), HSA_STATUS_SUCCESS);
  // What SDMA_PKT_COPY_LINEAR_RECT cannot express.
  auto refused = [&](hsa_pitched_ptr_t d, hsa_pitched_ptr_t s, hsa_dim3_t r) {
    return rect(&d, &s, &r, gpu, hsaDeviceToHost, 0, nullptr, done) == HSA_STATUS_ERROR_INVALID_ARGUMENT;
  };
  EXPECT_TRUE(refused({dst + 2, 256, 2048}, from, range)) << "a base off 4 bytes";
  EXPECT_TRUE(refused(to, {src, 254, 2032}, range)) << "a pitch off 4 bytes";
  EXPECT_TRUE(refused(to, {src, 256, 2050}, range)) << "a slice off 4 bytes";
  EXPECT_TRUE(refused({dst, 60, 480}, from, range)) << "a row past the destination's pitch";
  EXPECT_TRUE(refused(to, {src, 256, 256 * 3}, range)) << "rows past the source's slice";
  EXPECT_TRUE(refused(to, {src, 256, 0}, range)) << "two slices without a slice";
  const size_t wide = (size_t{1} << 23) + 16;  // 2^19 + 1 elements of 16 bytes
  EXPECT_TRUE(refused({dst, wide, 2 * wide}, from, {16, 2, 2})) << "a pitch past the packet's field";
  EXPECT_EQ(hsa_signal_load_scacquire(done), 1) << "a refused or empty copy completed its signal";
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(dst[i], 0x22) << "a refused copy wrote byte " << i;
  hsa_signal_destroy(dependency);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
}

// HSA-MEM-8: the box lands at the destination's offsets after its dependency, nothing around it.
TEST_F(HsaAsyncCopy, HSA_MEM_8_CopyRectMovesTheBoxAfterItsDependencies) {
  record_clause("HSA-MEM-8");
  EXPECT_TRUE(rect_copy_moves_the_box(agents_.gpu, system_));
}

// HSA-PROF-2: the times of a profiled GPU copy bracket the copy, not its wait.
TEST_F(HsaAsyncCopy, HSA_PROF_2_ProfiledCopyTimesLieBetweenReleaseAndCompletion) {
  record_clause("HSA-PROF-2");
  EXPECT_TRUE(async_copy_times_bracket_the_copy(agents_.cpu, agents_.gpu, vram_, system_));
}

// HSA-PROF-2: a signal no profiled copy completed has no copy time (HSA_STATUS_ERROR): copies
// before profiling is on, and copies between CPU agents, are never timed.
TEST_F(HsaAsyncCopy, HSA_PROF_2_SignalsOfUntimedCopiesHaveNoCopyTime) {
  record_clause("HSA-PROF-2");
  void* device = nullptr;
  void* host = granted_system_memory(agents_.gpu, system_, 4096);
  ASSERT_NE(host, nullptr);
  ASSERT_EQ(hsa_amd_memory_pool_allocate(vram_, 4096, 0, &device), HSA_STATUS_SUCCESS);
  std::vector<uint8_t> a(4096, 1), b(4096, 0);
  hsa_signal_t untimed{0}, host_copy{0};
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &untimed), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_signal_create(1, 0, nullptr, &host_copy), HSA_STATUS_SUCCESS);
  hsa_amd_profiling_async_copy_time_t time{7, 7};
  EXPECT_EQ(hsa_amd_profiling_get_async_copy_time(untimed, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_profiling_get_async_copy_time(untimed, &time), HSA_STATUS_ERROR) << "a signal that saw no copy";
  ASSERT_EQ(hsa_amd_memory_async_copy(device, agents_.gpu, host, agents_.cpu, 4096, 0, nullptr, untimed),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(untimed, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(hsa_amd_profiling_get_async_copy_time(untimed, &time), HSA_STATUS_ERROR) << "a copy before profiling";
  ASSERT_EQ(hsa_amd_profiling_async_copy_enable(true), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_amd_memory_async_copy(b.data(), agents_.cpu, a.data(), agents_.cpu, 4096, 0, nullptr, host_copy),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_signal_wait_scacquire(host_copy, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_BLOCKED), 0);
  EXPECT_EQ(hsa_amd_profiling_get_async_copy_time(host_copy, &time), HSA_STATUS_ERROR) << "a copy between CPUs";
  EXPECT_EQ(time.start, 7u);
  EXPECT_EQ(time.end, 7u);
  EXPECT_EQ(b, a);
  EXPECT_EQ(hsa_amd_profiling_async_copy_enable(false), HSA_STATUS_SUCCESS);
  hsa_signal_destroy(untimed);
  hsa_signal_destroy(host_copy);
  hsa_amd_memory_pool_free(device);
  hsa_amd_memory_pool_free(host);
}

}  // namespace
}  // namespace hsa_conformance
