// gpu/isa/launch.cpp - the back end: wave setup from a Launch and the work-group loop (barriers, faults).
#include "gpu/isa/launch.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "common/trace.h"
#include "gpu/isa/exec_context.h"
#include "gpu/isa/program_cache.h"

namespace rocref::gpu::isa {
namespace {

Step execute(Wave& w, const Inst& in, ExecContext& ctx) {
  switch (in.format) {
    case Format::SOP1: return exec_sop1(w, in, ctx);
    case Format::SOP2: return exec_sop2(w, in, ctx);
    case Format::SOPK: return exec_sopk(w, in, ctx);
    case Format::SOPC: return exec_sopc(w, in, ctx);
    case Format::SOPP: return exec_sopp(w, in, ctx);
    case Format::SMEM: return exec_smem(w, in, ctx);
    case Format::VOP1:
    case Format::VOP2:
    case Format::VOPC:
    case Format::VOP3: return exec_valu(w, in, ctx);
    case Format::DS: return exec_ds(w, in, ctx);
    case Format::FLAT:
    case Format::GLOBAL:
    case Format::SCRATCH: return exec_flat(w, in, ctx);
    case Format::MUBUF: return exec_mubuf(w, in, ctx);
    case Format::MIMG: return exec_mimg(w, in, ctx);
    case Format::VOP3P: return exec_vop3p(w, in, ctx);
    case Format::SDWA: return exec_sdwa(w, in, ctx);
    case Format::DPP: return exec_dpp(w, in, ctx);
    case Format::Invalid: return ctx.illegal(in, w.pc, "illegal");
    default: return ctx.illegal(in, w.pc, "unimplemented");
  }
}

// Runs one wave until it ends, reaches a barrier or faults.
Step run_wave(Wave& w, Program& program, ExecContext& ctx, MemoryAccess& memory, IsaStats& stats) {
  for (;;) {
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
      case Step::End: w.state = WaveState::Done; return step;
      case Step::Fault: return step;
    }
  }
}

struct Geometry {
  uint32_t wg[3];  // this work-group's size (partial at the grid's edge)
  uint32_t id[3];  // work-group id
};

// ISA-DISP-2: the launch's user SGPRs (scratch fields filled in), then system SGPRs; work-item
// ids in v0..v2; EXEC for partial waves.
void setup_wave(Wave& w, unsigned wave, const Geometry& g, const Launch& l, const ExecContext& ctx) {
  const DescriptorFields& f = l.fields;
  std::memset(w.s, 0, sizeof w.s);
  w.scc = false;
  w.state = WaveState::Running;
  w.mode = 0;
  w.wave_id = wave;
  w.pc = l.code_va;
  w.instructions = 0;
  const uint64_t per_wave = uint64_t{l.private_size} * kWaveLanes;
  const uint64_t wave_scratch = ctx.scratch_va + wave * per_wave;
  std::memcpy(w.s, l.user_sgpr, sizeof(uint32_t) * std::min(l.user_sgpr_count, kMaxUserSgprs));
  if (l.scratch_rsrc_sgpr >= 0) {  // scratch V#: swizzled, 4-byte elements, index stride 64, ADD_TID
    uint32_t* s = &w.s[l.scratch_rsrc_sgpr];
    s[0] = static_cast<uint32_t>(ctx.scratch_va);
    s[1] = static_cast<uint32_t>((ctx.scratch_va >> 32) & 0xffff) | (1u << 31);
    s[2] = 0xffffffffu;
    s[3] = (1u << 19) | (3u << 21) | (1u << 23);
  }
  if (l.flat_scratch_sgpr >= 0) {  // the prologue adds the wave offset
    w.s[l.flat_scratch_sgpr] = static_cast<uint32_t>(ctx.scratch_va);
    w.s[l.flat_scratch_sgpr + 1] = static_cast<uint32_t>(ctx.scratch_va >> 32);
  }
  unsigned s = std::max(l.user_sgpr_count, f.user_sgpr_count);
  for (unsigned dim = 0; dim < 3; ++dim) {
    if (f.workgroup_id[dim]) w.s[s++] = g.id[dim];
  }
  if (f.workgroup_info) w.s[s++] = 0;
  if (f.private_segment_wave_offset) w.s[s++] = static_cast<uint32_t>(wave * per_wave);
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
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const uint32_t flat = first + lane;
    const uint32_t ids[3] = {flat % g.wg[0], (flat / g.wg[0]) % g.wg[1], flat / (g.wg[0] * g.wg[1])};
    w.vrow(x_reg)[lane] = ids[0];
    if (f.workitem_id_dims > 1 && w.nvgpr > 1) w.vrow(1)[lane] = ids[1];
    if (f.workitem_id_dims > 2 && w.nvgpr > 2) w.vrow(2)[lane] = ids[2];
  }
}

}  // namespace

