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
// goes through MemoryAccess (GPUVM). Steppable: step() runs at most one packet, of
// the ring or of the IB the ring's current INDIRECT_BUFFER entered (the CP runs an IB
// packet by packet too, so a WAIT_REG_MEM in it stalls the queue, not the engine).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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

// Waiting: a WAIT_REG_MEM that does not hold yet (PM4-WAIT-2); the queue polls it again.
enum class Pm4QueueAction : uint8_t { None, Executed, Waiting, Error };

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
  struct IbFrame {
    std::vector<uint32_t> dw;  // the IB, copied when entered (PM4-IB-1)
    uint32_t at = 0;           // next packet
  };

  Pm4QueueAction fail(const std::string& what);
  Pm4QueueAction run_ring_packet(std::vector<uint32_t> pkt);
  Pm4QueueAction step_ib();
  bool enter_ib(const uint32_t* p, uint32_t n);
  Pm4QueueAction complete_ring_packet();

  Pm4QueueBinding b_;
  std::vector<IbFrame> frames_;  // the ring packet in progress is an INDIRECT_BUFFER: its IBs, nested
  std::vector<uint32_t> held_;   // the ring packet in progress, read once (a WAIT_REG_MEM polling)
  uint32_t ring_packet_dwords_ = 0;
  std::unique_ptr<isa::ShRegisters> sh_;  // SET_SH_REG's registers (PM4-DISP-1), kept across packets
  uint64_t consumed_ = 0;
  std::atomic<bool> error_{false};
};

}  // namespace rocref::gpu::pm4
