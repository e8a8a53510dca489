// tests/unit/isa/code_object.cpp - the test loader of gfx900 code objects (see code_object.h).
#include "code_object.h"

#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "gpu/isa/kernel_descriptor.h"

namespace rocref::test {

void CodeObject::Free::operator()(uint8_t* p) const { std::free(p); }

CodeObject::CodeObject(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof(Elf64_Ehdr)) { error_ = "cannot read " + path; return; }
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_machine != EM_AMDGPU) { error_ = "not an AMDGPU ELF"; return; }
  auto at = [&](uint64_t off, size_t n) { return off + n <= bytes.size() ? bytes.data() + off : nullptr; };
  uint64_t span = 0;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, at(eh.e_phoff + i * sizeof ph, sizeof ph), sizeof ph);
    if (ph.p_type == PT_LOAD) span = std::max<uint64_t>(span, ph.p_vaddr + ph.p_memsz);
  }
  const size_t size = (span + 0xffff) & ~size_t{0xffff};
  base_.reset(static_cast<uint8_t*>(std::aligned_alloc(0x10000, size)));
  size_ = size;
  std::memset(base_.get(), 0, size);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, at(eh.e_phoff + i * sizeof ph, sizeof ph), sizeof ph);
    if (ph.p_type == PT_LOAD && at(ph.p_offset, ph.p_filesz)) std::memcpy(base_.get() + ph.p_vaddr, at(ph.p_offset, ph.p_filesz), ph.p_filesz);
  }
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, at(eh.e_shoff + i * sizeof sh, sizeof sh), sizeof sh);
    if (sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) {
      if (sh.sh_size != 0) { base_.reset(); error_ = "code object has relocations"; return; }
    }
    if (sh.sh_type != SHT_SYMTAB) continue;
    Elf64_Shdr strtab;
    std::memcpy(&strtab, at(eh.e_shoff + sh.sh_link * sizeof strtab, sizeof strtab), sizeof strtab);
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, at(sh.sh_offset + off, sizeof sym), sizeof sym);
      const char* name = at(strtab.sh_offset + sym.st_name, 1);
      if (name == nullptr) continue;
      const std::string n(name);
      if (n.size() > 3 && n.compare(n.size() - 3, 3, ".kd") == 0) {
        kd_[n.substr(0, n.size() - 3)] = reinterpret_cast<uintptr_t>(base_.get()) + sym.st_value;
      }
    }
  }
}

uint64_t CodeObject::kernel_object(const std::string& kernel) const {
  auto it = kd_.find(kernel);
  return it == kd_.end() ? 0 : it->second;
}

hsa_kernel_dispatch_packet_t one_dimension_dispatch(uint64_t kernel_object, void* kernarg, uint32_t grid,
                                                    uint16_t work_group) {
  gpu::isa::KernelDescriptor kd{};
  std::memcpy(&kd, reinterpret_cast<const void*>(static_cast<uintptr_t>(kernel_object)), sizeof kd);
  hsa_kernel_dispatch_packet_t p{};
  p.header = HSA_PACKET_TYPE_KERNEL_DISPATCH;
  p.setup = 1;
  p.workgroup_size_x = work_group;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = grid;
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = kernel_object;
  p.kernarg_address = kernarg;
  p.group_segment_size = kd.group_segment_fixed_size;
  p.private_segment_size = kd.private_segment_fixed_size;
  return p;
}

}  // namespace rocref::test
