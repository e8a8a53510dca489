// gpu/kernel_executor.cpp - kernel lookup through GPU memory and grid execution.
#include "gpu/kernel_executor.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/mutant.h"

namespace rocref::gpu {
namespace {

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

PacketFault fault(std::string what, uint64_t address) {
  return PacketFault{kStatusApertureViolation, std::move(what), address};
}

const kernel_abi::RegisteredKernel* registered(const kernel_abi::KernelCode& record, uint64_t object,
                                               KernelLookup* lookup) {
  if (record.magic != kernel_abi::kKernelCodeMagic) return nullptr;
  // Mutant: remembered by kernel object, so new code at an old object runs the old kernel.
  const uint64_t key = mutant_active(Mutant::KernelLookupByObject) ? object : record.id;
  if (lookup != nullptr && lookup->kernel != nullptr && lookup->id == key) return lookup->kernel;
  const kernel_abi::RegisteredKernel* kernel = kernel_abi::find_kernel(record.id);
  if (lookup != nullptr && kernel != nullptr) *lookup = KernelLookup{key, kernel};
  return kernel;
}

}  // namespace

std::span<const kernel_abi::WorkItemContext> KernelExecutor::work_items(kernel_abi::WorkItemContext& base,
                                                                        const kernel_abi::Dim3& count) {
  items_.clear();
  items_.reserve(size_t{count.x} * count.y * count.z);
  for (uint32_t z = 0; z < count.z; ++z) {
    for (uint32_t y = 0; y < count.y; ++y) {
      for (uint32_t x = 0; x < count.x; ++x) {
        base.work_item_id = {x, y, z};
        items_.push_back(base);
      }
    }
  }
  return items_;
}

std::optional<PacketFault> resolve_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory,
                                          ResolvedKernel* out, KernelLookup* lookup) {
  const uint64_t object = packet.kernel_object;
  const auto* descriptor = memory.as<kernel_abi::KernelDescriptor>(object, Access::Read);
  if (descriptor == nullptr) return fault("kernel descriptor at " + hex(object) + " is not mapped", object);
  kernel_abi::KernelDescriptor d;
  std::memcpy(&d, descriptor, sizeof d);
  const uint64_t code_va = object + static_cast<uint64_t>(d.kernel_code_entry_byte_offset);
  const auto* code = memory.as<kernel_abi::KernelCode>(code_va, Access::Execute);
  if (code == nullptr) return fault("kernel code at " + hex(code_va) + " is not mapped", code_va);
  kernel_abi::KernelCode record;
  std::memcpy(&record, code, sizeof record);
  const kernel_abi::RegisteredKernel* kernel = registered(record, object, lookup);
  if (kernel == nullptr || kernel->entry == nullptr) {
    return PacketFault{HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
                       "AQL-ERR-1: unknown kernel object " + hex(object) + " (no registered kernel at its entry)",
                       object};
  }
  if (d.group_segment_fixed_size > kMaxGroupSegmentBytes) {
    return PacketFault{HSA_STATUS_ERROR_OUT_OF_RESOURCES,
                       "kernel " + kernel->name + " needs " + std::to_string(d.group_segment_fixed_size) +
                           " bytes of group segment",
                       object};
  }
  const void* kernarg = nullptr;
  if (packet.kernarg_address != nullptr) {
    const auto va = reinterpret_cast<uint64_t>(packet.kernarg_address);
    kernarg = memory.translate(va, d.kernarg_size == 0 ? 1 : d.kernarg_size, Access::Read);
    if (kernarg == nullptr) return fault("kernarg segment at " + hex(va) + " is not mapped", va);
  }
  *out = ResolvedKernel{kernel, d.group_segment_fixed_size, kernarg, d.kernarg_size, &memory};
  return std::nullopt;
}

void* KernelExecutor::translate_for_kernel(void* context, uint64_t va, uint64_t size, bool write) noexcept {
  auto* m = static_cast<KernelMemory*>(context);
  void* host = m->memory != nullptr ? m->memory->translate(va, size, write ? Access::Write : Access::Read) : nullptr;
  if (host == nullptr && !m->fault_va) m->fault_va = va;
  return host;
}

