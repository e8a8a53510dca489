// tests/unit/gpu/queue_fixture.h - a real amd_queue_t, signals and kernel objects for GPU-model tests.
#pragma once

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "common/host_aql_queue.h"
#include "common/kernel_abi.h"
#include "gpu/memory_access.h"
#include "gpu/packet_processor.h"

namespace rocref::gpu::testing {

// An AQL queue laid out as ROCR lays it out, with the accessors the tests use.
struct TestQueue : aql::HostAqlQueue {
  explicit TestQueue(uint32_t size = 16) : aql::HostAqlQueue(size) {}

  aql::QueueRing ring() { return aql::QueueRing(&queue); }
  uint64_t submit(const void* packet) { return ring().submit(packet); }
  template <typename Packet>
  uint64_t submit(const Packet& packet) {
    static_assert(sizeof(Packet) == aql::kPacketBytes);
    return ring().submit(&packet);
  }
  uint16_t header_at(uint64_t id) {
    uint16_t h;
    std::memcpy(&h, ring().slot(id), sizeof h);
    return h;
  }
  uint64_t read_index() { return ring().load_read_index(MemoryOrder::Acquire); }
};

struct TestSignal {
  explicit TestSignal(int64_t value = 1) {
    signal.kind = AMD_SIGNAL_KIND_USER;
    signal.value = value;
  }
  hsa_signal_t handle() { return hsa_signal_t{reinterpret_cast<uint64_t>(&signal)}; }
  int64_t value() const { return std::atomic_ref<int64_t>(const_cast<int64_t&>(signal.value)).load(); }
  void set(int64_t v) { std::atomic_ref<int64_t>(const_cast<int64_t&>(signal.value)).store(v); }

  amd_signal_t signal{};
};

// A kernel object: descriptor, then the code record its entry offset names.
struct TestKernelObject {
  explicit TestKernelObject(uint64_t kernel_id, uint32_t group_fixed = 0, uint32_t kernarg_size = 0) {
    descriptor.kernel_code_entry_byte_offset = sizeof(kernel_abi::KernelDescriptor);
    descriptor.group_segment_fixed_size = group_fixed;
    descriptor.kernarg_size = kernarg_size;
    code.id = kernel_id;
  }
  uint64_t address() const { return reinterpret_cast<uint64_t>(&descriptor); }

  alignas(64) kernel_abi::KernelDescriptor descriptor;
  kernel_abi::KernelCode code;
};
static_assert(offsetof(TestKernelObject, code) == sizeof(kernel_abi::KernelDescriptor));

inline uint32_t header_setup(hsa_packet_type_t type, uint16_t setup = 0, bool barrier = false,
                             hsa_fence_scope_t acquire = HSA_FENCE_SCOPE_SYSTEM,
                             hsa_fence_scope_t release = HSA_FENCE_SCOPE_SYSTEM) {
  return aql::make_header_setup(aql::make_header(type, barrier, acquire, release), setup);
}

inline hsa_kernel_dispatch_packet_t dispatch_packet(uint64_t kernel_object, hsa_signal_t completion,
                                                    uint32_t grid_x = 1, uint16_t wg_x = 1,
                                                    const void* kernarg = nullptr, bool barrier = false) {
  hsa_kernel_dispatch_packet_t p{};
  const uint32_t word = header_setup(HSA_PACKET_TYPE_KERNEL_DISPATCH, 1, barrier);
  std::memcpy(&p, &word, sizeof word);
  p.workgroup_size_x = wg_x;
  p.workgroup_size_y = 1;
  p.workgroup_size_z = 1;
  p.grid_size_x = grid_x;
  p.grid_size_y = 1;
  p.grid_size_z = 1;
  p.kernel_object = kernel_object;
  p.kernarg_address = const_cast<void*>(kernarg);
  p.completion_signal = completion;
  return p;
}

template <typename Barrier>
Barrier barrier_packet(hsa_packet_type_t type, std::vector<hsa_signal_t> deps, hsa_signal_t completion,
                       bool barrier_bit = false) {
  Barrier p{};
  const uint32_t word = header_setup(type, 0, barrier_bit);
  std::memcpy(&p, &word, sizeof word);
  for (size_t i = 0; i < deps.size() && i < 5; ++i) p.dep_signal[i] = deps[i];
  p.completion_signal = completion;
  return p;
}

inline hsa_amd_barrier_value_packet_t barrier_value_packet(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                           int64_t value, int64_t mask, hsa_signal_t completion) {
  hsa_amd_barrier_value_packet_t p{};
  p.header.header = aql::make_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, HSA_FENCE_SCOPE_SYSTEM,
                                     HSA_FENCE_SCOPE_SYSTEM);
  p.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  p.signal = signal;
  p.value = value;
  p.mask = mask;
  p.cond = cond;
  p.completion_signal = completion;
  return p;
}

// FlatMemory that refuses one address range: an unmapped page for fault tests.
class HoleMemory final : public MemoryAccess {
 public:
  void* translate(uint64_t va, size_t size, Access access) noexcept override {
    if (va < hole_end && va + size > hole_begin) return nullptr;
    return flat.translate(va, size, access);
  }
  uint64_t hole_begin = 0, hole_end = 0;
  FlatMemory flat;
};

// A GPU window at the address of one host buffer (the decoy) whose pages are backed by another
// (the backing), so a kernel that dereferenced the GPU address would touch the decoy. Pages of the
// window listed in `holes` are unmapped. Everything outside the window is identity.
class WindowMemory final : public MemoryAccess {
 public:
  static constexpr uint64_t kPage = 4096;
  explicit WindowMemory(size_t pages) : decoy(pages * kPage + kPage, 0xdd), backing(pages * kPage, 0), pages_(pages) {}
  uint64_t va() const { return align_up(reinterpret_cast<uint64_t>(decoy.data())); }
  void* translate(uint64_t address, size_t size, Access access) noexcept override {
    const uint64_t end = address + (size ? size : 1);
    if (end <= va() || address >= va() + pages_ * kPage) return flat_.translate(address, size, access);
    if (address < va() || end > va() + pages_ * kPage || (address - va()) / kPage != (end - 1 - va()) / kPage) {
      return nullptr;  // partly outside, or across a page: the kernels ask page by page
    }
    for (uint64_t hole : holes)
      if ((address - va()) / kPage == hole) {
        faults.push_back(address);
        return nullptr;
      }
    return backing.data() + (address - va());
  }
  std::vector<uint8_t> decoy, backing;
  std::vector<uint64_t> holes, faults;

 private:
  static uint64_t align_up(uint64_t a) { return (a + kPage - 1) & ~(kPage - 1); }
  size_t pages_;
  FlatMemory flat_;
};

}  // namespace rocref::gpu::testing
