// tests/unit/isa/isa_extension_test.cpp - VOP3P, SDWA, DPP and f16 instructions assembled by llvm-mc-15, run by the
// interpreter on random inputs, against reference values computed here on the host.
//
// Each case is one instruction in a fixed harness (load v1-v4 per lane and
// EXEC, VCC and s10 from the kernarg; run the instruction; store v4 and the
// VCC bit of each lane). The references are written from the Vega ISA manual
// independently of src/gpu/isa: integers exactly, f16 exactly (the exact
// result in __float128, rounded once to binary16). ISA-EXEC-6..9; the planted
// bugs of isa_mutant.h for them must make a case fail.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpu/isa/dispatch.h"
#include "gpu/isa/isa_mutant.h"
#include "gpu/isa/kernel_descriptor.h"

namespace rocref::gpu::isa {
namespace {

constexpr unsigned kLanes = 64;
using Row = std::array<uint32_t, kLanes>;

struct Inputs {
  Row a{}, b{}, c{}, d{};  // v1, v2, v3 and the old v4
  uint64_t exec = ~uint64_t{0};
  uint64_t vcc = 0;
  uint32_t s10 = 0;
};
struct Outputs {
  Row d{};
  uint64_t vcc = 0;
  bool operator==(const Outputs&) const = default;
};

// --- llvm-mc-15 as the assembler ---

// The encodings of `lines`, one instruction per line, from one llvm-mc run (it starts slowly).
std::vector<std::vector<uint32_t>> assemble_lines(const std::vector<std::string>& lines) {
  char path[] = "/tmp/rocref_isa_asm_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  FILE* f = fdopen(fd, "w");
  for (const std::string& line : lines) std::fprintf(f, "%s\n", line.c_str());
  std::fclose(f);
  const std::string command = std::string(ROCREF_LLVM_MC) + " -arch=amdgcn -mcpu=gfx900 -show-encoding " + path + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  std::vector<std::vector<uint32_t>> out;
  std::string all;
  char buf[4096];
  while (p != nullptr && std::fgets(buf, sizeof buf, p) != nullptr) {
    const std::string line = buf;
    all += line;
    const size_t at = line.find("encoding: [");
    if (at == std::string::npos) continue;
    std::vector<uint8_t> bytes;
    for (size_t x = line.find("0x", at); x != std::string::npos; x = line.find("0x", x + 2)) {
      bytes.push_back(static_cast<uint8_t>(std::stoul(line.substr(x + 2, 2), nullptr, 16)));
    }
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    out.push_back(std::move(words));
  }
  const int status = p != nullptr ? pclose(p) : -1;
  std::remove(path);
  if (status != 0 || out.size() != lines.size() || all.find("error") != std::string::npos) {
    ADD_FAILURE() << "llvm-mc: " << all;
    return {};
  }
  return out;
}

std::vector<uint32_t> assemble(const std::string& line) {
  const auto words = assemble_lines({line});
  return words.empty() ? std::vector<uint32_t>{} : words[0];
}

// The harness around one instruction: v1-v4 per lane, EXEC, VCC and s10 from the kernarg in;
// v4 and each lane's VCC bit out.
const std::vector<std::string> kPrologue = {
    "s_load_dwordx4 s[4:7], s[0:1], 0x0",   // in, out
    "s_load_dwordx4 s[8:11], s[0:1], 0x10",  // exec, s10
    "s_load_dwordx2 s[14:15], s[0:1], 0x20",  // vcc
    "s_waitcnt lgkmcnt(0)",
    "v_lshlrev_b32 v10, 4, v0",
    "global_load_dwordx4 v[1:4], v10, s[4:5]",
    "s_waitcnt vmcnt(0)",
    "s_mov_b64 vcc, s[14:15]",
    "s_mov_b64 exec, s[8:9]"};
const std::vector<std::string> kEpilogue = {
    "s_mov_b64 s[12:13], vcc", "s_mov_b64 exec, -1", "v_cndmask_b32_e64 v5, 0, 1, s[12:13]",
    "v_lshlrev_b32 v11, 3, v0", "global_store_dwordx2 v11, v[4:5], s[6:7]", "s_endpgm"};

struct Case {
  const char* text;
  bool floats;
  std::function<Outputs(const Inputs&)> expect;
};
const std::vector<Case>& packed_cases();
const std::vector<Case>& sdwa_cases();
const std::vector<Case>& dpp_cases();
const std::vector<Case>& half_cases();
const std::vector<Case>& cndmask_cases();

// The harnessed code of `instruction`: every case's instruction is assembled in one run, once.
std::vector<uint32_t> harnessed(const std::string& instruction) {
  static std::map<std::string, std::vector<uint32_t>> cache;
  static std::vector<uint32_t> prologue, epilogue;
  if (cache.empty()) {
    std::vector<std::string> lines = kPrologue;
    lines.insert(lines.end(), kEpilogue.begin(), kEpilogue.end());
    for (const auto* cases : {&packed_cases(), &sdwa_cases(), &dpp_cases(), &half_cases(), &cndmask_cases()}) {
      for (const auto& k : *cases) lines.push_back(k.text);
    }
    const auto words = assemble_lines(lines);
    if (words.empty()) return {};
    for (size_t i = 0; i < lines.size(); ++i) {
      auto& into = i < kPrologue.size() ? prologue : i < kPrologue.size() + kEpilogue.size() ? epilogue : cache[lines[i]];
      into.insert(into.end(), words[i].begin(), words[i].end());
    }
  }
  const auto it = cache.find(instruction);
  if (it == cache.end()) return {};
  std::vector<uint32_t> code = prologue;
  code.insert(code.end(), it->second.begin(), it->second.end());
  code.insert(code.end(), epilogue.begin(), epilogue.end());
  return code;
}

// --- one wave of 64 lanes on the interpreter ---

struct Range { uint64_t lo, hi; };
class Memory final : public MemoryAccess {
 public:
  std::vector<Range> ranges;
  void* translate(uint64_t va, size_t size, Access) noexcept override {
    for (const Range& r : ranges) {
      if (va >= r.lo && va + size <= r.hi) return reinterpret_cast<void*>(static_cast<uintptr_t>(va));
    }
    return nullptr;
  }
  template <typename T>
  void allow(const T* p, size_t bytes) { ranges.push_back({reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + bytes}); }
};

struct RunResult {
  std::optional<PacketFault> fault;
  Outputs out;
};

RunResult run(const std::vector<uint32_t>& code, const Inputs& in) {
  alignas(256) static uint8_t object[256 + 4096];
  std::memset(object, 0, sizeof object);
  KernelDescriptor kd{};
  kd.kernel_code_entry_byte_offset = 256;
  kd.compute_pgm_rsrc1 = 3u | (1u << 6) | (3u << 18) | (1u << 21) | (1u << 23);  // 16 VGPRs, 32 SGPRs
  kd.compute_pgm_rsrc2 = 2u << 1;                                                  // s[0:1]: kernarg pointer
  kd.kernel_code_properties = kEnableKernargSegmentPtr;
  std::memcpy(object, &kd, sizeof kd);
  std::memcpy(object + 256, code.data(), std::min(code.size() * 4, size_t{4096}));
  std::vector<uint32_t> src(kLanes * 4);
  for (unsigned l = 0; l < kLanes; ++l) {
    src[4 * l] = in.a[l]; src[4 * l + 1] = in.b[l]; src[4 * l + 2] = in.c[l]; src[4 * l + 3] = in.d[l];
  }
  std::vector<uint32_t> dst(kLanes * 2, 0xdeadbeefu);
  alignas(64) struct {
    uint64_t src, dst, exec;
    uint32_t s10, pad;
    uint64_t vcc;
  } args{reinterpret_cast<uintptr_t>(src.data()), reinterpret_cast<uintptr_t>(dst.data()), in.exec, in.s10, 0, in.vcc};
  Memory memory;
  memory.allow(object, sizeof object);
  memory.allow(src.data(), src.size() * 4);
  memory.allow(dst.data(), dst.size() * 4);
  memory.allow(&args, sizeof args);
  hsa_kernel_dispatch_packet_t p{};
  p.header = HSA_PACKET_TYPE_KERNEL_DISPATCH;
  p.setup = 1;
  p.workgroup_size_x = kLanes;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = kLanes;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = reinterpret_cast<uintptr_t>(object);
  p.kernarg_address = &args;
  RunResult r;
  const IsaDispatch d{&p, reinterpret_cast<uintptr_t>(&p), 0, 1, &memory};
  r.fault = run_isa_dispatch(d, nullptr);
  for (unsigned l = 0; l < kLanes; ++l) {
    r.out.d[l] = dst[2 * l];
    r.out.vcc |= uint64_t{dst[2 * l + 1] & 1} << l;
  }
  return r;
}

// --- reference arithmetic ---

using Half = _Float16;
double hv(uint32_t bits) { return static_cast<double>(std::bit_cast<Half>(static_cast<uint16_t>(bits))); }
uint16_t hround(__float128 exact) { return std::bit_cast<uint16_t>(static_cast<Half>(exact)); }
__float128 q(uint16_t h) { return static_cast<__float128>(hv(h)); }
uint16_t lo16(uint32_t v) { return static_cast<uint16_t>(v); }
uint16_t hi16(uint32_t v) { return static_cast<uint16_t>(v >> 16); }
uint32_t pack(uint16_t lo, uint16_t hi) { return uint32_t{lo} | uint32_t{hi} << 16; }
uint16_t hneg(uint16_t h) { return h ^ 0x8000; }
uint16_t hclamp(uint16_t h) {
  const double v = hv(h);
  if (v <= 0.0) return 0;  // -0 clamps to +0
  return v >= 1.0 ? 0x3c00 : h;
}
float f32(uint32_t v) { return std::bit_cast<float>(v); }
uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// Per-lane reference: writes lanes EXEC enables, keeps the others (d), VCC unchanged unless the case sets it.
using LaneFn = std::function<uint32_t(const Inputs&, unsigned)>;
Outputs per_lane(const Inputs& in, const LaneFn& f) {
  Outputs o{in.d, in.vcc};
  for (unsigned l = 0; l < kLanes; ++l) {
    if ((in.exec >> l) & 1) o.d[l] = f(in, l);
  }
  return o;
}

// --- input generators ---

// Two finite binary16 values (no inf/NaN) per dword; as f32 the dword is finite too.
rc::Gen<uint32_t> finite_halves() {
  auto half = rc::gen::map(rc::gen::pair(rc::gen::inRange<uint32_t>(0, 31), rc::gen::inRange<uint32_t>(0, 0x800)),
                           [](std::pair<uint32_t, uint32_t> p) { return (p.second & 0x400) << 5 | p.first << 10 | (p.second & 0x3ff); });
  return rc::gen::map(rc::gen::pair(half, half), [](std::pair<uint32_t, uint32_t> p) { return p.first | p.second << 16; });
}
rc::Gen<uint32_t> any_bits() {
  return rc::gen::oneOf(rc::gen::arbitrary<uint32_t>(), rc::gen::inRange<uint32_t>(0, 300),
                        rc::gen::map(rc::gen::arbitrary<uint16_t>(), [](uint16_t v) { return uint32_t{v} * 0x10001u; }));
}
Row row(const rc::Gen<uint32_t>& g) {
  const auto v = *rc::gen::container<std::vector<uint32_t>>(kLanes, g);
  Row r;
  std::copy(v.begin(), v.end(), r.begin());
  return r;
}
Inputs inputs(bool floats) {
  Inputs in;
  const auto g = floats ? finite_halves() : any_bits();
  in.a = row(g); in.b = row(g); in.c = row(g); in.d = row(any_bits());
  in.exec = *rc::gen::oneOf(rc::gen::just(~uint64_t{0}), rc::gen::arbitrary<uint64_t>());
  in.vcc = *rc::gen::arbitrary<uint64_t>();
  in.s10 = *any_bits();
  return in;
}


bool agrees(const Case& k, const Inputs& in, std::string* why = nullptr) {
  const std::vector<uint32_t> code = harnessed(k.text);
  if (code.empty()) return false;
  const RunResult r = run(code, in);
  if (r.fault) {
    if (why) *why = r.fault->what;
    return false;
  }
  const Outputs e = k.expect(in);
  for (unsigned l = 0; l < kLanes && why; ++l) {
    if (r.out.d[l] != e.d[l]) {
      char text[160];
      std::snprintf(text, sizeof text, "lane %u: got 0x%08x want 0x%08x (a=0x%08x b=0x%08x c=0x%08x)", l, r.out.d[l], e.d[l],
                    in.a[l], in.b[l], in.c[l]);
      *why = text;
      break;
    }
  }
  if (why && r.out.vcc != e.vcc) *why += " vcc differs";
  return r.out == e;
}

// --- VOP3P ---

uint32_t pk_int(uint32_t a, uint32_t b, uint32_t c, unsigned sel, unsigned sel_hi,
                const std::function<uint16_t(uint16_t, uint16_t, uint16_t)>& f) {
  auto pick = [](uint32_t v, bool hi) { return hi ? hi16(v) : lo16(v); };
  const uint16_t lo = f(pick(a, sel & 1), pick(b, sel & 2), pick(c, sel & 4));
  const uint16_t hi = f(pick(a, sel_hi & 1), pick(b, sel_hi & 2), pick(c, sel_hi & 4));
  return pack(lo, hi);
}
int16_t s16(uint16_t v) { return static_cast<int16_t>(v); }
uint16_t sat_s16(int64_t v) { return static_cast<uint16_t>(std::clamp<int64_t>(v, INT16_MIN, INT16_MAX)); }
uint16_t sat_u16(int64_t v) { return static_cast<uint16_t>(std::clamp<int64_t>(v, 0, UINT16_MAX)); }

Case pk_case(const char* text, bool floats, unsigned sel, unsigned sel_hi, std::function<uint16_t(uint16_t, uint16_t, uint16_t)> f) {
  return Case{text, floats, [=](const Inputs& in) {
                return per_lane(in, [&](const Inputs& i, unsigned l) { return pk_int(i.a[l], i.b[l], i.c[l], sel, sel_hi, f); });
              }};
}

const std::vector<Case>& packed_cases() {
  static const std::vector<Case> cases = {
      pk_case("v_pk_add_f16 v4, v1, v2", true, 0, 7, [](uint16_t a, uint16_t b, uint16_t) { return hround(q(a) + q(b)); }),
      pk_case("v_pk_mul_f16 v4, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", true, 1, 2,
              [](uint16_t a, uint16_t b, uint16_t) { return hround(q(a) * q(b)); }),
      pk_case("v_pk_fma_f16 v4, v1, v2, v3", true, 0, 7,
              [](uint16_t a, uint16_t b, uint16_t c) { return hround(q(a) * q(b) + q(c)); }),
      pk_case("v_pk_fma_f16 v4, v1, v2, v3 clamp", true, 0, 7,
              [](uint16_t a, uint16_t b, uint16_t c) { return hclamp(hround(q(a) * q(b) + q(c))); }),
      pk_case("v_pk_max_f16 v4, v1, v2", true, 0, 7,
              [](uint16_t a, uint16_t b, uint16_t) { return hv(a) == hv(b) ? (a & 0x8000 ? b : a) : (hv(a) > hv(b) ? a : b); }),
      pk_case("v_pk_min_f16 v4, v1, v2 op_sel_hi:[1,0]", true, 0, 1,
              [](uint16_t a, uint16_t b, uint16_t) { return hv(a) == hv(b) ? (a & 0x8000 ? a : b) : (hv(a) < hv(b) ? a : b); }),
      pk_case("v_pk_add_f16 v4, v1, 1.0 op_sel_hi:[1,0]", true, 0, 1,
              [](uint16_t a, uint16_t, uint16_t) { return hround(q(a) + 1); }),
      pk_case("v_pk_mad_u16 v4, v1, v2, v3", false, 0, 7,
              [](uint16_t a, uint16_t b, uint16_t c) { return static_cast<uint16_t>(a * b + c); }),
      pk_case("v_pk_mad_i16 v4, v1, v2, v3 clamp", false, 0, 7,
              [](uint16_t a, uint16_t b, uint16_t c) { return sat_s16(int64_t{s16(a)} * s16(b) + s16(c)); }),
      pk_case("v_pk_add_u16 v4, v1, v2 clamp", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return sat_u16(int64_t{a} + b); }),
      pk_case("v_pk_sub_u16 v4, v1, v2 op_sel:[0,1]", false, 2, 3,
              [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(a - b); }),
      pk_case("v_pk_add_i16 v4, v1, v2", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(a + b); }),
      pk_case("v_pk_sub_i16 v4, v1, v2 clamp", false, 0, 3,
              [](uint16_t a, uint16_t b, uint16_t) { return sat_s16(int64_t{s16(a)} - s16(b)); }),
      pk_case("v_pk_mul_lo_u16 v4, v1, v2 op_sel_hi:[0,1]", false, 0, 2,
              [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(a * b); }),
      pk_case("v_pk_lshlrev_b16 v4, v1, v2", false, 0, 3,
              [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(b << (a % 16)); }),
      pk_case("v_pk_lshrrev_b16 v4, v1, v2", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(b >> (a % 16)); }),
      pk_case("v_pk_ashrrev_i16 v4, v1, v2 op_sel:[1,0]", false, 1, 3,
              [](uint16_t a, uint16_t b, uint16_t) { return static_cast<uint16_t>(s16(b) >> (a % 16)); }),
      pk_case("v_pk_max_i16 v4, v1, v2", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return s16(a) > s16(b) ? a : b; }),
      pk_case("v_pk_min_i16 v4, v1, v2", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return s16(a) < s16(b) ? a : b; }),
      pk_case("v_pk_max_u16 v4, v1, v2", false, 0, 3, [](uint16_t a, uint16_t b, uint16_t) { return a > b ? a : b; }),
      pk_case("v_pk_min_u16 v4, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]", false, 3, 0,
              [](uint16_t a, uint16_t b, uint16_t) { return a < b ? a : b; }),
      // neg_lo / neg_hi negate the f16 inputs of each half: hipcc's __hsub2.
      Case{"v_pk_add_f16 v4, v1, v2 neg_lo:[0,1] neg_hi:[0,1]", true,
           [](const Inputs& in) {
             return per_lane(in, [](const Inputs& i, unsigned l) {
               return pack(hround(q(lo16(i.a[l])) - q(lo16(i.b[l]))), hround(q(hi16(i.a[l])) - q(hi16(i.b[l]))));
             });
           }},
      Case{"v_pk_fma_f16 v4, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,0] neg_lo:[1,0,0] neg_hi:[0,0,1]", true,
           [](const Inputs& in) {
             return per_lane(in, [](const Inputs& i, unsigned l) {
               const uint16_t lo = hround(q(hneg(hi16(i.a[l]))) * q(lo16(i.b[l])) + q(hi16(i.c[l])));
               const uint16_t hi = hround(q(lo16(i.a[l])) * q(hi16(i.b[l])) + q(hneg(lo16(i.c[l]))));
               return pack(lo, hi);
             });
           }},
      // v_mad_mix*: op_sel_hi[i] marks source i as f16 (the half op_sel[i] picks), else f32; unfused.
      Case{"v_mad_mix_f32 v4, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]", true,
           [](const Inputs& in) {
             return per_lane(in, [](const Inputs& i, unsigned l) {
               const float p = static_cast<float>(hv(hi16(i.a[l]))) * static_cast<float>(hv(lo16(i.b[l])));
               return bits(p + f32(i.c[l]));
             });
           }},
      Case{"v_mad_mixlo_f16 v4, v1, -v2, v3 op_sel_hi:[1,1,1]", true,
           [](const Inputs& in) {
             return per_lane(in, [](const Inputs& i, unsigned l) {
               const float p = static_cast<float>(hv(lo16(i.a[l]))) * -static_cast<float>(hv(lo16(i.b[l])));
               const float r = p + static_cast<float>(hv(lo16(i.c[l])));
               return (i.d[l] & 0xffff0000u) | std::bit_cast<uint16_t>(static_cast<Half>(r));
             });
           }},
      Case{"v_mad_mixhi_f16 v4, v1, v2, v3 op_sel:[0,1,0] op_sel_hi:[1,1,0] clamp", true,
           [](const Inputs& in) {
             return per_lane(in, [](const Inputs& i, unsigned l) {
               const float p = static_cast<float>(hv(lo16(i.a[l]))) * static_cast<float>(hv(hi16(i.b[l])));
               float r = p + f32(i.c[l]);
               r = r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r);
               return (i.d[l] & 0xffffu) | uint32_t{std::bit_cast<uint16_t>(static_cast<Half>(r))} << 16;
             });
           }},
  };
  return cases;
}

