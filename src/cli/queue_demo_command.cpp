// cli/queue_demo_command.cpp - `rocref queue-demo`: packets through the AQL core to the GPU model, step by step.
//
// Uses the real step functions: the producer side of common/aql_ring.h
// (reserve, full check, body, header release store, doorbell) and the packet
// processor of gpu/packet_processor.h (launch, header reset, read_index
// advance, completion). Each line names the spec clause (spec/aql-queue.md)
// of the step it shows.
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/parse_args.h"
#include "common/aql_packet.h"
#include "common/aql_ring.h"
#include "common/host_aql_queue.h"
#include "common/kernel_abi.h"
#include "gpu/memory_access.h"
#include "gpu/packet_processor.h"

namespace rocref::cli {
namespace {

constexpr uint32_t kRingSize = 8;
constexpr uint32_t kGrid = 8;

// The demo kernel: out[i] = i * i for each work-item i.
void square_kernel(const void* kernarg) {
  auto* out = *static_cast<uint32_t* const*>(kernarg);
  const uint32_t i = kernel_abi::current().work_item_id.x +
                     kernel_abi::current().work_group_id.x * kernel_abi::current().work_group_size.x;
  out[i] = i * i;
}

const char* type_name(uint8_t type) {
  switch (type) {
    case HSA_PACKET_TYPE_VENDOR_SPECIFIC: return "VENDOR_SPECIFIC";
    case HSA_PACKET_TYPE_INVALID: return "INVALID";
    case HSA_PACKET_TYPE_KERNEL_DISPATCH: return "KERNEL_DISPATCH";
    case HSA_PACKET_TYPE_BARRIER_AND: return "BARRIER_AND";
    case HSA_PACKET_TYPE_AGENT_DISPATCH: return "AGENT_DISPATCH";
    case HSA_PACKET_TYPE_BARRIER_OR: return "BARRIER_OR";
  }
  return "reserved";
}

struct Signal {
  Signal(int64_t value, const char* name) : raw(std::make_unique<amd_signal_t>()), name(name) {
    std::memset(raw.get(), 0, sizeof(amd_signal_t));
    raw->kind = AMD_SIGNAL_KIND_USER;
    raw->value = value;
  }
  hsa_signal_t handle() const { return hsa_signal_t{reinterpret_cast<uintptr_t>(raw.get())}; }
  int64_t value() const { return std::atomic_ref<int64_t>(const_cast<int64_t&>(raw->value)).load(); }
  std::unique_ptr<amd_signal_t> raw;
  const char* name;
};


void line(const char* actor, const char* step, const std::string& what, const char* clause) {
  std::printf("  [%-9s] %-14s %-68s %s\n", actor, step, what.c_str(), clause);
}

std::string fmt(const char* format, unsigned long long a = 0, unsigned long long b = 0, unsigned long long c = 0) {
  char text[160];
  std::snprintf(text, sizeof text, format, a, b, c);
  return text;
}

class Demo {
 public:
  Demo() : ring_(&q_.queue) {
    gpu::QueueBinding binding;
    binding.queue = &q_.queue;
    binding.memory = &memory_;
    binding.on_error = [](hsa_status_t status, uint64_t id) {
      std::printf("  [processor] queue error 0x%x at packet %llu\n", status, static_cast<unsigned long long>(id));
    };
    binding.on_interrupt = [](uint32_t event_id) {
      line("interrupt", "raise", fmt("event %llu: event_id written to the mailbox after the decrement", event_id),
           "AQL-SIG-3");
    };
    binding.on_agent_dispatch = [](const hsa_agent_dispatch_packet_t& p) {
      line("agent", "serve", fmt("agent function %llu(arg0=%llu) runs on the host side", p.type, p.arg[0]),
           "");
      return true;
    };
    processor_ = std::make_unique<gpu::PacketProcessor>(std::move(binding));
  }

