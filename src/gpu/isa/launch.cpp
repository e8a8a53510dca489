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
#include "gpu/isa/work_group_pool.h"

namespace rocref::gpu::isa {
namespace {

// ISA-DISP-3: work-groups resident at once on one worker, and the instructions a wave runs
// before the next takes its turn.
constexpr unsigned kResidentGroups = 16;
constexpr uint64_t kQuantum = 1024;
// ISA-PAR-1: once a work-group faulted, the resident groups before it get this many more turns
// to end or fault (one may wait for a group after the fault, which will never run).
constexpr uint64_t kTurnsAfterFault = 4096;

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
// ids in v0..v2; EXEC for partial waves. `scratch_index`: the wave's slot in its worker's scratch
// (its resident work-group's first slot plus `wave`).
void setup_wave(Wave& w, unsigned wave, unsigned scratch_index, const Geometry& g, const Launch& l,
                const ExecContext& ctx) {
  const DescriptorFields& f = l.fields;
  std::memset(w.s, 0, sizeof w.s);
  w.scc = false;
  w.state = WaveState::Running;
  w.mode = 0;
  w.wave_id = wave;
  w.pc = l.code_va;
  w.instructions = 0;
  const uint64_t per_wave = uint64_t{l.private_size} * kWaveLanes;
  const uint64_t wave_scratch = ctx.scratch_va + scratch_index * per_wave;
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
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const uint32_t flat = first + lane;
    const uint32_t ids[3] = {flat % g.wg[0], (flat / g.wg[0]) % g.wg[1], flat / (g.wg[0] * g.wg[1])};
    w.vrow(x_reg)[lane] = ids[0];
    if (f.workitem_id_dims > 1 && w.nvgpr > 1) w.vrow(1)[lane] = ids[1];
    if (f.workitem_id_dims > 2 && w.nvgpr > 2) w.vrow(2)[lane] = ids[2];
  }
}

// A work-group resident on a worker: its waves and LDS.
struct Resident {
  std::vector<Wave> waves;
  std::vector<uint8_t> lds;
  unsigned nwaves = 0;
  uint64_t group = 0;  // in launch order: x fastest, then y, then z
  bool live = false;
};

// One worker's own state: its resident work-groups, their scratch, its counts and its first fault.
struct Worker {
  ExecContext ctx;
  std::vector<Resident> slots;
  IsaStats stats;
  uint64_t failed_at = UINT64_MAX;   // the first (in launch order) of its groups that faulted
  std::optional<PacketFault> fault;  // that group's fault
};

// What every worker of one launch reads.
struct Shared {
  const Launch& l;
  Program& program;
  uint32_t groups[3];
  uint32_t max_waves;
  unsigned resident;
  uint64_t quantum;
};

void init_worker(Worker& w, const Shared& sh) {
  const Launch& l = sh.l;
  w.ctx.memory = l.memory;
  w.ctx.l2 = l.l2;
  if (l.packet != nullptr) {
    w.ctx.packet_va = l.packet_va;
    std::memcpy(w.ctx.packet, l.packet, sizeof w.ctx.packet);
  }
  if (l.private_size > 0) w.ctx.scratch.assign(size_t{l.private_size} * kWaveLanes * sh.max_waves * sh.resident, 0);
  w.ctx.scratch_va = reinterpret_cast<uintptr_t>(w.ctx.scratch.data());
  w.slots.resize(sh.resident);
}

// Makes the next claimed work-group resident in `slot`; false when none is left to claim.
bool make_resident(const Shared& sh, Worker& wk, unsigned slot, GroupClaims& claims) {
  const std::optional<uint64_t> next = claims.next();
  if (!next) return false;
  const Launch& l = sh.l;
  const uint32_t* grid = l.grid;
  const uint32_t* wg = l.workgroup;
  const uint32_t gx = static_cast<uint32_t>(*next % sh.groups[0]);
  const uint32_t gy = static_cast<uint32_t>(*next / sh.groups[0] % sh.groups[1]);
  const uint32_t gz = static_cast<uint32_t>(*next / (uint64_t{sh.groups[0]} * sh.groups[1]));
  const Geometry g{{std::min(wg[0], grid[0] - gx * wg[0]), std::min(wg[1], grid[1] - gy * wg[1]),
                    std::min(wg[2], grid[2] - gz * wg[2])},
                   {l.group_start[0] + gx, l.group_start[1] + gy, l.group_start[2] + gz}};
  Resident& rg = wk.slots[slot];
  const uint32_t items = g.wg[0] * g.wg[1] * g.wg[2];
  rg.nwaves = (items + kWaveLanes - 1) / kWaveLanes;
  if (rg.waves.size() < rg.nwaves) rg.waves.resize(sh.max_waves);
  rg.lds.assign(l.lds_bytes, 0);
  for (unsigned i = 0; i < rg.nwaves; ++i) setup_wave(rg.waves[i], i, slot * sh.max_waves + i, g, l, wk.ctx);
  rg.group = *next;
  rg.live = true;
  ++wk.stats.work_groups;
  wk.stats.waves += rg.nwaves;
  return true;
}

// One turn of a resident work-group: each running wave for a quantum, in the group's own LDS.
// False when the group faulted (the fault is recorded and the group retired).
bool run_turn(const Shared& sh, Worker& wk, Resident& rg, GroupClaims& claims) {
  ExecContext& ctx = wk.ctx;
  std::swap(ctx.lds, rg.lds);
  bool faulted = false;
  for (unsigned i = 0; i < rg.nwaves && !faulted; ++i) {
    Wave& w = rg.waves[i];
    if (w.state != WaveState::Running) continue;
    ctx.fault.reset();
    faulted = run_wave(w, sh.program, ctx, *sh.l.memory, wk.stats, sh.quantum) == Step::Fault;
  }
  std::swap(ctx.lds, rg.lds);
  if (faulted) {
    if (rg.group < wk.failed_at) {
      wk.failed_at = rg.group;
      wk.fault = ctx.fault;
    }
    claims.failed(rg.group);
    rg.live = false;
    return false;
  }
  bool running = false, at_barrier = false;
  for (unsigned i = 0; i < rg.nwaves; ++i) {
    running = running || rg.waves[i].state == WaveState::Running;
    at_barrier = at_barrier || rg.waves[i].state == WaveState::AtBarrier;
  }
  // ISA-BAR-1: a barrier opens when no wave of the group still runs towards it.
  if (!running && at_barrier) {
    for (unsigned i = 0; i < rg.nwaves; ++i) {
      if (rg.waves[i].state == WaveState::AtBarrier) rg.waves[i].state = WaveState::Running;
    }
  } else if (!running) {
    rg.live = false;
  }
  return true;
}

// ISA-DISP-3, ISA-PAR-1: a worker keeps up to `resident` claimed work-groups and gives their waves
// turns until every group it claimed ended, faulted, or (after a fault before it) was given up.
void run_worker(const Shared& sh, Worker& wk, GroupClaims& claims) {
  unsigned live = 0;
  for (unsigned i = 0; i < sh.resident; ++i) live += make_resident(sh, wk, i, claims) ? 1 : 0;
  uint64_t turns_after_fault = 0;
  while (live > 0) {
    const bool after_fault = claims.first_failed() < claims.groups();
    if (after_fault && ++turns_after_fault > kTurnsAfterFault) break;
    for (unsigned slot = 0; slot < sh.resident; ++slot) {
      Resident& rg = wk.slots[slot];
      if (!rg.live) continue;
      if (rg.group > claims.first_failed()) {  // after the first fault: never reported, so not run on
        rg.live = false;
      } else {
        run_turn(sh, wk, rg, claims);
      }
      if (!rg.live && !make_resident(sh, wk, slot, claims)) --live;
    }
  }
}

// ISA-PAR-1: the adversarial mode replays from its seed only on one worker.
unsigned workers_for(const Launch& l) {
  if (l.l2 != nullptr) return 1;
  return l.workers != 0 ? l.workers : WorkGroupPool::configured_workers();
}

}  // namespace