// --- SDWA ---

// The Vega manual's SDWA selects: 0-3 bytes, 4-5 words, 6 the dword; sext sign-extends the selection.
uint32_t sel(uint32_t v, unsigned s, bool sext) {
  if (s == 6) return v;
  const unsigned width = s < 4 ? 8 : 16, pos = s < 4 ? 8 * s : 16 * (s - 4);
  const uint32_t field = (v >> pos) & ((1u << width) - 1);
  const bool neg = sext && ((field >> (width - 1)) & 1);
  return neg ? field | (~0u << width) : field;
}
// dst_sel s, dst_unused u (0 pad, 1 sext, 2 preserve).
uint32_t put(uint32_t r, uint32_t old, unsigned s, unsigned u) {
  if (s == 6) return r;
  const unsigned width = s < 4 ? 8 : 16, pos = s < 4 ? 8 * s : 16 * (s - 4);
  const uint32_t field = r & ((1u << width) - 1);
  uint32_t out = field << pos;
  if (u == 2) out |= old & ~(((1u << width) - 1) << pos);
  if (u == 1 && ((field >> (width - 1)) & 1) && pos + width < 32) out |= ~0u << (pos + width);
  return out;
}

Case sdwa_case(const char* text, bool floats, std::function<uint32_t(const Inputs&, unsigned)> f) {
  return Case{text, floats, [=](const Inputs& in) { return per_lane(in, f); }};
}