  // The producer path of QueueRing::submit, one step per line.
  void produce(const void* packet) {
    const uint64_t before = ring_.load_write_index(MemoryOrder::Relaxed);
    const uint64_t id = ring_.reserve_fetch_add(1);
    line("producer", "reserve", fmt("write_index.fetch_add(1) -> id %llu; write_index %llu -> %llu", id, before, before + 1),
         "AQL-IDX-1");
    const uint64_t read = ring_.load_read_index(MemoryOrder::Acquire);
    const bool room = ring_.has_room(id, 1);
    line("producer", "full check", fmt("id %llu < read_index %llu + size %llu: ", id, read, kRingSize) +
         (room ? "room" : "full, wait"), "AQL-IDX-2");
    ring_.wait_for_room(id, 1);
    ring_.write_body(id, packet);
    line("producer", "write body", fmt("bytes 4..63 into slot %llu; header still ", id & (kRingSize - 1)) +
         type_name(aql::header_type(header_at(id))), "AQL-PUB-2");
    uint32_t header_setup;
    std::memcpy(&header_setup, packet, sizeof header_setup);
    ring_.publish(id, header_setup);
    line("producer", "publish", fmt("32-bit release store header+setup = 0x%08llx: type ", header_setup) +
         type_name(aql::header_type(header_at(id))), "AQL-PUB-1");
    ring_.ring_doorbell(id);
    line("producer", "doorbell", fmt("doorbell signal value := %llu", ring_.load_doorbell()), "AQL-DB-1");
  }

  // The processor's fetch side: launch, header reset, read_index advance.
  void fetch() {
    const uint64_t read = ring_.load_read_index(MemoryOrder::Acquire);
    const uint16_t header = header_at(read);
    gpu::ProcessorStep s = processor_->step_fetch();
    if (s.action != gpu::ProcessorAction::Launch) {
      line("processor", "fetch", fmt("header at read_index %llu is ", read) + type_name(aql::header_type(header)) +
           ": nothing launched", "AQL-INV-1");
      return;
    }
    line("processor", "launch", fmt("doorbell %llu; acquire-load header at read_index %llu: ", ring_.load_doorbell(), read) +
         type_name(aql::header_type(header)) + (aql::header_barrier(header) ? " (barrier bit)" : "") +
         ", acquire fence", "AQL-PUB-3");
    s = processor_->step_fetch();
    line("processor", "reset header", fmt("slot %llu header := ", s.packet_id & (kRingSize - 1)) +
         type_name(aql::header_type(header_at(s.packet_id))), "AQL-RET-1");
    s = processor_->step_fetch();
    line("processor", "advance read", fmt("read_index %llu -> %llu (release store)", read,
                                          ring_.load_read_index(MemoryOrder::Acquire)), "AQL-RET-2");
  }

  void complete(const Signal& signal, const char* what) {
    const int64_t before = signal.value();
    const gpu::ProcessorStep s = processor_->step_complete(0);
    if (s.action != gpu::ProcessorAction::Complete) {
      line("processor", "complete", std::string(what) + ": not yet", "AQL-BAR-2");
      return;
    }
    char text[160];
    std::snprintf(text, sizeof text, "%s; release fence; signal %s %lld -> %lld", what, signal.name,
                  static_cast<long long>(before), static_cast<long long>(signal.value()));
    line("processor", "complete", text, "AQL-SIG-2");
  }

  uint16_t header_at(uint64_t id) {
    return std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(ring_.slot(id))).load(std::memory_order_acquire);
  }
  gpu::PacketProcessor& processor() { return *processor_; }

