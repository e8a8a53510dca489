#!/usr/bin/env python3
"""tests/unit/isa/isa_llvm_check.py - rocref's gfx900 decoder against LLVM's disassembler, and the coverage table.

ISA-DEC-1: encodings of every opcode of every executed format (several operand
variants each, fixed seed) go through `llvm-mc -mcpu=gfx900 --disassemble` and
through rocref's decoder (isa_decode_tool); for every encoding LLVM accepts, the
two must agree on length, on the opcode (one LLVM mnemonic <-> one rocref opcode,
e32 and e64 forms included) and on the operand fields they print.
ISA-COV-1: the same enumeration is LLVM's gfx900 opcode list; the table of
implemented vs known opcodes is generated from it (--coverage FILE), never kept by hand.
--mutant NAME: the check must FAIL when the decoder runs with that planted bug.
"""
import argparse, random, re, struct, subprocess, sys
from collections import defaultdict

NOP = 0xBF800000  # s_nop 0

def llvm_disassemble_cached(llvm_mc, insts, cache):
    """llvm_disassemble, reusing the result stored in `cache` for the same input (the checks run it several times)."""
    import hashlib, json, os
    key = hashlib.sha256((llvm_mc + repr(insts)).encode()).hexdigest()
    if cache and os.path.exists(cache):
        with open(cache) as f:
            stored = json.load(f)
        if stored.get("key") == key:
            return {bytes.fromhex(k): (v[0], v[1], v[2]) for k, v in stored["result"].items()}
    result = llvm_disassemble(llvm_mc, insts)
    if cache:
        with open(cache + ".tmp", "w") as f:
            json.dump({"key": key, "result": {k.hex(): list(v) for k, v in result.items()}}, f)
        os.replace(cache + ".tmp", cache)
    return result

def llvm_disassemble(llvm_mc, insts):
    # llvm-mc reads one byte stream: after a rejected 8-byte encoding it decodes the second dword
    # as the next instruction, which may swallow the following one. Two s_nop after each
    # instruction put it back in step; results are keyed by LLVM's (canonical) encoding bytes.
    text = "\n".join(" ".join("0x%02x" % b for b in struct.pack("<%dI" % (len(w) + 2), *w, NOP, NOP)) for w in insts)
    out = subprocess.run([llvm_mc, "-arch=amdgcn", "-mcpu=gfx900", "--disassemble", "-show-encoding"],
                         input=text, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+)(.*?)\s*;\s*encoding:\s*\[(.*)\]", line)
        if m:
            raw = bytes(int(x, 16) for x in m.group(3).split(","))
            result[raw] = (m.group(1), [t.strip() for t in m.group(2).split(",") if t.strip()] if m.group(2).strip() else [],
                           m.group(2))
    return result

def rocref_decode(tool, insts, mutant=None):
    text = "\n".join(" ".join("%08x" % x for x in w) for w in insts) + "\n"
    args = [tool, "decode"] + ([mutant] if mutant else [])
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True).stdout.splitlines()
    decoded = []
    for line in out:
        f = line.split()
        d = {"format": f[0], "op": int(f[1]), "dwords": int(f[2])}
        for kv in f[3:]:
            k, v = kv.split("=")
            d[k] = v if k == "base" else int(v)
        decoded.append(d)
    return decoded