const std::vector<Case>& sdwa_cases() {
  static const std::vector<Case> cases = {
      sdwa_case("v_mov_b32_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_3", false,
                [](const Inputs& i, unsigned l) { return sel(i.a[l], 3, false); }),
      sdwa_case("v_mov_b32_sdwa v4, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1", false,
                [](const Inputs& i, unsigned l) { return sel(i.a[l], 1, true); }),
      sdwa_case("v_mov_b32_sdwa v4, sext(v1) dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1", false,
                [](const Inputs& i, unsigned l) { return put(sel(i.a[l], 5, true), i.d[l], 5, 2); }),
      sdwa_case("v_add_u32_sdwa v4, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_2", false,
                [](const Inputs& i, unsigned l) { return put(sel(i.a[l], 5, false) + sel(i.b[l], 2, false), i.d[l], 1, 2); }),
      sdwa_case("v_add_u32_sdwa v4, sext(v1), v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_0", false,
                [](const Inputs& i, unsigned l) { return put(sel(i.a[l], 0, true) + sel(i.b[l], 4, false), i.d[l], 4, 1); }),
      sdwa_case("v_sub_u32_sdwa v4, v1, sext(v2) dst_sel:BYTE_2 dst_unused:UNUSED_SEXT src0_sel:DWORD src1_sel:BYTE_1", false,
                [](const Inputs& i, unsigned l) { return put(i.a[l] - sel(i.b[l], 1, true), i.d[l], 2, 1); }),
      sdwa_case("v_xor_b32_sdwa v4, v1, v2 dst_sel:BYTE_3 dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD", false,
                [](const Inputs& i, unsigned l) { return put(sel(i.a[l], 2, false) ^ i.b[l], i.d[l], 3, 0); }),
      sdwa_case("v_mul_u32_u24_sdwa v4, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD", false,
                [](const Inputs& i, unsigned l) { return sel(i.a[l], 5, false) * (i.b[l] & 0xffffff); }),
      sdwa_case("v_add_u32_sdwa v4, s10, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1", false,
                [](const Inputs& i, unsigned l) { return sel(i.s10, 1, false) + sel(i.b[l], 5, false); }),
      sdwa_case("v_add_f32_sdwa v4, -v1, |v2| clamp dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD", true,
                [](const Inputs& i, unsigned l) {
                  const float r = -f32(i.a[l]) + std::fabs(f32(i.b[l]));
                  return bits(r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r));
                }),
      // VOPC: the compare of the selected, extended values; lanes EXEC disables read 0.
      Case{"v_cmp_gt_i32_sdwa vcc, sext(v1), v2 src0_sel:BYTE_1 src1_sel:WORD_0", false,
           [](const Inputs& in) {
             Outputs o{in.d, 0};
             for (unsigned l = 0; l < kLanes; ++l) {
               const bool gt = static_cast<int32_t>(sel(in.a[l], 1, true)) > static_cast<int32_t>(sel(in.b[l], 4, false));
               if (((in.exec >> l) & 1) && gt) o.vcc |= uint64_t{1} << l;
             }
             return o;
           }},
  };
  return cases;
}

