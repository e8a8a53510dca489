// tests/unit/isa/isa_decode_tool.cpp - rocref's gfx900 decoder on the command line, for the LLVM comparison.
//
//   isa_decode_tool decode [MUTANT]   stdin: one instruction per line as hex dwords; stdout: the decoded fields
//   isa_decode_tool implemented       stdout: "FORMAT OPCODE" for every opcode the executors implement
// isa_llvm_check.py drives it (ISA-DEC-1, ISA-COV-1).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/isa/decoder.h"
#include "gpu/isa/exec_context.h"
#include "gpu/isa/isa_mutant.h"

using namespace rocref::gpu::isa;

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "implemented") {
    struct Range { Format f; unsigned ops; };
    const Range ranges[] = {{Format::SOP1, 256}, {Format::SOP2, 128},   {Format::SOPK, 32},     {Format::SOPC, 128},
                            {Format::SOPP, 128}, {Format::SMEM, 256},   {Format::VOP3, 1024},   {Format::DS, 256},
                            {Format::FLAT, 128}, {Format::GLOBAL, 128}, {Format::SCRATCH, 128}, {Format::MUBUF, 128},
                            {Format::MIMG, 128}, {Format::VOP3P, 128},  {Format::SDWA, 0x180},  {Format::DPP, 0x180}};
    for (const Range& r : ranges) {
      for (unsigned op = 0; op < r.ops; ++op) {
        if (implemented(r.f, static_cast<uint16_t>(op))) std::printf("%s %u\n", format_name(r.f), op);
      }
    }
    return 0;
  }
  if (mode != "decode") {
    std::fprintf(stderr,
                 "usage: isa_decode_tool decode [Vop2Src1AsSgpr|SdwaSrcSelSwapped|MimgSsampFromSrsrc] | implemented\n");
    return 2;
  }
#ifdef ROCREF_ISA_MUTANTS
  if (argc > 2 && std::strcmp(argv[2], "Vop2Src1AsSgpr") == 0) set_isa_mutant(IsaMutant::Vop2Src1AsSgpr, true);
  if (argc > 2 && std::strcmp(argv[2], "SdwaSrcSelSwapped") == 0) set_isa_mutant(IsaMutant::SdwaSrcSelSwapped, true);
  if (argc > 2 && std::strcmp(argv[2], "MimgSsampFromSrsrc") == 0) set_isa_mutant(IsaMutant::MimgSsampFromSrsrc, true);
#endif
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::vector<uint32_t> words;
    std::string word;
    while (in >> word) words.push_back(static_cast<uint32_t>(std::stoul(word, nullptr, 16)));
    const Inst i = decode(words.data(), words.size());
    std::printf(
        "%s %u %u vdst=%u sdst=%u src0=%u src1=%u src2=%u imm=%d offset1=%u saddr=%u vaddr=%u vdata=%u "
        "soffset=%u glc=%d slc=%d offen=%d idxen=%d literal=%u clamp=%u opsel=%u opsel_hi=%u neg=%u abs=%u "
        "omod=%u sel0=%u sel1=%u sel2=%u dst_unused=%u sext=%u dpp_ctrl=%u row_mask=%u bank_mask=%u "
        "bound_ctrl=%d base=%s dmask=%u mimg=%u\n",
        format_name(i.format), i.op, i.dwords, i.vdst, i.sdst, i.src[0], i.src[1], i.src[2], i.imm, i.offset1, i.saddr,
        i.vaddr, i.vdata, i.soffset, i.glc, i.slc, i.offen, i.idxen, i.literal, i.clamp, i.opsel, i.opsel_hi, i.neg,
        i.abs, i.omod, i.sel[0], i.sel[1], i.sel[2], i.dst_unused, i.sext, i.dpp_ctrl, i.row_mask, i.bank_mask,
        i.bound_ctrl, format_name(i.base), i.dmask, i.mimg);
  }
  return 0;
}
