// tests/unit/hsa/signal_object_test.cpp - the signal handle convention and the closed-runtime answers.
#include "hsa/signal_object.h"

#include <hsa/amd_hsa_queue.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <new>

namespace rocref::hsa {
namespace {

TEST(HsaSignalObject, HSA_SIG_1_HandleIsTheAmdSignalAtTheObjectStart) {
  alignas(64) unsigned char storage[sizeof(SignalObject)];
  auto* object = new (storage) SignalObject();
  EXPECT_TRUE(object->handle_is_object());
  EXPECT_EQ(SignalObject::from_handle(object->handle()), object);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(&object->amd) % 64, 0u);
  EXPECT_FALSE(object->valid()) << "a slot not made by the pool must not pass as a signal";
  object->~SignalObject();
}

TEST(HsaSignalObject, HSA_SIG_2_DoorbellStoreWritesTheDoorbellWordAndLoadsReadZero) {
  alignas(64) unsigned char storage[sizeof(SignalObject)];
  auto* object = new (storage) SignalObject();
  uint64_t doorbell = 0;
  object->amd.kind = AMD_SIGNAL_KIND_DOORBELL;
  object->amd.hardware_doorbell_ptr = &doorbell;
  object->store(41, MemoryOrder::Release);
  EXPECT_EQ(doorbell, 41u);
  EXPECT_EQ(object->load(MemoryOrder::Acquire), 0) << "a doorbell is write-only";
  EXPECT_EQ(object->amd.hardware_doorbell_ptr, &doorbell) << "the store overwrote the doorbell pointer";
  object->~SignalObject();
}

TEST(HsaSignalObject, HSA_SIG_1_UserSignalOperationsActOnTheValueAtOffset8) {
  alignas(64) unsigned char storage[sizeof(SignalObject)];
  auto* object = new (storage) SignalObject();
  object->amd.kind = AMD_SIGNAL_KIND_USER;
  object->store(5, MemoryOrder::Relaxed);
  int64_t at_offset_8;
  std::memcpy(&at_offset_8, storage + 8, sizeof at_offset_8);
  EXPECT_EQ(at_offset_8, 5);
  object->view().subtract(2, MemoryOrder::AcqRel);
  EXPECT_EQ(object->load(MemoryOrder::Acquire), 3);
  object->store(9, MemoryOrder::Relaxed, /*silent=*/true);
  EXPECT_EQ(object->load(MemoryOrder::Relaxed), 9);
  object->~SignalObject();
}

TEST(HsaClosedRuntime, HSA_INIT_3_StatusCallsBeforeInitReturnNotInitialized) {
  hsa_signal_t signal{0};
  void* ptr = nullptr;
  hsa_queue_t* queue = nullptr;
  EXPECT_EQ(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_signal_create(0, 0, nullptr, &signal), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_memory_allocate(hsa_region_t{1}, 64, &ptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_queue_create(hsa_agent_t{1}, 64, HSA_QUEUE_TYPE_MULTI, nullptr, nullptr, 0, 0, &queue),
            HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_queue_destroy(reinterpret_cast<hsa_queue_t*>(&signal)), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(hsa_amd_memory_pool_free(&ptr), HSA_STATUS_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(signal.handle, 0u);
  EXPECT_EQ(ptr, nullptr);
  EXPECT_EQ(queue, nullptr);
}

TEST(HsaClosedRuntime, HSA_QUEUE_3_IndexCallsOnANullQueueReadZeroAndStoreNothing) {
  EXPECT_EQ(hsa_queue_load_write_index_relaxed(nullptr), 0u);
  EXPECT_EQ(hsa_queue_load_read_index_scacquire(nullptr), 0u);
  EXPECT_EQ(hsa_queue_add_write_index_scacq_screl(nullptr, 4), 0u);
  EXPECT_EQ(hsa_queue_cas_write_index_relaxed(nullptr, 0, 1), 0u);
  hsa_queue_store_write_index_screlease(nullptr, 9);
  hsa_queue_store_read_index_relaxed(nullptr, 9);
  // A real amd_queue_t: the same calls act on write_dispatch_id / read_dispatch_id.
  alignas(64) amd_queue_t queue{};
  hsa_queue_t* q = &queue.hsa_queue;
  EXPECT_EQ(hsa_queue_add_write_index_relaxed(q, 3), 0u);
  EXPECT_EQ(queue.write_dispatch_id, 3u);
  EXPECT_EQ(hsa_queue_cas_write_index_scacq_screl(q, 3, 7), 3u);
  EXPECT_EQ(hsa_queue_load_write_index_scacquire(q), 7u);
  hsa_queue_store_read_index_screlease(q, 5);
  EXPECT_EQ(queue.read_dispatch_id, 5u);
  EXPECT_EQ(hsa_queue_load_read_index_relaxed(q), 5u);
}

}  // namespace
}  // namespace rocref::hsa
