// gpu/isa/vector_memory.cpp - FLAT, GLOBAL, SCRATCH and MUBUF: per-lane loads, stores and atomics.
//
// FLAT addresses are routed by aperture (ISA-MEM-2): the LDS aperture to the
// work-group's LDS, the private aperture to the wave's scratch (swizzled per
// dword across the 64 lanes, as MUBUF scratch with ADD_TID_ENABLE is, so both
// paths see one private segment), anything else through GPU translation.
// Atomics on global memory are host atomics, so they are atomic against the
// host and other queues too (ISA-MEM-3).
#include <atomic>
#include <cstring>

#include "common/resource_descriptors.h"
#include "gpu/isa/texel_format.h"
#include "gpu/isa/vector_operands.h"

namespace rocref::gpu::isa {

using namespace rocref::rsrc;  // the descriptor layouts (common/resource_descriptors.h)
namespace {

enum class Space : uint8_t { Global, Lds, Private };

struct Target {
  Space space = Space::Global;
  uint64_t address = 0;  // Global: VA; Lds: byte offset; Private: per-lane private offset
  uint64_t dword_stride = 4;  // Global: distance between a lane's consecutive dwords (swizzled buffers)
};

// One translated page per instruction: consecutive lanes mostly touch one page.
struct PageCache {
  uint64_t page = ~uint64_t{0};
  uint8_t* host = nullptr;
  Access access = Access::Read;
};

constexpr uint64_t kPage = 4096;

uint8_t* global_ptr(ExecContext& ctx, PageCache& cache, uint64_t va, unsigned bytes, Access access) {
  const uint64_t page = va / kPage;
  if (page == cache.page && (va + bytes - 1) / kPage == page && (cache.access == access || cache.access == Access::ReadWrite)) {
    return cache.host + (va - page * kPage);
  }
  auto* p = static_cast<uint8_t*>(ctx.map(va, bytes, access));
  if (p == nullptr) return nullptr;
  // Not with the L2 (adversarial mode): each access is its line's, never the page's memory.
  if (ctx.l2 == nullptr && (va + bytes - 1) / kPage == page &&
      !ctx.overlay(page * kPage, kPage)) {  // the exact access translated, so its page is mapped: cache it
    if (auto* whole = static_cast<uint8_t*>(ctx.map(page * kPage, kPage, access)); whole != nullptr) {
      cache.page = page;
      cache.host = whole;
      cache.access = access;
    }
  }
  return p;
}

// Private offset -> scratch address: dword d of lane l lives at base + (d * 64 + l) * 4.
uint64_t swizzle(uint64_t base, uint64_t offset, unsigned lane) {
  return base + (offset / 4) * 4 * kWaveLanes + lane * 4u + offset % 4;
}

// Copies `bytes` between a lane's target and `data`; false on a fault (recorded in ctx).
bool lane_access(ExecContext& ctx, PageCache& cache, const Wave& w, unsigned lane, const Target& t, void* data,
                 unsigned bytes, bool store) {
  auto* d = static_cast<uint8_t*>(data);
  const Access access = store ? Access::Write : Access::Read;
  switch (t.space) {
    case Space::Lds:
      for (unsigned i = 0; i < bytes; ++i) {  // out-of-range LDS reads 0, writes are dropped
        const uint64_t a = t.address + i;
        if (a < ctx.lds.size()) {
          if (store) ctx.lds[a] = d[i];
          else d[i] = ctx.lds[a];
        } else if (!store) {
          d[i] = 0;
        }
      }
      return true;
    case Space::Private: {
      const uint64_t base = scalar_read64(w, kFlatScratchLo, 0);
      for (unsigned i = 0; i < bytes;) {  // a dword at a time: the next dword is 256 bytes further
        const uint64_t off = t.address + i;
        const unsigned chunk = std::min<unsigned>(bytes - i, 4 - static_cast<unsigned>(off % 4));
        const uint64_t va = swizzle(base, off, lane);
        uint8_t* p = global_ptr(ctx, cache, va, chunk, access);
        if (p == nullptr) { ctx.memory_fault(va, "scratch access"); return false; }
        if (store) std::memcpy(p, d + i, chunk);
        else std::memcpy(d + i, p, chunk);
        i += chunk;
      }
      return true;
    }
    case Space::Global: {
      if (t.dword_stride != 4 && bytes > 4) {  // swizzled buffer: one dword at a time
        for (unsigned i = 0; i < bytes; i += 4) {
          const Target part{Space::Global, t.address + (i / 4) * t.dword_stride, 4};
          if (!lane_access(ctx, cache, w, lane, part, d + i, std::min(4u, bytes - i), store)) return false;
        }
        return true;
      }
      uint8_t* p = global_ptr(ctx, cache, t.address, bytes, access);
      if (p == nullptr) { ctx.memory_fault(t.address, store ? "vector store" : "vector load"); return false; }
      if (store) std::memcpy(p, d, bytes);
      else std::memcpy(d, p, bytes);
      return true;
    }
  }
  return false;
}

Target flat_target(uint64_t address) {
  if (address - kSharedApertureBase < kApertureSize) return {Space::Lds, address - kSharedApertureBase};
  if (address - kPrivateApertureBase < kApertureSize) return {Space::Private, address - kPrivateApertureBase};
  return {Space::Global, address};
}

template <typename T>
T atomic_apply(unsigned op, T old, T src, T cmp) {
  using S = std::make_signed_t<T>;
  switch (op & 0x1f) {
    case 0x00: return src;                                   // swap
    case 0x01: return old == cmp ? src : old;                // cmpswap
    case 0x02: return old + src;
    case 0x03: return old - src;
    case 0x04: return static_cast<S>(src) < static_cast<S>(old) ? src : old;
    case 0x05: return src < old ? src : old;
    case 0x06: return static_cast<S>(src) > static_cast<S>(old) ? src : old;
    case 0x07: return src > old ? src : old;
    case 0x08: return old & src;
    case 0x09: return old | src;
    case 0x0a: return old ^ src;
    case 0x0b: return old >= src ? 0 : old + 1;              // inc (wrapping at src)
    default: return (old == 0 || old > src) ? src : old - 1;  // dec
  }
}

// One lane's atomic: a host atomic for global memory, plain for LDS and scratch (one thread owns them).
template <typename T>
bool lane_atomic(ExecContext& ctx, PageCache& cache, const Wave& w, unsigned lane, const Target& t, unsigned op,
                 T src, T cmp, T* old_out) {
  if (t.space != Space::Global) {
    T old;
    if (!lane_access(ctx, cache, w, lane, t, &old, sizeof(T), false)) return false;
    const T result = atomic_apply<T>(op, old, src, cmp);
    if (!lane_access(ctx, cache, w, lane, t, const_cast<T*>(&result), sizeof(T), true)) return false;
    *old_out = old;
    return true;
  }
  if (t.address % sizeof(T) != 0) { ctx.memory_fault(t.address, "misaligned atomic"); return false; }
  uint8_t* p = global_ptr(ctx, cache, t.address, sizeof(T), Access::ReadWrite);
  if (p == nullptr) { ctx.memory_fault(t.address, "atomic"); return false; }
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, atomic_apply<T>(op, old, src, cmp), std::memory_order_seq_cst)) {
  }
  *old_out = old;
  return true;
}

