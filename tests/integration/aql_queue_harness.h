// tests/integration/aql_queue_harness.h - an AQL queue built the way ROCR builds one, over hsakmt.h.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsakmt.h>

#include <cstdint>
#include <string>

namespace rocref::integration {

// The first node with SIMDs, or NumNodes if there is none.
uint32_t find_gpu_node(const HsaSystemProperties& sys);

// Ring, amd_queue_t, doorbell and completion signals in GPU-mapped host memory, the
// queue created with hsaKmtCreateQueue, and an event whose mailbox the completion
// signal points at. Everything is released in the destructor.
class AqlQueueHarness {
 public:
  static constexpr uint32_t kPackets = 64;

  explicit AqlQueueHarness(uint32_t node);
  ~AqlQueueHarness();
  AqlQueueHarness(const AqlQueueHarness&) = delete;
  AqlQueueHarness& operator=(const AqlQueueHarness&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  amd_queue_t* queue() const { return queue_; }
  amd_signal_t* completion() const { return completion_; }
  HsaEvent* event() const { return event_; }
  const HsaQueueResource& resource() const { return resource_; }

 private:
  void fail(const std::string& what, HSAKMT_STATUS st);

  std::string error_;
  uint8_t* memory_ = nullptr;
  uint64_t bytes_ = 0;
  amd_queue_t* queue_ = nullptr;
  amd_signal_t* doorbell_ = nullptr;
  amd_signal_t* completion_ = nullptr;
  HsaEvent* event_ = nullptr;
  HsaQueueResource resource_{};
  bool created_ = false;
};

}  // namespace rocref::integration