std::optional<PacketFault> run_launch(const Launch& l, IsaStats* stats_out) {
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

  const bool one_at_a_time = isa_mutant_active(IsaMutant::WorkGroupsOneAtATime);
  Shared sh{l,
            *program,
            {(grid[0] + wg[0] - 1) / wg[0], (grid[1] + wg[1] - 1) / wg[1], (grid[2] + wg[2] - 1) / wg[2]},
            (wg[0] * wg[1] * wg[2] + kWaveLanes - 1) / kWaveLanes,
            0,
            one_at_a_time ? UINT64_MAX : kQuantum};
  const uint64_t groups = uint64_t{sh.groups[0]} * sh.groups[1] * sh.groups[2];
  sh.resident =
      static_cast<unsigned>(std::min<uint64_t>(std::max<uint64_t>(groups, 1), one_at_a_time ? 1 : kResidentGroups));

  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(workers_for(l), std::max<uint64_t>(groups, 1)));
  std::vector<Worker> workers(n);
  for (Worker& w : workers) init_worker(w, sh);
  GroupClaims claims(groups);
  WorkGroupPool::global().run(n, claims, [&](unsigned id, GroupClaims& c) { run_worker(sh, workers[id], c); });

  IsaStats stats;
  std::optional<PacketFault> fault;
  uint64_t reported = UINT64_MAX;
  for (unsigned i = 0; i < n; ++i) {
    const Worker& w = workers[i];
    if (i == 0 || !isa_mutant_active(IsaMutant::ParallelStatsOfOneWorker)) {
      stats.work_groups += w.stats.work_groups;
      stats.waves += w.stats.waves;
      stats.instructions += w.stats.instructions;
      stats.scalar_instructions += w.stats.scalar_instructions;
      stats.lane_instructions += w.stats.lane_instructions;
    }
    if (!w.fault) continue;
    // The first faulting group's fault (ParallelFaultOfLastGroup plants the last one's).
    const bool later = reported == UINT64_MAX || w.failed_at > reported;
    const bool earlier = w.failed_at < reported;
    if (isa_mutant_active(IsaMutant::ParallelFaultOfLastGroup) ? later : earlier) {
      fault = w.fault;
      reported = w.failed_at;
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