struct MemOp {
  unsigned bytes = 4;     // per lane
  bool load = false, store = false, atomic = false;
  bool sign = false, d16_hi = false, d16 = false;
  // MUBUF buffer_{load,store}_format_*: one texel of the V#'s format, `components` VGPRs (ISA-IMG-2).
  bool format = false;
  unsigned components = 0;
  TexelFormat texel;
  uint32_t dst_sel[4] = {};
  unsigned regs() const { return format ? components : (bytes + 3) / 4; }
};

// Loads 0x10-0x17 and 0x20-0x25, stores 0x18-0x1f, atomics 0x40-0x4c and 0x60-0x6c (FLAT and MUBUF share them).
bool classify(unsigned op, MemOp* m) {
  static constexpr unsigned kSizes[] = {1, 1, 2, 2, 4, 8, 12, 16};
  if (op >= 0x10 && op <= 0x17) { m->load = true; m->bytes = kSizes[op - 0x10]; m->sign = op == 0x11 || op == 0x13; return true; }
  if (op >= 0x18 && op <= 0x1f) {
    m->store = true;
    static constexpr unsigned kStore[] = {1, 1, 2, 2, 4, 8, 12, 16};
    m->bytes = kStore[op - 0x18];
    m->d16_hi = op == 0x19 || op == 0x1b;
    return true;
  }
  if (op >= 0x20 && op <= 0x25) {
    m->load = m->d16 = true;
    m->bytes = op <= 0x23 ? 1 : 2;
    m->sign = op == 0x22 || op == 0x23;
    m->d16_hi = (op & 1) != 0;
    return true;
  }
  if ((op >= 0x40 && op <= 0x4c) || (op >= 0x60 && op <= 0x6c)) { m->atomic = true; m->bytes = op >= 0x60 ? 8 : 4; return true; }
  return false;
}

