// gpu/isa/vector_operands.h - the 64 lanes of a vector instruction's sources and destination, EXEC applied once.
//
// A source is a VGPR row (read in place) or a scalar/constant broadcast to 64
// lanes; 64-bit sources are gathered into one array. Writes go only to lanes
// EXEC enables (ISA-EXEC-3), so an executor computes every lane and lets
// these helpers mask.
#pragma once

#include <bit>
#include <cstdint>

#include "gpu/isa/exec_context.h"

namespace rocref::gpu::isa {

struct Lanes32 {
  const uint32_t* p = nullptr;
  uint32_t buf[kWaveLanes];
  uint32_t operator[](unsigned l) const { return p[l]; }
};
struct Lanes64 {
  uint64_t v[kWaveLanes];
  uint64_t operator[](unsigned l) const { return v[l]; }
};

// false: the operand names a VGPR past the wave's allocation (illegal).
inline bool read32(const Wave& w, uint16_t code, uint32_t literal, Lanes32& out) {
  if (code >= kVgpr0) {
    if (!w.vgpr_ok(code - kVgpr0)) return false;
    out.p = w.vrow(code - kVgpr0);
    return true;
  }
  const uint32_t value = scalar_read32(w, code, literal);
  for (unsigned l = 0; l < kWaveLanes; ++l) out.buf[l] = value;
  out.p = out.buf;
  return true;
}

inline bool read64(const Wave& w, uint16_t code, uint32_t literal, Lanes64& out, bool fp64) {
  if (code >= kVgpr0) {
    if (!w.vgpr_ok(code - kVgpr0, 2)) return false;
    const uint32_t* lo = w.vrow(code - kVgpr0);
    const uint32_t* hi = lo + kWaveLanes;
    for (unsigned l = 0; l < kWaveLanes; ++l) out.v[l] = uint64_t{lo[l]} | uint64_t{hi[l]} << 32;
    return true;
  }
  const uint64_t value = scalar_read64(w, code, literal, fp64);
  for (unsigned l = 0; l < kWaveLanes; ++l) out.v[l] = value;
  return true;
}

inline float as_f32(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
inline double as_f64(uint64_t bits) { return std::bit_cast<double>(bits); }
inline uint64_t f64_bits(double d) { return std::bit_cast<uint64_t>(d); }

// The EXEC mask an executor honours (the IgnoreExec mutant writes every lane).
inline uint64_t active_lanes(const Wave& w) { return isa_mutant_active(IsaMutant::IgnoreExec) ? ~uint64_t{0} : w.exec(); }

template <typename F>
inline void write_lanes32(Wave& w, unsigned vdst, uint64_t exec, F&& f) {
  uint32_t* d = w.vrow(vdst);
  if (exec == ~uint64_t{0}) {
    for (unsigned l = 0; l < kWaveLanes; ++l) d[l] = f(l);
  } else {
    for (unsigned l = 0; l < kWaveLanes; ++l) {
      if ((exec >> l) & 1) d[l] = f(l);
    }
  }
}

template <typename F>
inline void write_lanes64(Wave& w, unsigned vdst, uint64_t exec, F&& f) {
  uint32_t* lo = w.vrow(vdst);
  uint32_t* hi = lo + kWaveLanes;
  for (unsigned l = 0; l < kWaveLanes; ++l) {
    if ((exec >> l) & 1) {
      const uint64_t v = f(l);
      lo[l] = static_cast<uint32_t>(v);
      hi[l] = static_cast<uint32_t>(v >> 32);
    }
  }
}

// Float executors (vector_float.cpp): Next when `in.op` is one of theirs, else nullopt-like Fault with no fault set.
bool exec_vector_float(Wave& w, const Inst& in, ExecContext& ctx, Step* step);
// f16 executors (vector_half.cpp), same contract.
bool exec_vector_half(Wave& w, const Inst& in, ExecContext& ctx, Step* step);

// SDWA and DPP (vector_sdwa.cpp): whether the base instruction has no extended form the
// model executes, and the base instruction run with operands in the wave's hidden rows.
bool extension_refused(const Inst& in);
Step run_on_hidden_rows(Wave& w, const Inst& inner, ExecContext& ctx);

}  // namespace rocref::gpu::isa
