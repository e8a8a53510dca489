// gpu/isa/dispatch.cpp - wave setup per the AMDGPU ABI and the work-group loop (barriers, faults).
#include "gpu/isa/dispatch.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "common/trace.h"
#include "gpu/isa/exec_context.h"
#include "gpu/isa/kernel_descriptor.h"
#include "gpu/isa/program_cache.h"

namespace rocref::gpu::isa {
namespace {

// ISA-DISP-3: work-groups resident at once, and the instructions a wave runs before the next takes its turn.
constexpr uint64_t kResidentGroups = 16;
constexpr uint64_t kQuantum = 1024;

Step execute(Wave& w, const Inst& in, ExecContext& ctx) {
  switch (in.format) {
    case Format::SOP1: return exec_sop1(w, in, ctx);
    case Format::SOP2: return exec_sop2(w, in, ctx);
    case Format::SOPK: return exec_sopk(w, in, ctx);
    case Format::SOPC: return exec_sopc(w, in, ctx);
    case Format::SOPP: return exec_sopp(w, in, ctx);
    case Format::SMEM: return exec_smem(w, in, ctx);
    case Format::VOP1: case Format::VOP2: case Format::VOPC: case Format::VOP3: return exec_valu(w, in, ctx);
    case Format::DS: return exec_ds(w, in, ctx);
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: return exec_flat(w, in, ctx);
    case Format::MUBUF: return exec_mubuf(w, in, ctx);
    case Format::MIMG: return exec_mimg(w, in, ctx);
    case Format::VOP3P: return exec_vop3p(w, in, ctx);
    case Format::SDWA: return exec_sdwa(w, in, ctx);
    case Format::DPP: return exec_dpp(w, in, ctx);
    case Format::Invalid: return ctx.illegal(in, w.pc, "illegal");
    default: return ctx.illegal(in, w.pc, "unimplemented");
  }
}

// Runs one wave until it ends, reaches a barrier or faults, or has run `quantum` instructions
// (then Step::Next: it is still Running and resumes where it stopped).
Step run_wave(Wave& w, Program& program, ExecContext& ctx, MemoryAccess& memory, IsaStats& stats, uint64_t quantum) {
  for (uint64_t n = 0;; ++n) {
    if (n == quantum) return Step::Next;
    const Inst* in = program.at(w.pc, memory);
    if (in == nullptr) return ctx.memory_fault(w.pc, "instruction fetch");
    ++w.instructions;
    ++stats.instructions;
    // ISA-TRACE-1: a format compare per instruction, into the dispatch's own counters (no atomics).
    stats.scalar_instructions +=
        in->format >= Format::SOP1 && in->format <= Format::SMEM && !isa_mutant_active(IsaMutant::StatsSkipScalar);
    stats.lane_instructions += static_cast<uint64_t>(std::popcount(w.exec()));
    const Step step = execute(w, *in, ctx);
    switch (step) {
      case Step::Next: w.pc += in->dwords * 4u; break;
      case Step::Jumped: break;
      case Step::Barrier:
        w.pc += 4;
        if (isa_mutant_active(IsaMutant::BarrierNotWaiting)) break;
        w.state = WaveState::AtBarrier;
        return step;
      case Step::End:
        w.state = WaveState::Done;
        return step;
      case Step::Fault:
        return step;
    }
  }
}

struct Geometry {
  uint32_t wg[3];    // this work-group's size (partial at the grid's edge)
  uint32_t id[3];    // work-group id
};

// ISA-DISP-2: user SGPRs in ABI order, then system SGPRs; work-item ids in v0..v2; EXEC for partial waves.
// `scratch_index`: the wave's slot in the dispatch's scratch (its resident work-group's first slot plus `wave`).
void setup_wave(Wave& w, unsigned wave, unsigned scratch_index, const Geometry& g, const KernelDescriptor& kd,
                const DescriptorFields& f, const IsaDispatch& d, const ExecContext& ctx, uint32_t private_size,
                uint64_t code_va) {
  std::memset(w.s, 0, sizeof w.s);
  w.scc = false;
  w.state = WaveState::Running;
  w.mode = 0;
  w.wave_id = wave;
  w.pc = code_va;
  w.instructions = 0;
  const uint64_t per_wave = uint64_t{private_size} * kWaveLanes;
  const uint64_t wave_scratch = ctx.scratch_va + scratch_index * per_wave;
  unsigned s = 0;
  auto put64 = [&](uint64_t v) { w.s[s++] = static_cast<uint32_t>(v); w.s[s++] = static_cast<uint32_t>(v >> 32); };
  const uint16_t props = kd.kernel_code_properties;
  if (props & kEnablePrivateSegmentBuffer) {  // scratch V#: swizzled, 4-byte elements, index stride 64, ADD_TID
    w.s[s++] = static_cast<uint32_t>(ctx.scratch_va);
    w.s[s++] = static_cast<uint32_t>((ctx.scratch_va >> 32) & 0xffff) | (1u << 31);
    w.s[s++] = 0xffffffffu;
    w.s[s++] = (1u << 19) | (3u << 21) | (1u << 23);
  }
  if (props & kEnableDispatchPtr) put64(d.packet_va);
  if (props & kEnableQueuePtr) put64(d.queue_va);
  if (props & kEnableKernargSegmentPtr) put64(reinterpret_cast<uintptr_t>(d.packet->kernarg_address));
  if (props & kEnableDispatchId) put64(d.dispatch_id);
  if (props & kEnableFlatScratchInit) put64(ctx.scratch_va);  // the prologue adds the wave offset
  if (props & kEnablePrivateSegmentSize) w.s[s++] = private_size;
  s = std::max(s, f.user_sgpr_count);
  for (unsigned dim = 0; dim < 3; ++dim) {
    if (f.workgroup_id[dim]) w.s[s++] = g.id[dim];
  }
  if (f.workgroup_info) w.s[s++] = 0;
  if (f.private_segment_wave_offset) w.s[s++] = static_cast<uint32_t>(scratch_index * per_wave);
  // FLAT_SCRATCH as the prologue would set it, for code that uses scratch_* without flat scratch init.
  w.s[kFlatScratchLo] = static_cast<uint32_t>(wave_scratch);
  w.s[kFlatScratchLo + 1] = static_cast<uint32_t>(wave_scratch >> 32);

  const uint32_t items = g.wg[0] * g.wg[1] * g.wg[2];
  const unsigned first = wave * kWaveLanes;
  const unsigned lanes = std::min<unsigned>(kWaveLanes, items - first);
  w.set_exec(lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
  w.nvgpr = f.vgprs;
  w.v.assign(size_t{w.nvgpr + kHiddenRows} * kWaveLanes, 0);
  const unsigned x_reg = isa_mutant_active(IsaMutant::WorkItemIdXInV1) ? 1 : 0;
  for (unsigned l = 0; l < lanes; ++l) {
    const uint32_t flat = first + l;
    const uint32_t ids[3] = {flat % g.wg[0], (flat / g.wg[0]) % g.wg[1], flat / (g.wg[0] * g.wg[1])};
    w.vrow(x_reg)[l] = ids[0];
    if (f.workitem_id_dims > 1 && w.nvgpr > 1) w.vrow(1)[l] = ids[1];
    if (f.workitem_id_dims > 2 && w.nvgpr > 2) w.vrow(2)[l] = ids[2];
  }
}

PacketFault code_fault(const DescriptorRead& r, uint64_t ko) {
  if (r.fault) {
    return PacketFault{static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
                       "ISA-DISP-1: kernel object: " + r.why, ko};
  }
  return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-DISP-1: kernel object: " + r.why, ko};
}

}  // namespace

bool is_isa_kernel(const hsa_kernel_dispatch_packet_t& packet, MemoryAccess& memory, std::string* why) {
  const DescriptorRead r = read_kernel_descriptor(packet.kernel_object, memory);
  if (why != nullptr) *why = r.why;
  return r.descriptor.has_value();
}

std::optional<PacketFault> run_isa_dispatch(const IsaDispatch& d, IsaStats* stats_out) {
  IsaStats stats;
  const hsa_kernel_dispatch_packet_t& p = *d.packet;
  const DescriptorRead r = read_kernel_descriptor(p.kernel_object, *d.memory);
  if (!r.descriptor) return code_fault(r, p.kernel_object);
  const KernelDescriptor& kd = *r.descriptor;
  const DescriptorFields f = decode_fields(kd);
  if (f.vgprs > 256) return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-DISP-1: more than 256 VGPRs", p.kernel_object};

  std::shared_ptr<Program> program = ProgramCache::global().get(r.code_va, *d.memory);
  std::lock_guard<std::mutex> hold(program->mutex());
  program->begin_dispatch();

  ExecContext ctx;
  ctx.memory = d.memory;
  ctx.l2 = d.l2;
  ctx.packet_va = d.packet_va;
  static_assert(sizeof p == sizeof ctx.packet);
  std::memcpy(ctx.packet, &p, sizeof p);
  const uint32_t lds_bytes = std::max(p.group_segment_size, kd.group_segment_fixed_size);
  const uint32_t private_size = (std::max(p.private_segment_size, kd.private_segment_fixed_size) + 3) & ~3u;
  const uint32_t dims = p.setup & 3;
  const uint32_t grid[3] = {p.grid_size_x, dims > 1 ? p.grid_size_y : 1u, dims > 2 ? p.grid_size_z : 1u};
  const uint32_t wg[3] = {p.workgroup_size_x, dims > 1 ? p.workgroup_size_y : 1u, dims > 2 ? p.workgroup_size_z : 1u};
  const uint32_t max_waves = (wg[0] * wg[1] * wg[2] + kWaveLanes - 1) / kWaveLanes;
  const uint32_t groups[3] = {(grid[0] + wg[0] - 1) / wg[0], (grid[1] + wg[1] - 1) / wg[1],
                              (grid[2] + wg[2] - 1) / wg[2]};
  const uint64_t total_groups = uint64_t{groups[0]} * groups[1] * groups[2];
  // ISA-DISP-3: up to kResidentGroups work-groups are resident at once and their waves take turns
  // in quanta of kQuantum instructions, so a wave that spins on memory another work-group (or the
  // host) writes lets that one run, as the hardware's concurrent waves do.
  const bool one_at_a_time = isa_mutant_active(IsaMutant::WorkGroupsOneAtATime);
  const uint64_t resident = std::min<uint64_t>(total_groups, one_at_a_time ? 1 : kResidentGroups);
  const uint64_t quantum = one_at_a_time ? UINT64_MAX : kQuantum;
  if (private_size > 0) ctx.scratch.assign(size_t{private_size} * kWaveLanes * max_waves * resident, 0);
  ctx.scratch_va = reinterpret_cast<uintptr_t>(ctx.scratch.data());

  struct Resident {
    std::vector<Wave> waves;
    std::vector<uint8_t> lds;
    unsigned nwaves = 0;
    bool live = false;
  };
  std::vector<Resident> slots(resident);
  uint64_t next_group = 0;  // in x, then y, then z order
  // Makes the next work-group resident in `slot`; false when every one has been.
  auto launch = [&](size_t slot) {
    if (next_group == total_groups) return false;
    const uint32_t gx = static_cast<uint32_t>(next_group % groups[0]);
    const uint32_t gy = static_cast<uint32_t>(next_group / groups[0] % groups[1]);
    const uint32_t gz = static_cast<uint32_t>(next_group / (uint64_t{groups[0]} * groups[1]));
    ++next_group;
    Geometry g{{std::min(wg[0], grid[0] - gx * wg[0]), std::min(wg[1], grid[1] - gy * wg[1]),
                std::min(wg[2], grid[2] - gz * wg[2])},
               {gx, gy, gz}};
    Resident& rg = slots[slot];
    const uint32_t items = g.wg[0] * g.wg[1] * g.wg[2];
    rg.nwaves = (items + kWaveLanes - 1) / kWaveLanes;
    if (rg.waves.size() < rg.nwaves) rg.waves.resize(max_waves);
    rg.lds.assign(lds_bytes, 0);
    for (unsigned i = 0; i < rg.nwaves; ++i) {
      setup_wave(rg.waves[i], i, static_cast<unsigned>(slot * max_waves + i), g, kd, f, d, ctx, private_size,
                 r.code_va);
    }
    rg.live = true;
    ++stats.work_groups;
    stats.waves += rg.nwaves;
    return true;
  };
  std::optional<PacketFault> fault;
  size_t live_slots = 0;
  for (size_t i = 0; i < slots.size(); ++i) live_slots += launch(i) ? 1 : 0;
  while (live_slots > 0 && !fault) {
    for (size_t slot = 0; slot < slots.size() && !fault; ++slot) {
      Resident& r = slots[slot];
      if (!r.live) continue;
      // One turn: each running wave of the work-group for a quantum, in the group's own LDS.
      std::swap(ctx.lds, r.lds);
      bool running = false, at_barrier = false;
      for (unsigned i = 0; i < r.nwaves; ++i) {
        Wave& w = r.waves[i];
        if (w.state != WaveState::Running) continue;
        if (run_wave(w, *program, ctx, *d.memory, stats, quantum) == Step::Fault) {
          fault = ctx.fault;
          break;
        }
      }
      std::swap(ctx.lds, r.lds);
      for (unsigned i = 0; i < r.nwaves; ++i) {
        running = running || r.waves[i].state == WaveState::Running;
        at_barrier = at_barrier || r.waves[i].state == WaveState::AtBarrier;
      }
      // ISA-BAR-1: a barrier opens when no wave of the group still runs towards it.
      if (!running && at_barrier) {
        for (unsigned i = 0; i < r.nwaves; ++i) {
          if (r.waves[i].state == WaveState::AtBarrier) r.waves[i].state = WaveState::Running;
        }
      } else if (!running) {
        r.live = false;
        if (launch(slot)) continue;
        --live_slots;
      }
    }
  }
  ROCREF_TRACE_EVENT(trace::Layer::Gpu, "isa dispatch",
                     "work-groups=" + std::to_string(stats.work_groups) + " waves=" + std::to_string(stats.waves) +
                         " instructions=" + std::to_string(stats.instructions) +
                         " scalar=" + std::to_string(stats.scalar_instructions) +
                         " lane-instructions=" + std::to_string(stats.lane_instructions));
  if (stats_out != nullptr) *stats_out = stats;
  return fault;
}

}  // namespace rocref::gpu::isa
