// tests/property/aql/world.h - one real queue with its packet processor, as the property tests drive it.
//
// A TestQueue in ROCR's layout, the real QueueRing (producer side), the real
// PacketProcessor over FlatMemory, a registered host kernel that logs which
// packet body it ran, and completion signals. Packets are built from their
// model id so that a body names the packet it belongs to.
#pragma once

#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/aql_ring.h"
#include "common/kernel_abi.h"
#include "gpu/memory_access.h"
#include "gpu/packet_processor.h"
#include "test_queue.h"

namespace rocref::prop {

// What the logging kernel's kernarg points at.
struct KernelRecord {
  uint64_t packet = 0;                 // the packet (model id) whose body carried this record
  std::vector<uint64_t>* log = nullptr;
  uint64_t* effect = nullptr;          // written by the kernel when non-null (AQL-FEN-1)
};

// A 64-byte-aligned amd_signal_t of kind USER.
struct TestSignal {
  explicit TestSignal(int64_t value = 0);
  amd_signal_t* raw() { return signal.get(); }
  hsa_signal_t handle() { return hsa_signal_t{reinterpret_cast<uintptr_t>(signal.get())}; }
  int64_t value() const;
  void set(int64_t value);

  std::unique_ptr<amd_signal_t> signal;
};

struct WorldOptions {
  uint32_t ring_size = 4;
  uint64_t start = 0;  // first packet id; near 2^64 for AQL-IDX-5 (the doorbell starts at start - 1)
  uint64_t packets = 0;  // how many packets (model ids 0..packets-1) may be built
};

class World {
 public:
  explicit World(const WorldOptions& options);
  ~World();

  aql::QueueRing ring() { return queue_.ring(); }
  testing::TestQueue& queue() { return queue_; }
  gpu::PacketProcessor& processor() { return *processor_; }
  uint64_t start() const { return options_.start; }

  // The dispatch packet of model id m (its kernarg record names m).
  hsa_kernel_dispatch_packet_t dispatch(uint64_t m, bool barrier, hsa_signal_t completion);
  static uint16_t dispatch_header(bool barrier);

  uint64_t kernel_object() const { return reinterpret_cast<uintptr_t>(descriptor_.get()); }
  const std::vector<uint64_t>& kernel_log() const { return log_; }
  std::vector<gpu::QueueError>& errors() { return errors_; }
  std::vector<uint32_t>& interrupts() { return interrupts_; }
  // Value of `probe` when each interrupt was raised (AQL-SIG-3: after the decrement).
  void set_interrupt_probe(amd_signal_t* probe) { probe_ = probe; }
  std::vector<int64_t>& probe_values() { return probe_values_; }
  std::vector<uint64_t>& agent_packets() { return agent_packets_; }

 private:
  WorldOptions options_;
  testing::TestQueue queue_;
  gpu::FlatMemory memory_;
  std::unique_ptr<kernel_abi::KernelDescriptor> descriptor_;
  std::unique_ptr<kernel_abi::KernelCode> code_;
  std::deque<KernelRecord> records_;
  std::vector<uint64_t> log_;
  std::vector<gpu::QueueError> errors_;
  std::vector<uint32_t> interrupts_;
  std::vector<uint64_t> agent_packets_;
  amd_signal_t* probe_ = nullptr;
  std::vector<int64_t> probe_values_;
  std::unique_ptr<gpu::PacketProcessor> processor_;
};

// The logging kernel's id in the kernel registry (registered once).
uint64_t logging_kernel_id();

}  // namespace rocref::prop