def generate(rng):
    """(format, opcode, words) for every opcode of every format, a few operand variants each."""
    out = []
    def sg(): return rng.randrange(0, 50) * 2           # even SGPR (pairs and quads stay aligned)
    def vg(): return 256 + rng.randrange(0, 240)
    def src(): return rng.choice([sg(), vg(), 128 + rng.randrange(0, 65), 193 + rng.randrange(0, 16)])
    def ssrc(): return rng.choice([sg(), 128 + rng.randrange(0, 65)])
    for op in range(128):
        for _ in range(2):
            if op < 96:  # SOP2 ops 96+ are the SOPK/SOP1/SOPC/SOPP encodings
                out.append(("SOP2", op, [(2 << 30) | (op << 23) | (sg() << 16) | (ssrc() << 8) | ssrc()]))
            out.append(("SOPC", op, [(0x17E << 23) | (op << 16) | (ssrc() << 8) | ssrc()]))
        out.append(("SOPP", op, [(0x17F << 23) | (op << 16)]))
        out.append(("SOPP", op, [(0x17F << 23) | (op << 16) | rng.randrange(1, 16)]))
    for op in range(29):  # SOPK ops 29-31 are the SOP1, SOPC and SOPP encodings
        out.append(("SOPK", op, [(0xB << 28) | (op << 23) | (sg() << 16) | rng.randrange(0, 0x10000)]))
        out.append(("SOPK", op, [(0xB << 28) | (op << 23) | 0x0801, rng.randrange(0, 1 << 32)]))  # with a literal
    for op in range(256):
        for a, b in ((sg(), ssrc()), (0, ssrc()), (sg(), 0), (0, 0)):
            out.append(("SOP1", op, [(0x17D << 23) | (a << 16) | (op << 8) | b]))
        for imm in (0, 1):
            sdata, sbase = rng.choice([0, 16, 32, 48]), rng.randrange(0, 20)
            off = rng.randrange(0, 0x1000) * 4 if imm else sg()
            out.append(("SMEM", op, [(0x30 << 26) | (op << 18) | (imm << 17) | (sdata << 6) | sbase, off]))
            out.append(("SMEM", op, [(0x30 << 26) | (op << 18) | (imm << 17), off if imm else 0]))
        out.append(("VOP1", op, [(0x3F << 25) | (rng.randrange(0, 50) * 2 << 17) | (op << 9) | src()]))
        out.append(("VOP1", op, [(0x3F << 25) | (op << 9)]))
        out.append(("VOPC", op, [(0x3E << 25) | (op << 17) | (rng.randrange(0, 240) << 9) | src()]))
        for d0, d1, vd in ((1, 1, 1), (1, 0, 0), (1, 1, 0), (0, 0, 1), (1, 0, 1), (0, 0, 0)):
            out.append(("DS", op, [(0x36 << 26) | (op << 17) | rng.randrange(0, 0x10000),
                                   rng.randrange(0, 200) | (d0 * rng.randrange(0, 200) << 8) |
                                   (d1 * rng.randrange(0, 200) << 16) | (vd * rng.randrange(0, 200) << 24)]))
    for op in range(62):  # VOP2 ops 62 and 63 are the VOPC and VOP1 encodings
        out.append(("VOP2", op, [(op << 25) | (rng.randrange(0, 240) << 17) | (rng.randrange(0, 240) << 9) | src()]))
    for op in range(128):
        out.append(("VOP3P", op, [(0x1A7 << 23) | (op << 16) | rng.randrange(0, 240), vg() | (vg() << 9) | (vg() << 18) | (3 << 27)]))
        out.append(("VOP3P", op, [(0x1A7 << 23) | (op << 16) | rng.randrange(0, 240), vg() | (vg() << 9) | (3 << 27)]))
        out.append(("VOP3P", op, [(0x1A7 << 23) | (op << 16) | (1 << 14) | rng.randrange(0, 240),
                                  vg() | (vg() << 9) | (3 << 27)]))  # op_sel_hi of the unused src2 set
    # SDWA and DPP forms of VOP1/VOP2/VOPC: random selects, modifiers and lane controls.
    dpp_ctrls = [rng.randrange(0, 256) for _ in range(4)] + [0x100 + n for n in range(1, 16)] + \
                [0x110 + n for n in range(1, 16)] + [0x120 + n for n in range(1, 16)] + list(range(0x130, 0x144))
    def sdwa_word(vopc):
        w1 = rng.randrange(0, 200) | (rng.randrange(0, 7) << 16) | (rng.randrange(0, 2) << 19) | \
             (rng.randrange(0, 7) << 24) | (rng.randrange(0, 2) << 27)
        w1 |= rng.choice([0, 0, 1 << 23]) | rng.choice([0, 0, 1 << 31])  # S0 / S1: scalar sources
        if vopc:
            w1 |= rng.choice([0, (1 << 15) | (rng.randrange(0, 50) * 2 << 8)])
        else:
            w1 |= (rng.randrange(0, 7) << 8) | (rng.randrange(0, 3) << 11) | (rng.randrange(0, 2) << 13)
        return w1
    def dpp_word():
        return rng.randrange(0, 200) | (rng.choice(dpp_ctrls) << 8) | (rng.randrange(0, 2) << 19) | \
               (rng.randrange(0, 16) << 24) | (rng.randrange(0, 16) << 28)
    for op, _ in ((op, k) for op in range(256) for k in range(3)):  # three variants: LLVM refuses some selects
        for ext, word in ((0xF9, lambda c: sdwa_word(c)), (0xFA, lambda c: dpp_word())):
            out.append(("VOP1", op, [(0x3F << 25) | (rng.randrange(0, 200) << 17) | (op << 9) | ext, word(False)]))
            out.append(("VOPC", op, [(0x3E << 25) | (op << 17) | (rng.randrange(0, 200) << 9) | ext, word(True)]))
            if op < 62:
                out.append(("VOP2", op, [(op << 25) | (rng.randrange(0, 200) << 17) | (rng.randrange(0, 200) << 9) | ext,
                                         word(False)]))
    for op in range(128):  # VOP3P with random op_sel, op_sel_hi, neg_lo, neg_hi and clamp
        for _ in range(2):
            out.append(("VOP3P", op, [(0x1A7 << 23) | (op << 16) | (rng.randrange(0, 256) << 8) | rng.randrange(0, 240),
                                      vg() | (vg() << 9) | (vg() << 18) | (rng.randrange(0, 32) << 27)]))
    for op in range(0x380):  # VOP3 opcodes 0x380+ are the VOP3P encoding
        for s2 in (0, 1):
            srcs = vg() | (vg() << 9) | ((vg() if s2 else 0) << 18)
            out.append(("VOP3", op, [(0x34 << 26) | (op << 16) | rng.randrange(0, 240), srcs]))
            out.append(("VOP3", op, [(0x34 << 26) | (op << 16) | (sg() << 8) | rng.randrange(0, 240), srcs]))
            out.append(("VOP3", op, [(0x34 << 26) | (op << 16) | sg(), srcs]))
    for seg, name in ((0, "FLAT"), (1, "SCRATCH"), (2, "GLOBAL")):
        for op in range(128):
            for saddr in (0x7F, sg(), 0):
                for data, vdst in ((1, 0), (0, 1), (1, 1)):
                    offset = rng.randrange(0, 0x1000) if seg == 0 else rng.randrange(0, 0x2000)
                    w1 = rng.randrange(0, 200) | (data * rng.randrange(0, 200) << 8) | (saddr << 16) | \
                         (vdst * rng.randrange(0, 200) << 24)
                    out.append((name, op, [(0x37 << 26) | (op << 18) | (seg << 14) | offset, w1]))
    for op in range(128):
        out.append(("MUBUF", op, [(0x38 << 26) | (op << 18), 0]))  # operand-less forms (buffer_wbinvl1)
        for offen, idxen in ((0, 0), (1, 0), (0, 1), (1, 1)):
            for glc in (0, 1):
                vaddr = rng.randrange(0, 200) if (offen or idxen) else 0
                w0 = (0x38 << 26) | (op << 18) | (glc << 14) | (idxen << 13) | (offen << 12) | rng.randrange(0, 0x1000)
                w1 = vaddr | (rng.randrange(0, 200) << 8) | (rng.randrange(0, 20) << 16) | (rng.choice([sg(), 0x80]) << 24)
                out.append(("MUBUF", op, w0 and [w0, w1]))
    for op in range(128):  # MIMG: dmask, unorm/glc/slc/da/a16/tfe/lwe/d16, VGPRs, T# and S# quads
        for variant in range(6):
            flags = rng.choice([0, 0, 1 << 12, 1 << 13, 1 << 14, 1 << 25, (1 << 12) | (1 << 14)])
            if variant >= 4: flags |= rng.choice([1 << 15, 1 << 16, 1 << 17])
            w0 = (0x3C << 26) | (op << 18) | (rng.randrange(1, 16) << 8) | flags
            ssamp = rng.randrange(0, 20) if variant % 2 else 0  # only samplers and gather4 take one
            w1 = rng.randrange(0, 200) | (rng.randrange(0, 200) << 8) | (rng.randrange(0, 20) << 16) | \
                 (ssamp << 21) | ((1 << 31) if variant == 2 else 0)
            out.append(("MIMG", op, [w0, w1]))
    return out

