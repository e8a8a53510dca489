// gpu/isa/lds.cpp - DS: the work-group's LDS (reads, writes, read2/write2, atomics, permutes).
//
// The waves of a work-group run one at a time on one thread, so LDS atomics need
// no host atomics. An address past the group segment reads 0 and drops writes,
// as the hardware's LDS bounds check does (ISA-LDS-1).
#include <cstring>

#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {
namespace {

bool lds_read(const ExecContext& ctx, uint64_t a, void* out, unsigned bytes) {
  if (a + bytes > ctx.lds.size()) {
    std::memset(out, 0, bytes);
    return false;
  }
  std::memcpy(out, ctx.lds.data() + a, bytes);
  return true;
}
void lds_write(ExecContext& ctx, uint64_t a, const void* in, unsigned bytes) {
  if (a + bytes <= ctx.lds.size()) std::memcpy(ctx.lds.data() + a, in, bytes);
}

template <typename T>
T ds_atomic(unsigned kind, T old, T src, T cmp) {
  using S = std::make_signed_t<T>;
  switch (kind) {
    case 0x0: return old + src;
    case 0x1: return old - src;
    case 0x2: return src - old;
    case 0x3: return old >= src ? 0 : old + 1;
    case 0x4: return (old == 0 || old > src) ? src : old - 1;
    case 0x5: return static_cast<S>(src) < static_cast<S>(old) ? src : old;
    case 0x6: return static_cast<S>(src) > static_cast<S>(old) ? src : old;
    case 0x7: return src < old ? src : old;
    case 0x8: return src > old ? src : old;
    case 0x9: return old & src;
    case 0xa: return old | src;
    case 0xb: return old ^ src;
    case 0xd: return src;                      // wrxchg (rtn only)
    case 0x10: return old == cmp ? src : old;  // cmpst: data0 = cmp, data1 = src
    default: return old;
  }
}

}  // namespace