// --- DPP ---

// The lane lane `l` reads under a control, or -1 (out of its row / the wave). Written per the manual's table.
using LaneMap = std::function<int(unsigned)>;
LaneMap quad_perm(std::array<unsigned, 4> p) { return [=](unsigned l) { return static_cast<int>(l / 4 * 4 + p[l % 4]); }; }
LaneMap row_shl(unsigned n) { return [=](unsigned l) { return l % 16 + n <= 15 ? static_cast<int>(l + n) : -1; }; }
LaneMap row_shr(unsigned n) { return [=](unsigned l) { return l % 16 >= n ? static_cast<int>(l - n) : -1; }; }
LaneMap row_ror(unsigned n) { return [=](unsigned l) { return static_cast<int>(l / 16 * 16 + (l % 16 + 16 - n) % 16); }; }

struct DppCase {
  const char* text;
  LaneMap from;
  unsigned row_mask, bank_mask;
  bool bound_ctrl;
  std::function<uint32_t(uint32_t src0, uint32_t b)> op;
};

Case dpp_case(DppCase k) {
  return Case{k.text, true, [k](const Inputs& in) {
                Outputs o{in.d, in.vcc};
                for (unsigned l = 0; l < kLanes; ++l) {
                  if (!((in.exec >> l) & 1) || !((k.row_mask >> (l / 16)) & 1) || !((k.bank_mask >> (l % 16 / 4)) & 1)) continue;
                  const int s = k.from(l);
                  const bool valid = s >= 0 && ((in.exec >> s) & 1);
                  if (!valid && !k.bound_ctrl) continue;  // not written
                  o.d[l] = k.op(valid ? in.a[static_cast<unsigned>(s)] : 0u, in.b[l]);
                }
                return o;
              }};
}

