// tests/conformance/kfd/misc_test.cpp - policies, clocks, scratch/trap, XNACK, tiles, unmodeled ioctls.
#include <chrono>
#include <thread>

#include "kfd_fixture.h"

namespace kfdconf {
namespace {

TEST_F(KfdTest, KFD_MISC_1_SetMemoryPolicy) {
  kfd_ioctl_set_memory_policy_args a{};
  a.gpu_id = proc.gpu_id;
  a.default_policy = KFD_IOC_CACHE_POLICY_COHERENT;
  a.alternate_policy = KFD_IOC_CACHE_POLICY_NONCOHERENT;
  EXPECT_EQ(io(AMDKFD_IOC_SET_MEMORY_POLICY, &a), 0);
  a.default_policy = 2;
  EXPECT_EQ(io(AMDKFD_IOC_SET_MEMORY_POLICY, &a), -EINVAL);
  a.default_policy = 0;
  a.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_SET_MEMORY_POLICY, &a), -EINVAL);
}

TEST_F(KfdTest, KFD_MISC_2_ClockCountersAdvance) {
  kfd_ioctl_get_clock_counters_args a{}, b{};
  a.gpu_id = b.gpu_id = proc.gpu_id;
  ASSERT_EQ(io(AMDKFD_IOC_GET_CLOCK_COUNTERS, &a), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(io(AMDKFD_IOC_GET_CLOCK_COUNTERS, &b), 0);
  EXPECT_GT(b.gpu_clock_counter, a.gpu_clock_counter);
  EXPECT_GT(b.cpu_clock_counter, a.cpu_clock_counter);
  EXPECT_GT(b.system_clock_counter, a.system_clock_counter);
  EXPECT_EQ(a.system_clock_freq, 1000000000u);
  kfd_ioctl_get_clock_counters_args none{};
  none.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_GET_CLOCK_COUNTERS, &none), 0) << "upstream answers for GPU-less nodes";
  EXPECT_EQ(none.gpu_clock_counter, 0u);
}

TEST_F(KfdTest, KFD_MISC_3_ScratchBackingAndTrapHandler) {
  kfd_ioctl_set_scratch_backing_va_args s{0x100000, proc.gpu_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &s), 0);
  s.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &s), -EINVAL);
  kfd_ioctl_set_trap_handler_args t{0x200000, 0x300000, proc.gpu_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_SET_TRAP_HANDLER, &t), 0);
  t.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_SET_TRAP_HANDLER, &t), -EINVAL);
}

TEST_F(KfdTest, KFD_IOC_4_XnackQueryAndSet) {
  kfd_ioctl_set_xnack_mode_args x{-1};
  ASSERT_EQ(io(AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
  EXPECT_EQ(x.xnack_enabled, 0);
  x.xnack_enabled = 0;
  EXPECT_EQ(io(AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
  x.xnack_enabled = 1;
  EXPECT_EQ(io(AMDKFD_IOC_SET_XNACK_MODE, &x), -EPERM) << "gfx900 runs without retry faults";
  alignas(4096) static uint64_t words[1024];  // KFD-Q-7: a 256-byte aligned ring
  kfd_ioctl_create_queue_args q{};
  q.ring_base_address = reinterpret_cast<uintptr_t>(words);
  q.ring_size = 4096;
  q.write_pointer_address = reinterpret_cast<uintptr_t>(&words[600]);
  q.read_pointer_address = reinterpret_cast<uintptr_t>(&words[601]);
  q.gpu_id = proc.gpu_id;
  q.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
  q.queue_percentage = 100;
  ASSERT_EQ(io(AMDKFD_IOC_CREATE_QUEUE, &q), 0);
  x.xnack_enabled = 0;
  EXPECT_EQ(io(AMDKFD_IOC_SET_XNACK_MODE, &x), -EBUSY) << "not with queues";
  kfd_ioctl_destroy_queue_args d{q.queue_id, 0};
  EXPECT_EQ(io(AMDKFD_IOC_DESTROY_QUEUE, &d), 0);
}

TEST_F(KfdTest, KFD_MISC_4_GetTileConfig) {
  uint32_t tiles[64], macro[64];
  kfd_ioctl_get_tile_config_args a{};
  a.tile_config_ptr = reinterpret_cast<uintptr_t>(tiles);
  a.macro_tile_config_ptr = reinterpret_cast<uintptr_t>(macro);
  a.num_tile_configs = 64;
  a.num_macro_tile_configs = 64;
  a.gpu_id = proc.gpu_id;
  ASSERT_EQ(io(AMDKFD_IOC_GET_TILE_CONFIG, &a), 0);
  EXPECT_LE(a.num_tile_configs, 64u);
  EXPECT_NE(a.gb_addr_config, 0u);
  a.num_tile_configs = 4;
  a.tile_config_ptr = 0;
  EXPECT_EQ(io(AMDKFD_IOC_GET_TILE_CONFIG, &a), -EFAULT);
  a.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_GET_TILE_CONFIG, &a), -EINVAL);
}

TEST_F(KfdTest, KFD_IOC_5_UnmodeledIoctlsAnswerWithTheDriversErrno) {
  kfd_ioctl_get_queue_wave_state_args w{};
  w.queue_id = 999;
  EXPECT_EQ(io(AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &w), -EINVAL);
  kfd_ioctl_alloc_queue_gws_args g{};
  g.queue_id = 999;
  EXPECT_EQ(io(AMDKFD_IOC_ALLOC_QUEUE_GWS, &g), -EINVAL);
  kfd_ioctl_import_dmabuf_args i{};
  i.gpu_id = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_IMPORT_DMABUF, &i), -EINVAL);
  kfd_ioctl_smi_events_args s{};
  s.gpuid = proc.gpu_id + 1;
  EXPECT_EQ(io(AMDKFD_IOC_SMI_EVENTS, &s), -EINVAL);
}

}  // namespace
}  // namespace kfdconf
