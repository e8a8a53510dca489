// tests/property/aql/world.cpp - the real queue and processor the property tests drive (see world.h).
#include "world.h"

#include <atomic>
#include <cstring>

namespace rocref::prop {
namespace {

void logging_kernel(const void* kernarg) {
  const auto* record = static_cast<const KernelRecord*>(kernarg);
  record->log->push_back(record->packet);
  if (record->effect != nullptr) *record->effect = record->packet + 1;
}

}  // namespace

uint64_t logging_kernel_id() {
  static const uint64_t id = kernel_abi::register_kernel("aql_property_logging_kernel", &logging_kernel);
  return id;
}

TestSignal::TestSignal(int64_t value) : signal(new amd_signal_t{}) {
  signal->kind = AMD_SIGNAL_KIND_USER;
  signal->value = value;
}

int64_t TestSignal::value() const {
  return std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).load(std::memory_order_acquire);
}

void TestSignal::set(int64_t value) {
  std::atomic_ref<int64_t>(const_cast<int64_t&>(signal->value)).store(value, std::memory_order_release);
}

World::World(const WorldOptions& options)
    : options_(options),
      queue_(options.ring_size, options.start, options.start - 1),
      descriptor_(std::make_unique<kernel_abi::KernelDescriptor>()),
      code_(std::make_unique<kernel_abi::KernelCode>()) {
  code_->id = logging_kernel_id();
  descriptor_->kernarg_size = sizeof(KernelRecord);
  descriptor_->kernel_code_entry_byte_offset =
      reinterpret_cast<intptr_t>(code_.get()) - reinterpret_cast<intptr_t>(descriptor_.get());
  for (uint64_t m = 0; m < options.packets; ++m) records_.push_back(KernelRecord{m, &log_, nullptr});
  gpu::QueueBinding binding;
  binding.queue = queue_.queue();
  binding.memory = &memory_;
  binding.on_interrupt = [this](uint32_t event_id) {
    interrupts_.push_back(event_id);
    if (probe_ != nullptr) {
      probe_values_.push_back(std::atomic_ref<int64_t>(const_cast<int64_t&>(probe_->value)).load());
    }
  };
  binding.on_error = [this](hsa_status_t status, uint64_t packet_id) {
    errors_.push_back(gpu::QueueError{status, packet_id, 0, {}});
  };
  binding.on_agent_dispatch = [this](const hsa_agent_dispatch_packet_t& p) {
    agent_packets_.push_back(p.arg[0]);
    return true;
  };
  processor_ = std::make_unique<gpu::PacketProcessor>(std::move(binding));
}

World::~World() = default;

uint16_t World::dispatch_header(bool barrier) {
  return aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, barrier, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
}

hsa_kernel_dispatch_packet_t World::dispatch(uint64_t m, bool barrier, hsa_signal_t completion) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = dispatch_header(barrier);
  p.setup = 1;
  p.workgroup_size_x = p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = kernel_object();
  p.kernarg_address = m < records_.size() ? &records_[m] : nullptr;
  p.completion_signal = completion;
  return p;
}

}  // namespace rocref::prop