uint32_t mov(uint32_t a, uint32_t) { return a; }
uint32_t add(uint32_t a, uint32_t b) { return a + b; }

const std::vector<Case>& dpp_cases() {
  static const std::vector<Case> cases = {
      dpp_case({"v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", quad_perm({1, 0, 3, 2}), 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 quad_perm:[3,3,0,1] row_mask:0xf bank_mask:0xf", quad_perm({3, 3, 0, 1}), 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_shl:1 row_mask:0xf bank_mask:0xf", row_shl(1), 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_shl:13 row_mask:0xf bank_mask:0xf bound_ctrl:0", row_shl(13), 15, 15, true, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_shr:3 row_mask:0xf bank_mask:0xf", row_shr(3), 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_shr:15 row_mask:0x5 bank_mask:0x9 bound_ctrl:0", row_shr(15), 5, 9, true, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_ror:7 row_mask:0xf bank_mask:0xf", row_ror(7), 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 wave_shl:1 row_mask:0xf bank_mask:0xf", [](unsigned l) { return l < 63 ? static_cast<int>(l + 1) : -1; }, 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 wave_rol:1 row_mask:0xf bank_mask:0xf", [](unsigned l) { return static_cast<int>((l + 1) % 64); }, 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0", [](unsigned l) { return static_cast<int>(l) - 1; }, 15, 15, true, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 wave_ror:1 row_mask:0xf bank_mask:0xf", [](unsigned l) { return static_cast<int>((l + 63) % 64); }, 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_mirror row_mask:0xf bank_mask:0xf", [](unsigned l) { return static_cast<int>(l / 16 * 16 + 15 - l % 16); }, 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_half_mirror row_mask:0xf bank_mask:0xf", [](unsigned l) { return static_cast<int>(l / 8 * 8 + 7 - l % 8); }, 15, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_bcast:15 row_mask:0xa bank_mask:0xf", [](unsigned l) { return l >= 16 ? static_cast<int>(l / 16 * 16 - 1) : -1; }, 10, 15, false, mov}),
      dpp_case({"v_mov_b32_dpp v4, v1 row_bcast:31 row_mask:0xc bank_mask:0xf", [](unsigned l) { return l >= 32 ? 31 : -1; }, 12, 15, false, mov}),
      // A scan step as compilers emit it: lane i adds lane i - 1 of its row.
      dpp_case({"v_add_u32_dpp v4, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0", row_shr(1), 15, 15, true, add}),
      dpp_case({"v_add_f32_dpp v4, -v1, |v2| row_half_mirror row_mask:0xf bank_mask:0xf", [](unsigned l) { return static_cast<int>(l / 8 * 8 + 7 - l % 8); }, 15, 15, false,
                [](uint32_t a, uint32_t b) { return bits(-f32(a) + std::fabs(f32(b))); }}),
  };
  return cases;
}

// --- f16 VALU (VOP1/VOP2/VOPC/VOP3, and under SDWA and DPP) ---

Case half_case(const char* text, bool floats, std::function<uint32_t(const Inputs&, unsigned)> f) {
  return Case{text, floats, [=](const Inputs& in) { return per_lane(in, f); }};
}
uint32_t half_only(uint16_t h) { return h; }  // gfx9 zeroes the high half of an f16 result

Case half_compare(const char* text, bool floats, std::function<bool(double, double)> f) {
  return Case{text, floats, [=](const Inputs& in) {
                Outputs o{in.d, 0};
                for (unsigned l = 0; l < kLanes; ++l) {
                  if (((in.exec >> l) & 1) && f(hv(lo16(in.a[l])), hv(lo16(in.b[l])))) o.vcc |= uint64_t{1} << l;
                }
                return o;
              }};
}

// The class bit of an f16 value: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
unsigned class_of(uint16_t h) {
  const double v = hv(h);
  const bool neg = (h >> 15) != 0;
  if (std::isnan(v)) return (h & 0x0200) ? 1 : 0;
  if (std::isinf(v)) return neg ? 2 : 9;
  if (v == 0) return neg ? 5 : 6;
  return std::fabs(v) < 0x1p-14 ? (neg ? 4 : 7) : (neg ? 3 : 8);
}

const std::vector<Case>& half_cases() {
  static const std::vector<Case> cases = {
      half_case("v_add_f16 v4, v1, v2", true,
                [](const Inputs& i, unsigned l) { return half_only(hround(q(lo16(i.a[l])) + q(lo16(i.b[l])))); }),
      half_case("v_sub_f16 v4, v1, v2", true,
                [](const Inputs& i, unsigned l) { return half_only(hround(q(lo16(i.a[l])) - q(lo16(i.b[l])))); }),
      half_case("v_subrev_f16 v4, v1, v2", true,
                [](const Inputs& i, unsigned l) { return half_only(hround(q(lo16(i.b[l])) - q(lo16(i.a[l])))); }),
      half_case("v_mul_f16_e64 v4, -v1, |v2| clamp", true,
                [](const Inputs& i, unsigned l) {
                  return half_only(hclamp(hround(q(hneg(lo16(i.a[l]))) * q(lo16(i.b[l]) & 0x7fff))));
                }),
      half_case("v_fma_f16 v4, v1, -v2, v3", true,
                [](const Inputs& i, unsigned l) {
                  return half_only(hround(q(lo16(i.a[l])) * q(hneg(lo16(i.b[l]))) + q(lo16(i.c[l]))));
                }),
      half_case("v_add_f16 v4, 1.0, v2", true,
                [](const Inputs& i, unsigned l) { return half_only(hround(q(lo16(i.b[l])) + 1)); }),
      half_case("v_max_f16 v4, v1, v2", true,
                [](const Inputs& i, unsigned l) {
                  const uint16_t a = lo16(i.a[l]), b = lo16(i.b[l]);
                  return half_only(hv(a) == hv(b) ? (a & 0x8000 ? b : a) : (hv(a) > hv(b) ? a : b));
                }),
      half_case("v_min_f16 v4, v1, v2", true,
                [](const Inputs& i, unsigned l) {
                  const uint16_t a = lo16(i.a[l]), b = lo16(i.b[l]);
                  return half_only(hv(a) == hv(b) ? (a & 0x8000 ? a : b) : (hv(a) < hv(b) ? a : b));
                }),
      half_case("v_cvt_f16_f32 v4, v1", true,
                [](const Inputs& i, unsigned l) { return half_only(hround(static_cast<__float128>(f32(i.a[l])))); }),
      half_case("v_cvt_f32_f16 v4, v1", true,
                [](const Inputs& i, unsigned l) { return bits(static_cast<float>(hv(lo16(i.a[l])))); }),
      half_case("v_cvt_u16_f16 v4, v1", true,
                [](const Inputs& i, unsigned l) {
                  return static_cast<uint32_t>(std::clamp(std::trunc(hv(lo16(i.a[l]))), 0.0, 65535.0));
                }),
      half_case("v_cvt_i16_f16 v4, v1", true,
                [](const Inputs& i, unsigned l) {
                  return uint32_t{static_cast<uint16_t>(
                      static_cast<int>(std::clamp(std::trunc(hv(lo16(i.a[l]))), -32768.0, 32767.0)))};
                }),
      half_case("v_cvt_f16_u16 v4, v1", false,
                [](const Inputs& i, unsigned l) { return half_only(hround(lo16(i.a[l]))); }),
      half_case("v_cvt_f16_i16 v4, v1", false,
                [](const Inputs& i, unsigned l) { return half_only(hround(s16(lo16(i.a[l])))); }),
      // v_pack_b32_f16 (Vega ISA: D[15:0] = S0.f16, D[31:16] = S1.f16; op_sel picks each source's half).
      half_case("v_pack_b32_f16 v4, v1, v2", false,
                [](const Inputs& i, unsigned l) { return uint32_t{lo16(i.a[l])} | uint32_t{lo16(i.b[l])} << 16; }),
      half_case("v_pack_b32_f16 v4, v1, v2 op_sel:[1,0]", false,
                [](const Inputs& i, unsigned l) { return uint32_t{hi16(i.a[l])} | uint32_t{lo16(i.b[l])} << 16; }),
      half_case("v_pack_b32_f16 v4, -v1, |v2| op_sel:[0,1]", false,
                [](const Inputs& i, unsigned l) {
                  return uint32_t{static_cast<uint16_t>(lo16(i.a[l]) ^ 0x8000)} |
                         uint32_t{static_cast<uint16_t>(hi16(i.b[l]) & 0x7fff)} << 16;
                }),
      half_compare("v_cmp_lt_f16 vcc, v1, v2", true, [](double a, double b) { return a < b; }),
      half_compare("v_cmp_nge_f16 vcc, v1, v2", false, [](double a, double b) { return !(a >= b); }),
      Case{"v_cmp_class_f16 vcc, v1, v2", false,
           [](const Inputs& in) {
             Outputs o{in.d, 0};
             for (unsigned l = 0; l < kLanes; ++l) {
               if (((in.exec >> l) & 1) && ((in.b[l] >> class_of(lo16(in.a[l]))) & 1)) o.vcc |= uint64_t{1} << l;
             }
             return o;
           }},
      // Under SDWA: the halves as selected words, the result placed in a word.
      half_case("v_cvt_f32_f16_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1", true,
                [](const Inputs& i, unsigned l) { return bits(static_cast<float>(hv(hi16(i.a[l])))); }),
      half_case("v_add_f16_sdwa v4, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0",
                true,
                [](const Inputs& i, unsigned l) {
                  return (i.d[l] & 0xffffu) | uint32_t{hround(q(hi16(i.a[l])) + q(lo16(i.b[l])))} << 16;
                }),
      // Under DPP: src0 from the partner lane of the quad (lanes whose partner EXEC disables are not written).
      Case{"v_max_f16_dpp v4, v1, v2 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf", true,
           [](const Inputs& in) {
             Outputs o{in.d, in.vcc};
             for (unsigned l = 0; l < kLanes; ++l) {
               const unsigned s = (l & ~3u) | ((l + 2) & 3);
               if (!((in.exec >> l) & 1) || !((in.exec >> s) & 1)) continue;
               const uint16_t a = lo16(in.a[s]), b = lo16(in.b[l]);
               o.d[l] = hv(a) == hv(b) ? (a & 0x8000 ? b : a) : (hv(a) > hv(b) ? a : b);
             }
             return o;
           }},
  };
  return cases;
}

// VOP3 v_cndmask_b32 with source modifiers (Vega ISA: abs/neg act on the selected f32 bits;
// LLVM selects between x and -x this way, rocRAND's inverse-CDF normals among others).
const std::vector<Case>& cndmask_cases() {
  static const auto sel = [](const Inputs& i, unsigned l, uint32_t x, uint32_t y) {
    return ((i.vcc >> l) & 1) ? y : x;
  };
  static const std::vector<Case> cases{
      half_case("v_cndmask_b32_e64 v4, v1, -v1, vcc", false,
                [=](const Inputs& i, unsigned l) { return sel(i, l, i.a[l], i.a[l] ^ 0x80000000u); }),
      half_case("v_cndmask_b32_e64 v4, |v1|, -|v2|, vcc", false,
                [=](const Inputs& i, unsigned l) { return sel(i, l, i.a[l] & 0x7fffffffu, i.b[l] | 0x80000000u); }),
      half_case("v_cndmask_b32_e64 v4, v1, v2, vcc", false,
                [=](const Inputs& i, unsigned l) { return sel(i, l, i.a[l], i.b[l]); }),
  };
  return cases;
}

RC_GTEST_PROP(IsaExtensions, ISA_EXEC_5_CndmaskSourceModifiers, ()) {
  for (const Case& k : cndmask_cases()) {
    std::string why;
    const Inputs in = inputs(k.floats);
    if (!agrees(k, in, &why)) RC_FAIL(std::string(k.text) + ": " + why);
  }
}

// covers: ISA-EXEC-7, ISA-EXEC-8
RC_GTEST_PROP(IsaExtensions, ISA_EXEC_9_HalfPrecisionValu, ()) {
  for (const Case& k : half_cases()) {
    std::string why;
    const Inputs in = inputs(k.floats);
    if (!agrees(k, in, &why)) RC_FAIL(std::string(k.text) + ": " + why);
  }
}

RC_GTEST_PROP(IsaExtensions, ISA_EXEC_6_PackedSixteenBitMath, ()) {
  for (const Case& k : packed_cases()) {
    std::string why;
    const Inputs in = inputs(k.floats);
    if (!agrees(k, in, &why)) RC_FAIL(std::string(k.text) + ": " + why);
  }
}

RC_GTEST_PROP(IsaExtensions, ISA_EXEC_7_SdwaSelectsAndPlacement, ()) {
  for (const Case& k : sdwa_cases()) {
    std::string why;
    const Inputs in = inputs(k.floats);
    if (!agrees(k, in, &why)) RC_FAIL(std::string(k.text) + ": " + why);
  }
}

RC_GTEST_PROP(IsaExtensions, ISA_EXEC_8_DppLanePermutations, ()) {
  for (const Case& k : dpp_cases()) {
    std::string why;
    const Inputs in = inputs(k.floats);
    if (!agrees(k, in, &why)) RC_FAIL(std::string(k.text) + ": " + why);
  }
}

// Encodings the model does not execute end the dispatch with the real error, never the model.
TEST(IsaExtensions, ISA_ERR_1_UnexecutedExtensionsAreIllegalInstructions) {
  std::vector<uint32_t> reserved_ctrl = assemble("v_mov_b32_dpp v4, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf");
  std::vector<uint32_t> cmpx = assemble("v_cmpx_gt_u32_e32 vcc, v1, v2");
  std::vector<uint32_t> int_neg = assemble("v_pk_add_u16 v4, v1, v2");
  ASSERT_EQ(reserved_ctrl.size(), 2u);
  ASSERT_EQ(cmpx.size(), 1u);
  ASSERT_EQ(int_neg.size(), 2u);
  reserved_ctrl[1] = (reserved_ctrl[1] & ~(0x1ffu << 8)) | (0x150u << 8);  // DPP_CTRL 0x150 is reserved
  int_neg[1] |= 1u << 29;                                                   // neg_lo on an integer op
  // v_cmpx_gt_u32 with a DPP word quad_perm:[0,1,2,3] (LLVM 15 assembles no VOPC DPP for gfx9).
  cmpx[0] = (cmpx[0] & ~0x1ffu) | 0xfau;
  cmpx.push_back(0xff00e401u);
  Inputs in;
  for (const auto& body : {reserved_ctrl, cmpx, int_neg}) {
    std::vector<uint32_t> code = body;
    code.push_back(0xbf810000u);  // s_endpgm
    const RunResult r = run(code, in);
    ASSERT_TRUE(r.fault) << std::hex << body[0];
    EXPECT_EQ(static_cast<int>(r.fault->status), static_cast<int>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)) << r.fault->what;
  }
}

// Any VOP3P word pair, and any VOP1/VOP2/VOPC with any SDWA or DPP word, either executes or
// ends the dispatch as an illegal instruction (registers past the 16 allocated included).
RC_GTEST_PROP(IsaExtensions, ISA_ERR_1_AnyExtendedEncodingExecutesOrIsIllegal, ()) {
  const auto reg = [] { return *rc::gen::weightedOneOf<uint32_t>({{6, rc::gen::inRange<uint32_t>(0, 16)}, {1, rc::gen::inRange<uint32_t>(0, 256)}}); };
  const unsigned kind = *rc::gen::inRange(0, 4);
  uint32_t w0, w1 = *rc::gen::arbitrary<uint32_t>();
  if (kind == 0) {  // VOP3P: vdst and three sources
    w0 = (0x1a7u << 23) | (*rc::gen::inRange<uint32_t>(0, 128) << 16) | (*rc::gen::inRange<uint32_t>(0, 256) << 8) | reg();
    w1 = (w1 & 0xf8000000u) | (256 + reg()) | ((256 + reg()) << 9) | (*rc::gen::element<uint32_t>(256 + reg(), 128, 242, 0) << 18);
  } else {
    const uint32_t ext = *rc::gen::element<uint32_t>(0xf9, 0xfa);
    const uint32_t op = *rc::gen::inRange<uint32_t>(0, 256);
    if (kind == 1) w0 = (0x3fu << 25) | (reg() << 17) | (op << 9) | ext;                 // VOP1
    else if (kind == 2) w0 = (0x3eu << 25) | (op << 17) | (reg() << 9) | ext;            // VOPC
    else w0 = ((op % 62) << 25) | (reg() << 17) | (reg() << 9) | ext;                    // VOP2
    w1 = (w1 & ~0xffu) | (*rc::gen::inRange(0, 8) == 0 ? *rc::gen::inRange<uint32_t>(0, 256) : reg());
  }
  Inputs in;
  const RunResult r = run({w0, w1, 0xbf810000u}, in);
  if (r.fault) {
    RC_ASSERT(static_cast<int>(r.fault->status) == static_cast<int>(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION));
  }
}

#ifdef ROCREF_ISA_MUTANTS
struct Mutant {
  explicit Mutant(IsaMutant m) : m_(m) { set_isa_mutant(m_, true); }
  ~Mutant() { set_isa_mutant(m_, false); }
  IsaMutant m_;
};

// Fixed inputs on which the planted bugs change results.
Inputs fixed_inputs() {
  Inputs in;
  for (unsigned l = 0; l < kLanes; ++l) {
    in.a[l] = 0x3c00bc00u ^ (l * 0x00410043u);  // halves near +-1, bytes with high bits set
    in.b[l] = 0x40003800u + l * 0x00050007u;
    in.c[l] = 0xb4003a00u + l;
    in.d[l] = 0x5a5a5a5au;
  }
  in.exec = ~uint64_t{0};
  return in;
}

const Case& find(const std::vector<Case>& cases, const std::string& prefix) {
  for (const Case& k : cases) {
    if (std::string(k.text).rfind(prefix, 0) == 0) return k;
  }
  static const Case none{"", false, nullptr};
  return none;
}

// covers: ISA-EXEC-5, ISA-EXEC-6, ISA-EXEC-7, ISA-EXEC-8, ISA-EXEC-9
TEST(IsaExtensionMutants, EveryMutantIsCaught) {
  const Inputs in = fixed_inputs();
  const Case& packed = find(packed_cases(), "v_pk_min_u16 v4, v1, v2 op_sel:[1,1] op_sel_hi:[0,0]");
  const Case& sdwa = find(sdwa_cases(), "v_mov_b32_sdwa v4, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1");
  const Case& dpp = find(dpp_cases(), "v_mov_b32_dpp v4, v1 row_shr:3");
  ASSERT_TRUE(packed.expect && sdwa.expect && dpp.expect);
  ASSERT_TRUE(agrees(packed, in));
  ASSERT_TRUE(agrees(sdwa, in));
  ASSERT_TRUE(agrees(dpp, in));
  {
    Mutant m(IsaMutant::PackedOpSelHiIgnored);
    EXPECT_FALSE(agrees(packed, in));
  }
  {
    Mutant m(IsaMutant::SdwaNoSignExtend);
    EXPECT_FALSE(agrees(sdwa, in));
  }
  {
    Mutant m(IsaMutant::DppRowShiftReversed);
    EXPECT_FALSE(agrees(dpp, in));
  }
  const Case& half = find(half_cases(), "v_add_f16 v4, v1, v2");
  ASSERT_TRUE(half.expect && agrees(half, in));
  {
    Mutant m(IsaMutant::HalfResultKeepsHighBits);
    EXPECT_FALSE(agrees(half, in));
  }
  const Case& pack = find(half_cases(), "v_pack_b32_f16 v4, v1, v2");
  ASSERT_TRUE(pack.expect && agrees(pack, in));
  {
    Mutant m(IsaMutant::PackHalvesSwapped);
    EXPECT_FALSE(agrees(pack, in));
  }
  Inputs sel_in = in;
  sel_in.vcc = 0x5555555555555555ull;
  const Case& cnd = find(cndmask_cases(), "v_cndmask_b32_e64 v4, v1, -v1, vcc");
  ASSERT_TRUE(cnd.expect && agrees(cnd, sel_in));
  {
    Mutant m(IsaMutant::CndmaskIgnoresModifiers);
    EXPECT_FALSE(agrees(cnd, sel_in));
  }
}
#endif

}  // namespace
}  // namespace rocref::gpu::isa