Step exec_ds(Wave& w, const Inst& in, ExecContext& ctx) {
  if (in.glc) return ctx.illegal(in, w.pc, "GDS");
  const unsigned op = in.op;
  const uint64_t exec = w.exec();
  const unsigned data0 = in.vdata, data1 = in.src[1], vdst = in.vdst;
  const uint32_t offset = static_cast<uint32_t>(in.imm) | uint32_t{in.offset1} << 8;
  auto need = [&](unsigned reg, unsigned n) { return w.vgpr_ok(reg, n); };
  if (!need(in.vaddr, 1)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  const uint32_t* addr = w.vrow(in.vaddr);

  // Plain reads and writes.
  struct Rw { unsigned op; unsigned bytes; bool write; bool sign; };
  static constexpr Rw kRw[] = {{0x0d, 4, true, false},  {0x1e, 1, true, false},  {0x1f, 2, true, false},
                               {0x4d, 8, true, false},  {0xde, 12, true, false}, {0xdf, 16, true, false},
                               {0x36, 4, false, false}, {0x39, 1, false, true},  {0x3a, 1, false, false},
                               {0x3b, 2, false, true},  {0x3c, 2, false, false}, {0x76, 8, false, false},
                               {0xfe, 12, false, false}, {0xff, 16, false, false}};
  for (const Rw& rw : kRw) {
    if (rw.op != op) continue;
    const unsigned regs = (rw.bytes + 3) / 4;
    if (!need(rw.write ? data0 : vdst, regs)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec >> l) & 1) == 0) continue;
      const uint64_t a = uint64_t{addr[l]} + offset;
      uint32_t data[4] = {};
      if (rw.write) {
        for (unsigned r = 0; r < regs; ++r) data[r] = w.vrow(data0 + r)[l];
        lds_write(ctx, a, data, rw.bytes);
      } else {
        lds_read(ctx, a, data, rw.bytes);
        if (rw.sign) data[0] = rw.bytes == 1 ? static_cast<uint32_t>(static_cast<int8_t>(data[0]))
                                             : static_cast<uint32_t>(static_cast<int16_t>(data[0]));
        for (unsigned r = 0; r < regs; ++r) w.vrow(vdst + r)[l] = data[r];
      }
    }
    return Step::Next;
  }

  // read2 / write2 (b32, b64; st64 scales the offsets by 64 elements).
  if (op == 0x0e || op == 0x0f || op == 0x4e || op == 0x4f || op == 0x37 || op == 0x38 || op == 0x77 || op == 0x78) {
    const bool wide = op == 0x4e || op == 0x4f || op == 0x77 || op == 0x78;
    const bool st64 = op == 0x0f || op == 0x4f || op == 0x38 || op == 0x78;
    const bool write = op < 0x30 || op == 0x4e || op == 0x4f;
    const unsigned bytes = wide ? 8 : 4, regs = bytes / 4;
    const uint32_t scale = bytes * (st64 ? 64 : 1);
    if (write ? !(need(data0, regs) && need(data1, regs)) : !need(vdst, 2 * regs)) {
      return ctx.illegal(in, w.pc, "out-of-range VGPR in");
    }
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec >> l) & 1) == 0) continue;
      const uint64_t a0 = uint64_t{addr[l]} + static_cast<uint64_t>(in.imm & 0xff) * scale;
      const uint64_t a1 = uint64_t{addr[l]} + uint64_t{in.offset1} * scale;
      uint32_t d0[2] = {}, d1[2] = {};
      if (write) {
        for (unsigned r = 0; r < regs; ++r) { d0[r] = w.vrow(data0 + r)[l]; d1[r] = w.vrow(data1 + r)[l]; }
        lds_write(ctx, a0, d0, bytes);
        lds_write(ctx, a1, d1, bytes);
      } else {
        lds_read(ctx, a0, d0, bytes);
        lds_read(ctx, a1, d1, bytes);
        for (unsigned r = 0; r < regs; ++r) { w.vrow(vdst + r)[l] = d0[r]; w.vrow(vdst + regs + r)[l] = d1[r]; }
      }
    }
    return Step::Next;
  }

  // ds_permute_b32 / ds_bpermute_b32: lanes exchange through the address (lane = addr / 4).
  if (op == 0x3e || op == 0x3f) {
    if (!need(data0, 1) || !need(vdst, 1)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
    uint32_t src[kWaveLanes], out[kWaveLanes];
    std::memcpy(src, w.vrow(data0), sizeof src);
    std::memcpy(out, w.vrow(vdst), sizeof out);
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec >> l) & 1) == 0) continue;
      const unsigned other = ((addr[l] + offset) / 4) % kWaveLanes;
      if (op == 0x3f) out[l] = ((exec >> other) & 1) ? src[other] : 0;  // bpermute: pull
      else out[other] = src[l];                                          // permute: push
    }
    uint32_t* d = w.vrow(vdst);
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec >> l) & 1) != 0) d[l] = out[l];
    }
    return Step::Next;
  }

  // Atomics: 0x00-0x10 (no return), 0x20-0x30 (return); 64-bit at +0x40.
  const bool wide = op >= 0x40 && op < 0x80;
  const unsigned base_op = wide ? op - 0x40 : op;
  const bool rtn = base_op >= 0x20 && base_op <= 0x30;
  const unsigned kind = rtn ? base_op - 0x20 : base_op;
  const bool supported = kind <= 0xb || kind == 0x10 || (kind == 0xd && rtn);
  if (base_op > 0x30 || !supported) return ctx.illegal(in, w.pc, "unimplemented");
  const unsigned regs = wide ? 2 : 1;
  if (!need(data0, regs) || (kind == 0x10 && !need(data1, regs)) || (rtn && !need(vdst, regs))) {
    return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  for (unsigned l = 0; l < kWaveLanes; ++l) {
    if (((exec >> l) & 1) == 0) continue;
    const uint64_t a = uint64_t{addr[l]} + offset;
    auto reg64 = [&](unsigned r) { return uint64_t{w.vrow(r)[l]} | (wide ? uint64_t{w.vrow(r + 1)[l]} << 32 : 0); };
    // cmpst: data0 is the compare value, data1 the new value.
    const uint64_t src = kind == 0x10 ? reg64(data1) : reg64(data0);
    const uint64_t cmp = kind == 0x10 ? reg64(data0) : 0;
    uint64_t old = 0;
    if (wide) {
      lds_read(ctx, a, &old, 8);
      const uint64_t r = ds_atomic<uint64_t>(kind, old, src, cmp);
      lds_write(ctx, a, &r, 8);
    } else {
      uint32_t o32 = 0;
      lds_read(ctx, a, &o32, 4);
      old = o32;
      const uint32_t r = ds_atomic<uint32_t>(kind, o32, static_cast<uint32_t>(src), static_cast<uint32_t>(cmp));
      lds_write(ctx, a, &r, 4);
    }
    if (rtn) {
      w.vrow(vdst)[l] = static_cast<uint32_t>(old);
      if (wide) w.vrow(vdst + 1)[l] = static_cast<uint32_t>(old >> 32);
    }
  }
  return Step::Next;
}

}  // namespace rocref::gpu::isa
