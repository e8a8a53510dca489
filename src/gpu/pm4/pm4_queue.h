// gpu/pm4/pm4_queue.h - a PM4 compute queue as the CP runs it: type-3 packets fetched from a ring.
//
// Follows spec/pm4.md (PM4-Q-*), the gfx9 MQD semantics of amdkfd's
// kfd_mqd_manager_v9.c and the way libhsakmt 5.2.3 / kfdtest drive such a
// queue: the ring is `ring_bytes` (a power of two) of dwords at `ring_va`; the
// 64-bit doorbell (SOC15) carries the write pointer as a monotonic count of
// dwords; the CP reports its read pointer as a 32-bit dword offset into the
// ring (the count modulo the ring size) at `rptr_va`. Packets may wrap past the
// ring end. Each packet's dwords are read once, copied, then decoded (PM4-Q-3);
// the packets themselves run on the PM4 executor (pm4_executor.h). Every access
// goes through MemoryAccess (GPUVM). Steppable: step() runs at most one packet.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gpu/memory_access.h"

namespace rocref::gpu::isa {
class AgentCache;
struct ShRegisters;
}  // namespace rocref::gpu::isa

namespace rocref::gpu::pm4 {

struct Pm4QueueBinding {
  uint64_t ring_va = 0;
  uint64_t ring_bytes = 0;             // a power of two, at least 16
  uint64_t rptr_va = 0;                // 32-bit read pointer report (dword offset in the ring)
  const uint64_t* doorbell = nullptr;  // host address of the queue's 64-bit doorbell: write pointer in dwords
  MemoryAccess* memory = nullptr;
  std::function<void(uint32_t int_ctx)> on_interrupt;  // RELEASE_MEM int_sel != 0
  std::function<void(const std::string& what)> on_error;  // once
  std::function<uint64_t()> clock;
  isa::AgentCache* l2 = nullptr;  // adversarial mode: the agent's L2, for DISPATCH_DIRECT and the fences
};

enum class Pm4QueueAction : uint8_t { None, Executed, Error };

class Pm4Queue {
 public:
  explicit Pm4Queue(Pm4QueueBinding binding);
  ~Pm4Queue();
  Pm4Queue(const Pm4Queue&) = delete;
  Pm4Queue& operator=(const Pm4Queue&) = delete;

  Pm4QueueAction step();
  bool has_work() const;  // the write pointer is ahead of the read pointer and the queue is not in error
  bool in_error() const { return error_.load(std::memory_order_acquire); }
  uint64_t consumed() const { return consumed_; }  // dwords consumed since creation
  // UPDATE_QUEUE: a new ring (the pointers go on counting). The stepping thread only.
  void set_ring(uint64_t ring_va, uint64_t ring_bytes);

 private:
  Pm4QueueAction fail(const std::string& what);

  Pm4QueueBinding b_;
  std::unique_ptr<isa::ShRegisters> sh_;  // SET_SH_REG's registers (PM4-DISP-1), kept across packets
  uint64_t consumed_ = 0;
  std::atomic<bool> error_{false};
};

}  // namespace rocref::gpu::pm4
