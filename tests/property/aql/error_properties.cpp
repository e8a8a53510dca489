// tests/property/aql/error_properties.cpp - malformed packets put their queue in error, and only
// their queue (AQL-ERR-1..3, AQL-FEN-2, AQL-INV-2), on the real packet processor.
#include <rapidcheck.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "properties.h"
#include "world.h"

namespace rocref::prop {
namespace {

enum class Bad { ReservedType, ZeroWorkgroup, ZeroGrid, BadSetup, AcquireScope3, ReleaseScope3, UnknownKernel,
                 UnknownVendorFormat, ZeroedHeader, kCount };

// A 64-byte packet that the PRM or this processor rejects, built from a good dispatch.
std::array<uint8_t, 64> bad_packet(World& world, Bad kind, uint64_t m, const kernel_abi::KernelDescriptor* unknown) {
  hsa_kernel_dispatch_packet_t p = world.dispatch(m, false, hsa_signal_t{0});
  const int axis = *rc::gen::inRange(0, 3);
  switch (kind) {
    case Bad::ReservedType:
      p.header = static_cast<uint16_t>((p.header & ~aql::kTypeMask) | *rc::gen::inRange(6, 256));
      break;
    case Bad::ZeroWorkgroup:
      (axis == 0 ? p.workgroup_size_x : axis == 1 ? p.workgroup_size_y : p.workgroup_size_z) = 0;
      break;
    case Bad::ZeroGrid:
      (axis == 0 ? p.grid_size_x : axis == 1 ? p.grid_size_y : p.grid_size_z) = 0;
      break;
    case Bad::BadSetup:
      p.setup = *rc::gen::element<uint16_t>(0, 4, 0xffff);
      break;
    case Bad::AcquireScope3:
      p.header |= 3u << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE;
      break;
    case Bad::ReleaseScope3:
      p.header |= 3u << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
      break;
    case Bad::UnknownKernel:
      p.kernel_object = reinterpret_cast<uintptr_t>(unknown);
      break;
    case Bad::UnknownVendorFormat: {
      hsa_amd_barrier_value_packet_t v{};
      v.header.header = aql::make_header(HSA_PACKET_TYPE_VENDOR_SPECIFIC, false, HSA_FENCE_SCOPE_SYSTEM,
                                         HSA_FENCE_SCOPE_SYSTEM);
      v.header.AmdFormat = *rc::gen::suchThat(rc::gen::arbitrary<uint8_t>(), [](uint8_t f) {
        return f != HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
      });
      std::array<uint8_t, 64> bytes;
      std::memcpy(bytes.data(), &v, 64);
      return bytes;
    }
    case Bad::ZeroedHeader:  // a recycled slot whose header+setup word reads 0 (ROCm/librocdxg#68)
      p.header = 0;
      p.setup = 0;
      break;
    case Bad::kCount:
      break;
  }
  std::array<uint8_t, 64> bytes;
  std::memcpy(bytes.data(), &p, 64);
  return bytes;
}

// A descriptor whose code record names no registered kernel.
struct UnknownKernel {
  UnknownKernel() {
    code.id = UINT64_MAX;
    descriptor.kernel_code_entry_byte_offset =
        reinterpret_cast<intptr_t>(&code) - reinterpret_cast<intptr_t>(&descriptor);
  }
  kernel_abi::KernelDescriptor descriptor;
  kernel_abi::KernelCode code;
};

struct ErrorRun {
  uint64_t before = 0, after = 0;
  std::vector<uint64_t> launched;
};

// Submits `before` good dispatches, one bad packet, `after` good ones; steps the processor to a standstill.
ErrorRun run_with_bad_packet(World& world, Bad kind) {
  static UnknownKernel unknown;
  ErrorRun run;
  run.before = *rc::gen::inRange<uint64_t>(0, 5);
  run.after = *rc::gen::inRange<uint64_t>(0, 3);
  aql::QueueRing ring = world.ring();
  for (uint64_t m = 0; m < run.before; ++m) {
    const auto p = world.dispatch(m, false, hsa_signal_t{0});
    ring.submit(&p);
    while (world.processor().step().action != gpu::ProcessorAction::None) {
    }
  }
  const auto bad = bad_packet(world, kind, run.before, &unknown.descriptor);
  ring.submit(bad.data());
  for (uint64_t m = run.before + 1; m <= run.before + run.after && m < 8 + run.before; ++m) {
    const auto p = world.dispatch(m, false, hsa_signal_t{0});
    ring.submit(&p);
  }
  for (int k = 0; k < 64; ++k) {
    const gpu::ProcessorStep s = world.processor().step();
    if (s.action == gpu::ProcessorAction::Launch) run.launched.push_back(s.packet_id);
  }
  return run;
}

}  // namespace

void property_malformed_packet() {
  const Bad kind = static_cast<Bad>(*rc::gen::inRange(0, static_cast<int>(Bad::kCount)));
  World world(WorldOptions{16, 0, 16});
  const ErrorRun run = run_with_bad_packet(world, kind);
  last_failure() = "AQL-ERR-1: malformed packet kind " + std::to_string(static_cast<int>(kind)) + " not reported";
  RC_ASSERT(world.errors().size() == 1u);
  RC_ASSERT(world.errors()[0].status == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  RC_ASSERT(world.errors()[0].packet_id == run.before);
  RC_ASSERT(world.processor().in_error());
  RC_ASSERT(world.processor().error_status() == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  RC_ASSERT(world.processor().last_error()->what.rfind("AQL-", 0) == 0);
  last_failure() = "AQL-ERR-2: a packet at or after the malformed one launched";
  RC_ASSERT(std::none_of(run.launched.begin(), run.launched.end(), [&](uint64_t id) { return id >= run.before; }));
  RC_ASSERT(world.kernel_log().size() == run.before);
  last_failure().clear();
}

void property_unknown_vendor_packet() {
  const Bad kind = *rc::gen::element(Bad::UnknownVendorFormat, Bad::ZeroedHeader);
  World world(WorldOptions{16, 0, 16});
  const ErrorRun run = run_with_bad_packet(world, kind);
  last_failure() = "AQL-INV-2: a type-0 packet of no known vendor format was launched";
  RC_ASSERT(std::find(run.launched.begin(), run.launched.end(), run.before) == run.launched.end());
  RC_ASSERT(world.errors().size() == 1u);
  RC_ASSERT(world.errors()[0].status == HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
  last_failure().clear();
}

void property_error_stops_queue() {
  const Bad kind = static_cast<Bad>(*rc::gen::inRange(0, static_cast<int>(Bad::kCount)));
  World world(WorldOptions{16, 0, 32});
  const ErrorRun run = run_with_bad_packet(world, kind);
  const uint64_t read = world.ring().load_read_index(MemoryOrder::Acquire);
  // More packets after the error, more steps: nothing launches, read_index stays.
  const uint64_t more = *rc::gen::inRange<uint64_t>(1, 4);
  for (uint64_t k = 0; k < more; ++k) {
    const auto p = world.dispatch(20 + k, false, hsa_signal_t{0});
    world.ring().submit(&p);
  }
  last_failure() = "AQL-ERR-2: the queue in error acted";
  for (int k = 0; k < 32; ++k) RC_ASSERT(world.processor().step().action == gpu::ProcessorAction::None);
  RC_ASSERT(world.ring().load_read_index(MemoryOrder::Acquire) == read);
  RC_ASSERT(world.kernel_log().size() == run.before);
  RC_ASSERT(world.errors().size() == 1u);  // the callback ran once
  world.processor().inactivate();
  RC_ASSERT(world.processor().step().action == gpu::ProcessorAction::None);
  last_failure().clear();
}

void property_other_queues_unaffected() {
  const Bad kind = static_cast<Bad>(*rc::gen::inRange(0, static_cast<int>(Bad::kCount)));
  World broken(WorldOptions{16, 0, 16});
  World healthy(WorldOptions{8, 0, 12});
  const uint64_t n = *rc::gen::inRange<uint64_t>(1, 12);
  TestSignal done(static_cast<int64_t>(n));
  for (uint64_t m = 0; m < n; ++m) {
    const auto p = healthy.dispatch(m, m % 3 == 0, done.handle());
    // Interleave: the healthy queue's producer, then a step of each processor.
    while (!healthy.ring().has_room(healthy.ring().load_write_index(MemoryOrder::Relaxed), 1)) {
      healthy.processor().step();
      broken.processor().step();
    }
    healthy.ring().submit(&p);
    if (m == n / 2) run_with_bad_packet(broken, kind);
    healthy.processor().step();
    broken.processor().step();
  }
  for (int k = 0; k < 64; ++k) {
    healthy.processor().step();
    broken.processor().step();
  }
  last_failure() = "AQL-ERR-3: another queue's error disturbed this one";
  RC_ASSERT(broken.processor().in_error());
  RC_ASSERT(!healthy.processor().in_error());
  RC_ASSERT(healthy.errors().empty());
  RC_ASSERT(done.value() == 0);
  std::vector<uint64_t> expected(n);
  for (uint64_t m = 0; m < n; ++m) expected[m] = m;
  RC_ASSERT(healthy.kernel_log() == expected);
  last_failure().clear();
}

}  // namespace rocref::prop