def scalar_tokens(code):
    if code <= 101: return ("s", code)
    if code == 106: return ("lit", ("vcc", "vcc_lo"))
    if code == 126: return ("lit", ("exec", "exec_lo"))
    if code == 124: return ("lit", ("m0",))
    if 128 <= code <= 192: return ("lit", (str(code - 128),))
    if 193 <= code <= 208: return ("lit", (str(-(code - 192)),))
    if code >= 256: return ("v", code - 256)
    return None

def token_is(tok, spec):
    if spec is None: return True
    kind, value = spec
    if kind == "lit": return tok in value
    return tok == "%s%d" % (kind, value) or tok.startswith("%s[%d:" % (kind, value))

def base_mnemonic(m):
    return re.sub(r"_(e32|e64|vop3|sdwa|dpp)$", "", m)

SELS = {"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5, "DWORD": 6}
UNUSED = {"UNUSED_PAD": 0, "UNUSED_SEXT": 1, "UNUSED_PRESERVE": 2}

def dpp_ctrl_of(text):
    """DPP_CTRL from LLVM's printed lane control, None when it prints none."""
    m = re.search(r"quad_perm:\[(\d),(\d),(\d),(\d)\]", text)
    if m: return sum(int(m.group(i + 1)) << (2 * i) for i in range(4))
    m = re.search(r"\b(row_shl|row_shr|row_ror):(\d+)", text)
    if m: return {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120}[m.group(1)] + int(m.group(2))
    for name, code in (("wave_shl:1", 0x130), ("wave_rol:1", 0x134), ("wave_shr:1", 0x138), ("wave_ror:1", 0x13C),
                       ("row_half_mirror", 0x141), ("row_mirror", 0x140), ("row_bcast:15", 0x142), ("row_bcast:31", 0x143)):
        if re.search(r"\b" + name + r"(\s|$)", text): return code
    return None

def bits_of(text, name):
    m = re.search(r"\b" + name + r":\[([01,]+)\]", text)
    return None if not m else sum(int(b) << i for i, b in enumerate(m.group(1).split(",")))

def extension_errors(fmt, d, mnem, text, where):
    """ISA-DEC-1 for the SDWA, DPP and VOP3P fields LLVM prints as keywords."""
    errors = []
    def need(cond, what):
        if not cond: errors.append("%s: %s" % (what, where))
    if d["format"] == "SDWA":
        # The sources LLVM prints last (after vdst / sdst, before a trailing vcc), modifiers stripped.
        srcs = [re.sub(r"^(sext\(|-(?=\D)|\|)+|[)|]+$", "", t.strip()) for t in re.split(r"\s(?:clamp|mul:|div:|dst_sel|src0_sel|src1_sel|dst_unused)", text)[0].split(",")]
        srcs = [t for t in srcs if t]
        nsrc = 1 if fmt == "VOP1" else 2
        if srcs and srcs[-1] == "vcc" and len(srcs) > nsrc + 1: srcs = srcs[:-1]
        if len(srcs) >= nsrc + 1:
            for i in range(nsrc):
                tok = srcs[len(srcs) - nsrc + i]
                if not token_is(tok, scalar_tokens(d["src%d" % i])):
                    errors.append("src%d %s is not %s: %s" % (i, tok, d["src%d" % i], where))
        for key, field in (("dst_sel", "sel0"), ("src0_sel", "sel1"), ("src1_sel", "sel2")):
            m = re.search(r"\b%s:(\w+)" % key, text)
            if m: need(SELS[m.group(1)] == d[field], key)
        m = re.search(r"dst_unused:(\w+)", text)
        if m: need(UNUSED[m.group(1)] == d["dst_unused"], "dst_unused")
        if fmt != "VOPC": need(("clamp" in text.split()) == bool(d["clamp"]), "clamp")
        need(text.count("sext(") == bin(d["sext"]).count("1"), "sext")
    elif d["format"] == "DPP":
        ctrl = dpp_ctrl_of(text)
        if ctrl is not None: need(ctrl == d["dpp_ctrl"], "dpp_ctrl")
        for key in ("row_mask", "bank_mask"):
            m = re.search(r"\b%s:(0x[0-9a-f]+)" % key, text)
            if m: need(int(m.group(1), 16) == d[key], key)
        need(("bound_ctrl:" in text) == bool(d["bound_ctrl"]), "bound_ctrl")
    elif fmt == "VOP3P":
        nsrc = len([t for t in text.split("op_sel")[0].split("neg_")[0].split("clamp")[0].split(",") if t.strip()]) - 1
        mask = (1 << max(nsrc, 0)) - 1
        mix = "mix" in mnem
        if mix:  # LLVM prints the mix instructions' neg_lo / neg_hi as -src / |src|
            srcs = [t.strip() for t in text.split(",")[1:1 + nsrc]]
            need(sum(1 << i for i, t in enumerate(srcs) if t.startswith("-")) == d["neg"] & mask, "neg")
            need(sum(1 << i for i, t in enumerate(srcs) if "|" in t) == d["abs"] & mask, "abs")
        for key, field, default in (("op_sel", "opsel", 0), ("op_sel_hi", "opsel_hi", 0 if mix else mask),
                                    ("neg_lo", "neg", 0), ("neg_hi", "abs", 0)):
            if mix and key in ("neg_lo", "neg_hi"): continue
            got = bits_of(text, key)
            need((default if got is None else got) == d[field] & mask, key)
        need(("clamp" in text.split()) == bool(d["clamp"]), "clamp")
    return errors

# LLVM 15 disassembles two gfx900 MUBUF opcodes (0x3e and 0x71) as buffer_wbinvl1.
LLVM_ALIASES = {"buffer_wbinvl1"}

# VOP2 forms rocref widens into another opcode on purpose (v_madmk/madak -> v_mad).
WIDENED = {"v_madmk_f32", "v_madak_f32", "v_madmk_f16", "v_madak_f16"}

def check(args, mutant=None):
    rng = random.Random(20261124)
    cases = generate(rng)
    words = [c[2] for c in cases]
    llvm = llvm_disassemble_cached(args.llvm_mc, words, args.llvm_cache)
    ours = rocref_decode(args.tool, words, mutant)
    errors = []
    known = defaultdict(dict)  # format -> op -> mnemonic (LLVM's gfx900 opcode list)
    mnemonic_ops = defaultdict(set)
    op_mnemonics = defaultdict(set)
    for (fmt, op, w), d in zip(cases, ours):
        raw = struct.pack("<%dI" % len(w), *w)
        hit = None
        for n in (len(w), 1):
            hit = llvm.get(raw[:4 * n]) if n <= len(w) else None
            if hit: length = n; break
        if not hit:
            continue
        mnem, toks, text = hit
        if fmt in ("FLAT", "SCRATCH", "GLOBAL") and not mnem.startswith(fmt.lower() + "_"):
            continue  # LLVM names the segment in the mnemonic
        if mnem.endswith("_sdwa") or mnem.endswith("_dpp"):
            known["SDWA" if mnem.endswith("_sdwa") else "DPP"].setdefault(op + {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x140}[fmt], mnem)
        else:
            known[fmt].setdefault(op, mnem)
        where = "%s op %d %s (%s %s)" % (fmt, op, " ".join("%08x" % x for x in w), mnem, ", ".join(toks))
        if d["format"] != fmt and not (fmt in ("VOP1", "VOP2", "VOPC") and d["format"] in ("SDWA", "DPP")):
            errors.append("format %s != %s: %s" % (d["format"], fmt, where)); continue
        if d["dwords"] != length:
            errors.append("length %d != LLVM %d: %s" % (d["dwords"], length, where)); continue
        if base_mnemonic(mnem) not in WIDENED:
            key = ("VALU" if fmt in ("VOP1", "VOP2", "VOPC", "VOP3") else fmt, d["op"])
            if d["format"] in ("SDWA", "DPP"):
                need_base = {"VOP1": "VOP1", "VOP2": "VOP2", "VOPC": "VOPC"}[fmt]
                if d["base"] != need_base: errors.append("base %s != %s: %s" % (d["base"], need_base, where))
            mnemonic_ops[base_mnemonic(mnem)].add(key)
            op_mnemonics[key].add(base_mnemonic(mnem))
        errors += extension_errors(fmt, d, mnem, text, where)
        # Operand fields LLVM prints.
        def expect(i, spec, what):
            if i >= len(toks) or not token_is(toks[i], spec):
                errors.append("%s: token %d should be %s: %s" % (what, i, spec, where))
        if fmt in ("SOP2", "SOP1", "SOPK") and toks and toks[0].startswith("s") and len(toks) >= 2:
            expect(0, ("s", d["sdst"]), "sdst")
        if fmt == "SOP2" and len(toks) == 3:
            expect(1, scalar_tokens(d["src0"]), "ssrc0"); expect(2, scalar_tokens(d["src1"]), "ssrc1")
        if fmt == "SOPC" and len(toks) == 2 and op not in (16, 17):  # setvskip/set_gpr_idx_on take an immediate
            expect(0, scalar_tokens(d["src0"]), "ssrc0"); expect(1, scalar_tokens(d["src1"]), "ssrc1")
        if fmt == "SMEM" and len(toks) >= 2 and toks[0].startswith("s") and toks[1].startswith("s["):
            expect(0, ("s", d["sdst"]), "sdata"); expect(1, ("s", d["saddr"]), "sbase")
        if fmt in ("VOP1", "VOP2") and d["format"] == fmt and toks and toks[0].startswith("v"):
            expect(0, ("v", d["vdst"]), "vdst")
            expect(len(toks) - (2 if "vcc" in toks[-1] and len(toks) > 3 else 1) if fmt == "VOP2" else 1,
                   scalar_tokens(d["src1"] if fmt == "VOP2" else d["src0"]), "vsrc1" if fmt == "VOP2" else "src0")
        if fmt == "VOPC" and d["format"] == fmt and len(toks) == 3:
            expect(1, scalar_tokens(d["src0"]), "src0"); expect(2, scalar_tokens(d["src1"]), "vsrc1")
        if fmt == "VOP3" and toks and toks[0].startswith("v") and "_e64" not in mnem and len(toks) >= 3 and \
                all(not t.startswith(("-", "|", "neg", "abs")) for t in toks):
            expect(0, ("v", d["vdst"]), "vdst")
        if fmt == "MIMG" and len(toks) >= 3:
            expect(0, ("v", d["vdata"]), "vdata"); expect(1, ("v", d["vaddr"]), "vaddr")
            expect(2, ("s", d["saddr"]), "srsrc")
            if len(toks) >= 4 and toks[3].startswith("s["): expect(3, ("s", d["soffset"]), "ssamp")
            m = re.search(r"dmask:(0x[0-9a-f]+)", text)
            if (int(m.group(1), 16) if m else 0) != d["dmask"]:
                errors.append("dmask %s != %d: %s" % (m.group(1) if m else "-", d["dmask"], where))
            words = text.split()
            for name, bit in (("unorm", 1), ("da", 2), ("a16", 4), ("tfe", 8), ("lwe", 16), ("d16", 32)):
                if (name in words) != bool(d["mimg"] & bit): errors.append("%s: %s" % (name, where))
            for name in ("glc", "slc"):
                if (name in words) != bool(d[name]): errors.append("%s: %s" % (name, where))
        if fmt in ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF"):
            offs = [t for t in " ".join(toks).split() if re.match(r"offset:-?(0x)?[0-9a-f]+$", t)]
            if fmt == "DS" and "2" in mnem.split("_")[1] if len(mnem.split("_")) > 1 else False:
                offs = []  # read2/write2 print offset0/offset1
            expect_offset = d["imm"] | (d["offset1"] << 8) if fmt == "DS" else d["imm"]
            if offs and int(offs[0].split(":")[1], 0) != expect_offset:
                errors.append("offset %s != %d: %s" % (offs[0], expect_offset, where))
    for m, ops in mnemonic_ops.items():
        if len(ops) > 1 and m not in LLVM_ALIASES: errors.append("LLVM %s decodes to several rocref opcodes %s" % (m, sorted(ops)))
    for key, ms in op_mnemonics.items():
        if len(ms) > 1: errors.append("rocref %s is several LLVM instructions %s" % (key, sorted(ms)))
    return errors, known

def implemented(tool):
    out = subprocess.run([tool, "implemented"], capture_output=True, text=True, check=True).stdout.split("\n")
    impl = defaultdict(set)
    for line in out:
        if line.strip():
            f, op = line.split(); impl[f].add(int(op))
    return impl

def coverage(args, known, impl, errors):
    # VOP1/VOP2/VOPC are executed through their VOP3 opcode: map them into that space.
    offsets = {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x140}
    rows, total_known, total_impl = [], 0, 0
    for fmt in ("SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "SDWA", "DPP",
                "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MIMG"):
        ops = known.get(fmt, {})
        have = []
        for op, m in sorted(ops.items()):
            if fmt in offsets:
                yes = (op + offsets[fmt]) in impl["VOP3"] or base_mnemonic(m) in WIDENED
            else:
                yes = op in impl[fmt]
            have.append((op, m, yes))
        n_impl = sum(1 for h in have if h[2])
        total_known += len(have); total_impl += n_impl
        rows.append((fmt, len(have), n_impl, have))
    # Every opcode rocref implements must be one LLVM knows for gfx900 (no invented opcodes).
    for fmt, ops in impl.items():
        if fmt in ("SDWA", "DPP"):
            continue  # the base VALU opcode space: checked through VOP1/VOP2/VOPC
        if fmt == "VOP3":
            llvm_ops = set(known.get("VOP3", {})) | {o + offsets[f] for f in offsets for o in known.get(f, {})}
        else:
            llvm_ops = set(known.get(fmt, {}))
        for op in sorted(ops - llvm_ops):
            errors.append("rocref implements %s op %d, which LLVM does not know for gfx900" % (fmt, op))
    if args.coverage:
        with open(args.coverage, "w") as f:
            f.write("# gfx900 ISA coverage (generated by tests/unit/isa/isa_llvm_check.py; do not edit)\n\n")
            f.write("Opcodes LLVM 15 disassembles for gfx900 vs opcodes rocref's executors implement.\n\n")
            f.write("| format | LLVM opcodes | implemented |\n|---|---|---|\n")
            for fmt, n, k, _ in rows: f.write("| %s | %d | %d |\n" % (fmt, n, k))
            f.write("| total | %d | %d |\n\n" % (total_known, total_impl))
            for fmt, _, _, have in rows:
                f.write("## %s\n\n" % fmt)
                f.write(" ".join(("%s" if yes else "~~%s~~") % m for _, m, yes in have) + "\n\n")
    print("coverage: %d of %d gfx900 opcodes implemented" % (total_impl, total_known))
    for fmt, n, k, _ in rows: print("  %-8s %4d / %4d" % (fmt, k, n))

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tool", required=True); p.add_argument("--llvm-mc", required=True)
    p.add_argument("--coverage"); p.add_argument("--mutant")
    p.add_argument("--llvm-cache", help="file keeping LLVM's disassembly of the generated encodings between runs")
    args = p.parse_args()
    if args.mutant:
        errors, _ = check(args, args.mutant)
        print("mutant %s: %d disagreements with LLVM" % (args.mutant, len(errors)))
        return 0 if errors else 1
    errors, known = check(args)
    coverage(args, known, implemented(args.tool), errors)
    for e in errors[:40]: print("ISA-DEC-1:", e)
    print("%d disagreement(s)" % len(errors))
    return 1 if errors else 0

if __name__ == "__main__":
    sys.exit(main())
