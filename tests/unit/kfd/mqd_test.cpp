// tests/unit/kfd/mqd_test.cpp - one MQD per queue, built and updated by its type's functions
// (kfd/mqd.h), and the hardware queue made from it.
#include <gtest/gtest.h>
#include <linux/kfd_ioctl.h>

#include <cstdint>

#include "kfd/bound_hw_queue.h"
#include "kfd/mqd.h"

namespace rocref::kfd {
namespace {

kfd_ioctl_create_queue_args create_args(uint32_t type, uint32_t priority) {
  kfd_ioctl_create_queue_args a{};
  a.queue_type = type;
  a.ring_base_address = 0x7f0000100000;
  a.ring_size = 4096;
  a.read_pointer_address = 0x7f0000200080;
  a.write_pointer_address = 0x7f0000200038;
  a.eop_buffer_address = 0x7f0000300000;
  a.eop_buffer_size = 4096;
  a.ctx_save_restore_address = 0x7f0000400000;
  a.ctx_save_restore_size = 8192;
  a.queue_percentage = 100;
  a.queue_priority = priority;
  return a;
}

kfd_ioctl_update_queue_args update_args(uint32_t priority, uint32_t percentage) {
  kfd_ioctl_update_queue_args a{};
  a.ring_base_address = 0x7f0000500000;
  a.ring_size = 8192;
  a.queue_percentage = percentage;
  a.queue_priority = priority;
  return a;
}

TEST(Mqd, KFD_Q_2_CreateBuildsTheMqdFromTheArguments) {
  for (uint32_t type : {KFD_IOC_QUEUE_TYPE_COMPUTE, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, KFD_IOC_QUEUE_TYPE_SDMA,
                        KFD_IOC_QUEUE_TYPE_SDMA_XGMI}) {
    const MqdManager* manager = mqd_manager(type);
    ASSERT_NE(manager, nullptr) << type;
    const kfd_ioctl_create_queue_args a = create_args(type, 7);
    Mqd m;
    manager->init(m, a, 5, 9);
    EXPECT_EQ(m.cp_hqd_pq_base, a.ring_base_address);
    EXPECT_EQ(m.ring_bytes, 4096u);
    EXPECT_EQ(m.cp_hqd_pq_control, 9u);  // 1024 dwords: log2 - 1
    EXPECT_EQ(m.cp_hqd_pq_rptr_report_addr, a.read_pointer_address);
    EXPECT_EQ(m.cp_hqd_pq_wptr_poll_addr, a.write_pointer_address);
    EXPECT_EQ(m.cp_hqd_pq_doorbell_control, 5u);
    EXPECT_EQ(m.cp_hqd_eop_base_addr, a.eop_buffer_address);
    EXPECT_EQ(m.cp_hqd_ctx_save_size, 8192u);
    EXPECT_EQ(m.cp_hqd_vmid, 9u);
    EXPECT_EQ(m.cp_hqd_queue_priority, 7u);
    EXPECT_EQ(m.cp_hqd_quantum, 100u);
    EXPECT_TRUE(m.active);
    EXPECT_EQ(manager->sdma, type == KFD_IOC_QUEUE_TYPE_SDMA || type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI);
  }
  EXPECT_EQ(mqd_manager(KFD_IOC_QUEUE_TYPE_SDMA_XGMI + 1), nullptr);  // no such type: -ENOTSUPP
}

// amdkfd's pipe_priority_map: queue priorities 0..3 low, 4..11 medium, 12..15 high.
TEST(Mqd, KFD_Q_4_UpdateRefreshesPipePriority) {
  for (uint32_t type : {KFD_IOC_QUEUE_TYPE_COMPUTE, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL}) {
    const MqdManager* manager = mqd_manager(type);
    ASSERT_NE(manager, nullptr);
    Mqd m;
    manager->init(m, create_args(type, 0), 0, 1);
    EXPECT_EQ(m.cp_hqd_pipe_priority, 0u);
    manager->update(m, update_args(15, 50));
    EXPECT_EQ(m.cp_hqd_queue_priority, 15u);
    EXPECT_EQ(m.cp_hqd_pipe_priority, 2u) << "UPDATE_QUEUE left the pipe priority of the create";
    manager->update(m, update_args(4, 50));
    EXPECT_EQ(m.cp_hqd_pipe_priority, 1u);
    EXPECT_EQ(m.cp_hqd_pq_base, 0x7f0000500000u);
    EXPECT_EQ(m.ring_bytes, 8192u);
    EXPECT_EQ(m.cp_hqd_quantum, 50u);
    EXPECT_TRUE(m.active);
    manager->update(m, update_args(4, 0));  // percentage 0: inactive (QUEUE_IS_ACTIVE)
    EXPECT_FALSE(m.active);
  }
}

TEST(Mqd, KFD_Q_4_HardwareQueueIsMadeFromTheMqdAndTakesItsUpdates) {
  uint64_t doorbell = 0;
  const QueueContext ctx{1, nullptr, nullptr, &doorbell};  // nothing is bound before the first step
  for (uint32_t type : {KFD_IOC_QUEUE_TYPE_COMPUTE, KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, KFD_IOC_QUEUE_TYPE_SDMA}) {
    const MqdManager* manager = mqd_manager(type);
    ASSERT_NE(manager, nullptr);
    Mqd m;
    manager->init(m, create_args(type, 3), 0, 1);
    std::unique_ptr<BoundHwQueue> hw = manager->make(ctx, m);
    ASSERT_NE(hw, nullptr);
    EXPECT_EQ(hw->priority(), 3u) << type;
    EXPECT_FALSE(hw->in_error());
    manager->update(m, update_args(12, 0));
    hw->apply(m);
    EXPECT_EQ(hw->priority(), 12u) << type;
    EXPECT_FALSE(hw->runnable()) << type << ": inactive after an update to percentage 0";
  }
}

}  // namespace
}  // namespace rocref::kfd