// Runs a classified memory op over the active lanes; address(l) gives each lane's target.
template <typename AddressFn>
Step run_lanes(Wave& w, const Inst& in, ExecContext& ctx, const MemOp& m, AddressFn&& address) {
  const unsigned data_regs = m.atomic ? (m.bytes / 4) * (((in.op & 0x1f) == 1) ? 2 : 1) : m.regs();
  const unsigned dst_regs = m.atomic ? m.bytes / 4 : m.regs();
  if ((m.store || m.atomic) && !w.vgpr_ok(in.vdata, data_regs)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  if ((m.load || (m.atomic && in.glc)) && !w.vgpr_ok(in.vdst, std::max(1u, dst_regs))) {
    return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  }
  const uint64_t exec = w.exec();
  PageCache cache;
  for (unsigned l = 0; l < kWaveLanes; ++l) {
    if (((exec >> l) & 1) == 0) continue;
    const Target t = address(l);
    if (m.format) {  // a texel: converted through the V#'s data and number formats
      uint32_t comp[4] = {0, 0, 0, 0}, data[4] = {0, 0, 0, 0};
      uint8_t raw[16] = {};
      if (m.store) {
        for (unsigned r = 0; r < m.components; ++r) comp[r] = w.vrow(in.vdata + r)[l];
        pack_texel(m.texel, comp, raw);
        if (!lane_access(ctx, cache, w, l, t, raw, std::min<unsigned>(m.bytes, m.components * m.texel.bits / 8),
                         true)) {
          return Step::Fault;
        }
      } else {
        if (!lane_access(ctx, cache, w, l, t, raw, m.bytes, false)) return Step::Fault;
        unpack_texel(m.texel, raw, data);
        apply_dst_sel(m.texel, data, m.dst_sel, comp);
        for (unsigned r = 0; r < m.components; ++r) w.vrow(in.vdst + r)[l] = comp[r];
      }
    } else if (m.store) {
      uint32_t data[4];
      for (unsigned r = 0; r < data_regs; ++r) data[r] = w.vrow(in.vdata + r)[l];
      if (m.d16_hi) data[0] >>= 16;
      if (!lane_access(ctx, cache, w, l, t, data, m.bytes, true)) return Step::Fault;
    } else if (m.load) {
      uint32_t data[4] = {};
      if (!lane_access(ctx, cache, w, l, t, data, m.bytes, false)) return Step::Fault;
      if (m.bytes < 4) {
        uint32_t v = data[0];
        if (m.sign) v = m.bytes == 1 ? static_cast<uint32_t>(static_cast<int8_t>(v)) : static_cast<uint32_t>(static_cast<int16_t>(v));
        if (m.d16) {
          uint32_t& d = w.vrow(in.vdst)[l];
          d = m.d16_hi ? (d & 0xffffu) | (v << 16) : (d & 0xffff0000u) | (v & 0xffffu);
        } else {
          w.vrow(in.vdst)[l] = v;
        }
      } else {
        for (unsigned r = 0; r < dst_regs; ++r) w.vrow(in.vdst + r)[l] = data[r];
      }
    } else {  // atomic: vdata = src (and cmp after it for cmpswap); glc returns the old value
      if (m.bytes == 4) {
        const uint32_t src = w.vrow(in.vdata)[l];
        const uint32_t cmp = (in.op & 0x1f) == 1 ? w.vrow(in.vdata + 1)[l] : 0;
        uint32_t old;
        if (!lane_atomic<uint32_t>(ctx, cache, w, l, t, in.op, src, cmp, &old)) return Step::Fault;
        if (in.glc) w.vrow(in.vdst)[l] = old;
      } else {
        const uint64_t src = uint64_t{w.vrow(in.vdata)[l]} | uint64_t{w.vrow(in.vdata + 1)[l]} << 32;
        const uint64_t cmp = (in.op & 0x1f) == 1
                                 ? uint64_t{w.vrow(in.vdata + 2)[l]} | uint64_t{w.vrow(in.vdata + 3)[l]} << 32 : 0;
        uint64_t old;
        if (!lane_atomic<uint64_t>(ctx, cache, w, l, t, in.op, src, cmp, &old)) return Step::Fault;
        if (in.glc) {
          w.vrow(in.vdst)[l] = static_cast<uint32_t>(old);
          w.vrow(in.vdst + 1)[l] = static_cast<uint32_t>(old >> 32);
        }
      }
    }
  }
  return Step::Next;
}

}  // namespace