std::optional<PacketFault> run_launch(const Launch& l, IsaStats* stats_out) {
  IsaStats stats;
  const uint32_t* grid = l.grid;
  const uint32_t* wg = l.workgroup;
  if (l.fields.vgprs > 256) {
    return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-DISP-1: more than 256 VGPRs", l.fault_va};
  }
  if (wg[0] == 0 || wg[1] == 0 || wg[2] == 0) {
    return PacketFault{HSA_STATUS_ERROR_INVALID_ARGUMENT, "ISA-LAUNCH-1: a work-group of no work-items", l.fault_va};
  }
  std::shared_ptr<Program> program = ProgramCache::global().get(l.code_va, *l.memory);
  std::lock_guard<std::mutex> hold(program->mutex());
  program->begin_dispatch();

  ExecContext ctx;
  ctx.memory = l.memory;
  ctx.l2 = l.l2;
  if (l.packet != nullptr) {
    ctx.packet_va = l.packet_va;
    std::memcpy(ctx.packet, l.packet, sizeof ctx.packet);
  }
  const uint32_t max_waves = (wg[0] * wg[1] * wg[2] + kWaveLanes - 1) / kWaveLanes;
  if (l.private_size > 0) ctx.scratch.assign(size_t{l.private_size} * kWaveLanes * max_waves, 0);
  ctx.scratch_va = reinterpret_cast<uintptr_t>(ctx.scratch.data());

  std::vector<Wave> waves(max_waves);
  const uint32_t groups[3] = {(grid[0] + wg[0] - 1) / wg[0], (grid[1] + wg[1] - 1) / wg[1],
                              (grid[2] + wg[2] - 1) / wg[2]};
  std::optional<PacketFault> fault;
  for (uint32_t gz = 0; gz < groups[2] && !fault; ++gz) {
    for (uint32_t gy = 0; gy < groups[1] && !fault; ++gy) {
      for (uint32_t gx = 0; gx < groups[0] && !fault; ++gx) {
        Geometry g{{std::min(wg[0], grid[0] - gx * wg[0]), std::min(wg[1], grid[1] - gy * wg[1]),
                    std::min(wg[2], grid[2] - gz * wg[2])},
                   {l.group_start[0] + gx, l.group_start[1] + gy, l.group_start[2] + gz}};
        const uint32_t items = g.wg[0] * g.wg[1] * g.wg[2];
        const unsigned nwaves = (items + kWaveLanes - 1) / kWaveLanes;
        ctx.lds.assign(l.lds_bytes, 0);
        for (unsigned i = 0; i < nwaves; ++i) setup_wave(waves[i], i, g, l, ctx);
        ++stats.work_groups;
        stats.waves += nwaves;
        // ISA-BAR-1: run each wave to its next barrier or end; release the barrier when every live wave is there.
        for (bool live = true; live && !fault;) {
          live = false;
          for (unsigned i = 0; i < nwaves; ++i) {
            Wave& w = waves[i];
            if (w.state != WaveState::Running) continue;
            if (run_wave(w, *program, ctx, *l.memory, stats) == Step::Fault) {
              fault = ctx.fault;
              break;
            }
          }
          for (unsigned i = 0; i < nwaves; ++i) {
            if (waves[i].state == WaveState::AtBarrier) {
              waves[i].state = WaveState::Running;
              live = true;
            }
          }
        }
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