std::optional<PacketFault> KernelExecutor::run(const hsa_kernel_dispatch_packet_t& packet,
                                               const ResolvedKernel& kernel) {
  const uint16_t dims = packet.setup;
  // Dimensions beyond `setup` are 1 whatever the packet holds there (PRM 2.9.6).
  const kernel_abi::Dim3 wg{packet.workgroup_size_x, dims >= 2 ? packet.workgroup_size_y : 1u,
                            dims >= 3 ? packet.workgroup_size_z : 1u};
  const kernel_abi::Dim3 grid{packet.grid_size_x, dims >= 2 ? packet.grid_size_y : 1u,
                              dims >= 3 ? packet.grid_size_z : 1u};
  const kernel_abi::Dim3 groups{(grid.x + wg.x - 1) / wg.x, (grid.y + wg.y - 1) / wg.y,
                                (grid.z + wg.z - 1) / wg.z};
  // The packet's size may already include the fixed part (ROCR adds it): summing
  // over-allocates then, but never leaves a kernel short of shared memory.
  const size_t group_bytes = size_t{packet.group_segment_size} + kernel.group_fixed_bytes;
  group_.resize((group_bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  kernel_memory_ = KernelMemory{kernel.memory, std::nullopt};

  // What every work-item of the grid shares; each work-group sets its id, each work-item its own.
  kernel_abi::WorkItemContext base;
  base.work_group_size = wg;
  base.grid_groups = groups;
  base.group_segment = group_bytes == 0 ? nullptr : group_.data();
  base.group_segment_size = static_cast<uint32_t>(group_bytes);
  base.kernarg = kernel.kernarg;
  base.packet = &packet;
  base.memory = kernel_abi::DeviceMemory{&kernel_memory_, &translate_for_kernel};
  for (uint32_t gz = 0; gz < groups.z; ++gz) {
    for (uint32_t gy = 0; gy < groups.y; ++gy) {
      for (uint32_t gx = 0; gx < groups.x; ++gx) {
        if (!group_.empty()) std::memset(group_.data(), 0, group_.size() * sizeof(std::max_align_t));
        base.work_group_id = {gx, gy, gz};
        // A partial work-group at the grid's edge has only the work-items inside the grid
        // (g < groups, so g * wg < grid).
        const kernel_abi::Dim3 items{static_cast<uint32_t>(std::min<uint64_t>(wg.x, grid.x - uint64_t{gx} * wg.x)),
                                     static_cast<uint32_t>(std::min<uint64_t>(wg.y, grid.y - uint64_t{gy} * wg.y)),
                                     static_cast<uint32_t>(std::min<uint64_t>(wg.z, grid.z - uint64_t{gz} * wg.z))};
        // One work-item (the common launch of a single thread) runs on `base` itself: no copy is made.
        const bool one_item = items.x == 1 && items.y == 1 && items.z == 1;
        if (one_item) base.work_item_id = {0, 0, 0};
        const std::span<const kernel_abi::WorkItemContext> group =
            one_item ? std::span<const kernel_abi::WorkItemContext>(&base, 1) : work_items(base, items);
        ++work_groups_;
        std::optional<std::string> failure = fibers_.run(kernel.kernel->entry, kernel.kernarg, group);
        // A GPU page fault (reported to the KFD by the translation) ends the dispatch first.
        if (const std::optional<uint64_t> va = kernel_memory_.fault_va) {
          return PacketFault{kStatusApertureViolation,
                             "VM-XLATE-4: kernel " + kernel.kernel->name + ": GPU page fault at " + hex(*va), *va};
        }
        if (failure) {
          return PacketFault{HSA_STATUS_ERROR_EXCEPTION, "kernel " + kernel.kernel->name + ": " + *failure,
                             packet.kernel_object};
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace rocref::gpu