Step exec_flat(Wave& w, const Inst& in, ExecContext& ctx) {
  MemOp m;
  if (!classify(in.op, &m)) return ctx.illegal(in, w.pc, "unimplemented");
  if (m.atomic && in.format == Format::SCRATCH) return ctx.illegal(in, w.pc, "illegal");  // gfx9 has no scratch atomics
  const bool saddr_on = in.saddr != 0x7f;
  const int64_t offset = in.imm;
  switch (in.format) {
    case Format::FLAT: {
      if (!w.vgpr_ok(in.vaddr, 2)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
      const uint32_t* lo = w.vrow(in.vaddr);
      const uint32_t* hi = w.vrow(in.vaddr + 1);
      return run_lanes(w, in, ctx, m, [&](unsigned l) {
        return flat_target((uint64_t{lo[l]} | uint64_t{hi[l]} << 32) + static_cast<uint64_t>(offset));
      });
    }
    case Format::GLOBAL: {
      if (!w.vgpr_ok(in.vaddr, saddr_on ? 1 : 2)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
      const uint32_t* lo = w.vrow(in.vaddr);
      if (saddr_on) {
        const uint64_t base = scalar_read64(w, in.saddr, 0);
        return run_lanes(w, in, ctx, m, [&](unsigned l) {
          return Target{Space::Global, base + lo[l] + static_cast<uint64_t>(offset)};
        });
      }
      const uint32_t* hi = w.vrow(in.vaddr + 1);
      return run_lanes(w, in, ctx, m, [&](unsigned l) {
        return Target{Space::Global, (uint64_t{lo[l]} | uint64_t{hi[l]} << 32) + static_cast<uint64_t>(offset)};
      });
    }
    case Format::SCRATCH: {
      if (saddr_on) {
        const uint32_t base = scalar_read32(w, in.saddr, 0);
        return run_lanes(w, in, ctx, m, [&](unsigned) {
          return Target{Space::Private, static_cast<uint32_t>(base + offset)};
        });
      }
      if (!w.vgpr_ok(in.vaddr)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
      const uint32_t* lo = w.vrow(in.vaddr);
      return run_lanes(w, in, ctx, m, [&](unsigned l) {
        return Target{Space::Private, static_cast<uint32_t>(lo[l] + offset)};
      });
    }
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
}

// MUBUF: the buffer resource (V#) in four SGPRs; swizzled buffers interleave
// elements across index_stride lanes (ROCR's and our scratch V#: element 4
// bytes, index stride 64, ADD_TID_ENABLE).
Step exec_mubuf(Wave& w, const Inst& in, ExecContext& ctx) {
  if (in.op == 0x3e || in.op == 0x3f) return Step::Next;  // buffer_wbinvl1(_vol): no L1 modelled
  MemOp m;
  const bool format_op = in.op < 0x08;  // buffer_load_format_x..xyzw 0-3, buffer_store_format_x..xyzw 4-7
  if (!format_op && !classify(in.op, &m)) return ctx.illegal(in, w.pc, "unimplemented");
  if (in.saddr + 4 > 128) return ctx.illegal(in, w.pc, "out-of-range V# in");
  const uint32_t* v = &w.s[in.saddr];
  if (format_op) {
    if (w.exec() == 0) return Step::Next;  // nothing read: the V#'s format is not looked at
    m.format = true;
    m.load = in.op < 4;
    m.store = !m.load;
    m.components = (in.op & 3) + 1;
    if (!texel_format(vsharp::kDataFormat.get(v), vsharp::kNumFormat.get(v), &m.texel) ||
        vsharp::kSwizzleEnable.get(v) != 0) {
      return ctx.illegal(in, w.pc, "unimplemented (V# format or swizzle of)");
    }
    m.bytes = m.texel.bytes;
    const DescField sels[4] = {vsharp::kDstSelX, vsharp::kDstSelY, vsharp::kDstSelZ, vsharp::kDstSelW};
    for (unsigned c = 0; c < 4; ++c) m.dst_sel[c] = sels[c].get(v);
  }
  const uint64_t base = uint64_t{v[0]} | uint64_t{v[1] & 0xffff} << 32;
  const uint32_t stride = (v[1] >> 16) & 0x3fff;
  const bool swizzled = (v[1] >> 31) != 0;
  const uint32_t num_records = v[2];
  const uint32_t element = 2u << ((v[3] >> 19) & 3);
  const uint32_t index_stride = 8u << ((v[3] >> 21) & 3);
  const bool add_tid = ((v[3] >> 23) & 1) != 0;
  const uint32_t soffset = scalar_read32(w, in.soffset, 0);
  const unsigned vregs = (in.offen ? 1 : 0) + (in.idxen ? 1 : 0);
  if (vregs > 0 && !w.vgpr_ok(in.vaddr, vregs)) return ctx.illegal(in, w.pc, "out-of-range VGPR in");
  bool out_of_range_any = false;
  // Out-of-range lanes of an unswizzled buffer read 0 and drop writes: run them through a null target.
  const uint64_t exec_saved = w.exec();
  uint64_t in_range = exec_saved;
  auto lane_index_offset = [&](unsigned l, uint64_t* index, uint64_t* offset) {
    *index = in.idxen ? w.vrow(in.vaddr)[l] : 0;
    *offset = (in.offen ? w.vrow(in.vaddr + (in.idxen ? 1 : 0))[l] : 0) + static_cast<uint32_t>(in.imm);
    if (add_tid) *index += l;
  };
  if (!swizzled) {
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec_saved >> l) & 1) == 0) continue;
      uint64_t index, offset;
      lane_index_offset(l, &index, &offset);
      const bool oob = stride == 0 ? offset + m.bytes > num_records : index >= num_records;
      if (oob) {
        in_range &= ~(uint64_t{1} << l);
        out_of_range_any = true;
      }
    }
  }
  if (out_of_range_any && m.load) {  // zero the destination of out-of-range lanes
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if (((exec_saved & ~in_range) >> l) & 1) {
        for (unsigned r = 0; r < m.regs() && w.vgpr_ok(in.vdst + r); ++r) w.vrow(in.vdst + r)[l] = 0;
      }
    }
  }
  w.set_exec(in_range);
  const Step step = run_lanes(w, in, ctx, m, [&](unsigned l) {
    uint64_t index, offset;
    lane_index_offset(l, &index, &offset);
    if (!swizzled) return Target{Space::Global, base + soffset + offset + uint64_t{stride} * index};
    // Swizzled: element-granular interleave; private scratch buffers keep one layout with FLAT scratch.
    const uint64_t a = base + soffset + (index / index_stride) * stride * index_stride +
                       (offset / element) * element * index_stride + (index % index_stride) * element + offset % element;
    return Target{Space::Global, a, element == 4 ? uint64_t{4} * index_stride : 4};
  });
  w.set_exec(exec_saved);
  return step;
}

}  // namespace rocref::gpu::isa