 private:
  aql::HostAqlQueue q_{kRingSize, HSA_QUEUE_TYPE_SINGLE};
  aql::QueueRing ring_;
  gpu::FlatMemory memory_;
  std::unique_ptr<gpu::PacketProcessor> processor_;
};

int queue_demo(const std::vector<std::string>& args) {
  CLI::App app{
      "Submits a kernel dispatch, a barrier-AND with a null dependency and an\n"
      "agent dispatch through the AQL submission core to the GPU model's packet\n"
      "processor, printing every step with its spec clause (spec/aql-queue.md).",
      "rocref queue-demo"};
  if (const int code = parse_args(app, args); code >= 0) return code;
  std::printf("rocref queue-demo: AQL packets, producer -> ring -> header -> doorbell -> packet processor -> completion\n");
  std::printf("queue: %u slots of 64 bytes in amd_queue_t's ring, every header INVALID (AQL-INV-3)\n", kRingSize);

  static const uint64_t kernel_id = kernel_abi::register_kernel("square", &square_kernel);
  auto code = std::make_unique<kernel_abi::KernelCode>();
  code->id = kernel_id;
  auto descriptor = std::make_unique<kernel_abi::KernelDescriptor>();
  descriptor->kernarg_size = sizeof(void*);
  descriptor->kernel_code_entry_byte_offset =
      reinterpret_cast<intptr_t>(code.get()) - reinterpret_cast<intptr_t>(descriptor.get());
  std::vector<uint32_t> out(kGrid, 0);
  uint32_t* kernarg = out.data();

  Demo demo;
  Signal s0(1, "s0"), s1(1, "s1"), s2(1, "s2");

  std::printf("\npacket 0: KERNEL_DISPATCH of kernel \"square\" over %u work-items, completion signal s0 = 1\n", kGrid);
  hsa_kernel_dispatch_packet_t dispatch{};
  dispatch.header = aql::make_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM,
                                     HSA_FENCE_SCOPE_SYSTEM);
  dispatch.setup = 1;
  dispatch.workgroup_size_x = 4;
  dispatch.workgroup_size_y = dispatch.workgroup_size_z = 1;
  dispatch.grid_size_x = kGrid;
  dispatch.grid_size_y = dispatch.grid_size_z = 1;
  dispatch.kernel_object = reinterpret_cast<uintptr_t>(descriptor.get());
  dispatch.kernarg_address = &kernarg;
  dispatch.completion_signal = s0.handle();
  demo.produce(&dispatch);
  demo.fetch();
  demo.complete(s0, "kernel ran its grid");
  std::printf("  out = [");
  for (uint32_t i = 0; i < kGrid; ++i) std::printf("%s%u", i ? ", " : "", out[i]);
  std::printf("]\n");

  std::printf("\npacket 1: BARRIER_AND on {null, s0, null, null, null}, barrier bit, completion signal s1 = 1\n");
  hsa_barrier_and_packet_t barrier{};
  barrier.header = aql::make_header(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
  barrier.dep_signal[1] = s0.handle();  // the others are null handles: ignored (AQL-BAR-2)
  barrier.completion_signal = s1.handle();
  demo.produce(&barrier);
  demo.fetch();
  demo.complete(s1, "dependency s0 observed 0, null ignored");

  std::printf("\npacket 2: AGENT_DISPATCH, function 7 with arg0 = 42, completion signal s2 = 1 with event 5\n");
  uint64_t mailbox = ~uint64_t{0};  // event slots start at all ones
  s2.raw->event_mailbox_ptr = reinterpret_cast<uintptr_t>(&mailbox);
  s2.raw->event_id = 5;
  hsa_agent_dispatch_packet_t agent{};
  agent.header = aql::make_header(HSA_PACKET_TYPE_AGENT_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM,
                                  HSA_FENCE_SCOPE_SYSTEM);
  agent.type = 7;
  agent.arg[0] = 42;
  agent.completion_signal = s2.handle();
  demo.produce(&agent);
  demo.fetch();
  demo.complete(s2, "agent function served");
  std::printf("  event mailbox = %llu\n", static_cast<unsigned long long>(mailbox));

  std::printf("\nprocessor idle:\n");
  demo.fetch();
  const gpu::ProcessorStats stats = demo.processor().stats();
  std::printf("\n%llu packets launched, %llu completed, queue %s\n", static_cast<unsigned long long>(stats.launched),
              static_cast<unsigned long long>(stats.completed), demo.processor().in_error() ? "in error" : "healthy");
  return stats.completed == 3 && !demo.processor().in_error() ? 0 : 1;
}

const CommandRegistration kRegistration("queue-demo", "submit packets to the GPU model, printing every AQL step",
                                        &queue_demo);

}  // namespace
}  // namespace rocref::cli
