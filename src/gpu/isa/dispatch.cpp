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
#include "gpu/isa/work_group_pool.h"

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
void setup_wave(Wave& w, unsigned wave, const Geometry& g, const KernelDescriptor& kd, const DescriptorFields& f,
                const IsaDispatch& d, const ExecContext& ctx, uint32_t private_size, uint64_t code_va) {
  std::memset(w.s, 0, sizeof w.s);
  w.scc = false;
  w.state = WaveState::Running;
  w.mode = 0;
  w.wave_id = wave;
  w.pc = code_va;
  w.instructions = 0;
  const uint64_t per_wave = uint64_t{private_size} * kWaveLanes;
  const uint64_t wave_scratch = ctx.scratch_va + wave * per_wave;
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

namespace {

// What every work-group of one dispatch shares (read-only while the workers run).
struct GroupLaunch {
  const IsaDispatch* d;
  const KernelDescriptor* kd;
  const DescriptorFields* f;
  Program* program;
  uint64_t code_va;
  uint32_t lds_bytes, private_size, max_waves;
  uint32_t grid[3], wg[3], groups[3];
};

// One worker's own state: a work-group's waves, LDS and scratch are never shared (ISA-PAR-1).
struct Worker {
  ExecContext ctx;
  std::vector<Wave> waves;
  IsaStats stats;
};

void init_worker(Worker& w, const GroupLaunch& l) {
  w.ctx.memory = l.d->memory;
  w.ctx.l2 = l.d->l2;
  w.ctx.packet_va = l.d->packet_va;
  static_assert(sizeof *l.d->packet == sizeof w.ctx.packet);
  std::memcpy(w.ctx.packet, l.d->packet, sizeof w.ctx.packet);
  if (l.private_size > 0) w.ctx.scratch.assign(size_t{l.private_size} * kWaveLanes * l.max_waves, 0);
  w.ctx.scratch_va = reinterpret_cast<uintptr_t>(w.ctx.scratch.data());
  w.waves.resize(l.max_waves);
}

// Runs work-group `linear` (x fastest, then y, then z); false when it faulted (ctx.fault says how).
bool run_work_group(const GroupLaunch& l, Worker& wk, uint64_t linear) {
  const uint32_t gx = static_cast<uint32_t>(linear % l.groups[0]);
  const uint32_t gy = static_cast<uint32_t>(linear / l.groups[0] % l.groups[1]);
  const uint32_t gz = static_cast<uint32_t>(linear / l.groups[0] / l.groups[1]);
  const Geometry g{{std::min(l.wg[0], l.grid[0] - gx * l.wg[0]), std::min(l.wg[1], l.grid[1] - gy * l.wg[1]),
                    std::min(l.wg[2], l.grid[2] - gz * l.wg[2])},
                   {gx, gy, gz}};
  const uint32_t items = g.wg[0] * g.wg[1] * g.wg[2];
  const unsigned nwaves = (items + kWaveLanes - 1) / kWaveLanes;
  ExecContext& ctx = wk.ctx;
  ctx.lds.assign(l.lds_bytes, 0);
  for (unsigned i = 0; i < nwaves; ++i)
    setup_wave(wk.waves[i], i, g, *l.kd, *l.f, *l.d, ctx, l.private_size, l.code_va);
  ++wk.stats.work_groups;
  wk.stats.waves += nwaves;
  // ISA-BAR-1: run each wave to its next barrier or end; release the barrier when every live wave is there.
  for (bool live = true; live;) {
    live = false;
    for (unsigned i = 0; i < nwaves; ++i) {
      Wave& w = wk.waves[i];
      if (w.state != WaveState::Running) continue;
      if (run_wave(w, *l.program, ctx, *l.d->memory, wk.stats) == Step::Fault) return false;
    }
    for (unsigned i = 0; i < nwaves; ++i) {
      if (wk.waves[i].state == WaveState::AtBarrier) {
        wk.waves[i].state = WaveState::Running;
        live = true;
      }
    }
  }
  return true;
}

// ISA-PAR-1: the adversarial mode replays from its seed only on one worker.
unsigned workers_for(const IsaDispatch& d) {
  if (d.l2 != nullptr) return 1;
  return d.workers != 0 ? d.workers : WorkGroupPool::configured_workers();
}

}  // namespace

std::optional<PacketFault> run_isa_dispatch(const IsaDispatch& d, IsaStats* stats_out) {
  const hsa_kernel_dispatch_packet_t& p = *d.packet;
  const DescriptorRead r = read_kernel_descriptor(p.kernel_object, *d.memory);
  if (!r.descriptor) return code_fault(r, p.kernel_object);
  const KernelDescriptor& kd = *r.descriptor;
  const DescriptorFields f = decode_fields(kd);
  if (f.vgprs > 256) return PacketFault{HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "ISA-DISP-1: more than 256 VGPRs", p.kernel_object};

  std::shared_ptr<Program> program = ProgramCache::global().get(r.code_va, *d.memory);
  std::lock_guard<std::mutex> hold(program->mutex());
  program->begin_dispatch();

  const uint32_t dims = p.setup & 3;
  GroupLaunch l{&d,
                &kd,
                &f,
                program.get(),
                r.code_va,
                std::max(p.group_segment_size, kd.group_segment_fixed_size),
                (std::max(p.private_segment_size, kd.private_segment_fixed_size) + 3) & ~3u,
                0,
                {p.grid_size_x, dims > 1 ? p.grid_size_y : 1u, dims > 2 ? p.grid_size_z : 1u},
                {p.workgroup_size_x, dims > 1 ? p.workgroup_size_y : 1u, dims > 2 ? p.workgroup_size_z : 1u},
                {}};
  l.max_waves = (l.wg[0] * l.wg[1] * l.wg[2] + kWaveLanes - 1) / kWaveLanes;
  for (unsigned i = 0; i < 3; ++i) l.groups[i] = (l.grid[i] + l.wg[i] - 1) / l.wg[i];
  const uint64_t groups = uint64_t{l.groups[0]} * l.groups[1] * l.groups[2];

  // One worker's state per host thread that takes part.
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(workers_for(d), std::max<uint64_t>(groups, 1)));
  std::vector<Worker> workers(n);
  for (Worker& w : workers) init_worker(w, l);
  std::vector<uint64_t> failed_at(n, groups);  // per worker: the group that faulted
  const uint64_t first_failed = WorkGroupPool::global().run(n, groups, [&](unsigned id, uint64_t group) {
    if (run_work_group(l, workers[id], group)) return true;
    failed_at[id] = std::min(failed_at[id], group);
    return false;
  });
  IsaStats stats;
  std::optional<PacketFault> fault;
  uint64_t last_failed = 0;
  for (unsigned i = 0; i < n; ++i) {
    const IsaStats& s = workers[i].stats;
    if (i == 0 || !isa_mutant_active(IsaMutant::ParallelStatsOfOneWorker)) {
      stats.work_groups += s.work_groups;
      stats.waves += s.waves;
      stats.instructions += s.instructions;
      stats.scalar_instructions += s.scalar_instructions;
      stats.lane_instructions += s.lane_instructions;
    }
    if (failed_at[i] == groups) continue;
    if (isa_mutant_active(IsaMutant::ParallelFaultOfLastGroup)) {
      if (failed_at[i] >= last_failed) fault = workers[i].ctx.fault, last_failed = failed_at[i];
    } else if (failed_at[i] == first_failed) {
      fault = workers[i].ctx.fault;
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
