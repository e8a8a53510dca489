// gpu/isa/scalar_memory.cpp - SMEM: scalar loads and stores through GPU translation.
#include <cstring>

#include "common/model_clock.h"
#include "gpu/isa/exec_context.h"

namespace rocref::gpu::isa {

Step exec_smem(Wave& w, const Inst& in, ExecContext& ctx) {
  uint64_t base = scalar_read64(w, in.saddr, 0);
  auto address = [&]() {
    uint64_t offset = in.smem_imm ? static_cast<uint64_t>(static_cast<int64_t>(in.imm))
                                  : uint64_t{scalar_read32(w, static_cast<uint16_t>(in.imm), 0)};
    if (in.offen) offset += scalar_read32(w, in.soffset, 0);  // SOE: both offsets
    return base + offset;
  };
  auto load = [&](unsigned dwords, bool buffer) {
    if (buffer) base &= (uint64_t{1} << 48) - 1;  // s_buffer_load: the V# base (num_records unchecked)
    const uint64_t va = address() & ~uint64_t{3};
    if (in.sdst + dwords > 128) return ctx.illegal(in, w.pc, "out-of-range destination of");
    const void* p = ctx.map(va, dwords * 4u, Access::Read);
    if (p == nullptr) return ctx.memory_fault(va, "scalar load");
    std::memcpy(&w.s[in.sdst], p, dwords * 4u);
    return Step::Next;
  };
  auto store = [&](unsigned dwords) {
    const uint64_t va = address() & ~uint64_t{3};
    if (in.sdst + dwords > 128) return ctx.illegal(in, w.pc, "out-of-range source of");
    void* p = ctx.map(va, dwords * 4u, Access::Write);
    if (p == nullptr) return ctx.memory_fault(va, "scalar store");
    std::memcpy(p, &w.s[in.sdst], dwords * 4u);
    return Step::Next;
  };
  switch (in.op) {
    case 0: return load(1, false);
    case 1: return load(2, false);
    case 2: return load(4, false);
    case 3: return load(8, false);
    case 4: return load(16, false);
    case 8: return load(1, true);
    case 9: return load(2, true);
    case 10: return load(4, true);
    case 11: return load(8, true);
    case 12: return load(16, true);
    case 16: return store(1);
    case 17: return store(2);
    case 18: return store(4);
    case 32: case 33: case 34: case 35: case 40: case 41:  // dcache inv/wb (vol), discard: no scalar cache modelled
      return Step::Next;
    case 36: case 37: {  // s_memtime / s_memrealtime: the model's GPU clock
      scalar_write64(w, in.sdst, gpu_clock_ticks());
      return Step::Next;
    }
    default:
      return ctx.illegal(in, w.pc, "unimplemented");
  }
}

}  // namespace rocref::gpu::isa
