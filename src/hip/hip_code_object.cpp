// hip/hip_code_object.cpp - offload bundles and AMDGPU ELF symbol tables (see hip_code_object.h).
#include "hip/hip_code_object.h"

#include <elf.h>

#include <cstring>

namespace rocref::hip {
namespace {

constexpr uint16_t kEmAmdgpu = 224;  // EM_AMDGPU
constexpr char kDescriptorSuffix[] = ".kd";

template <typename T>
bool read(const uint8_t* base, size_t size, size_t offset, T* out) {
  if (offset > size || sizeof(T) > size - offset) return false;
  std::memcpy(out, base + offset, sizeof(T));
  return true;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() > n && s.compare(s.size() - n, n, suffix) == 0;
}

// The ISA of a bundle target ("hipv4-amdgcn-amd-amdhsa--gfx900:xnack-" -> "gfx900").
std::string target_isa(const std::string& target) {
  std::string isa = target.substr(target.rfind('-') == std::string::npos ? 0 : target.rfind('-') + 1);
  if (isa.empty()) {  // a feature suffix ends in '-': take the part after the last "--"
    const size_t dd = target.rfind("--");
    isa = dd == std::string::npos ? target : target.substr(dd + 2);
  }
  return isa.substr(0, isa.find(':'));
}

}  // namespace

bool is_bundle(const void* data, size_t size) {
  return data != nullptr && (size == 0 || size >= sizeof kBundleMagic - 1) &&
         std::memcmp(data, kBundleMagic, sizeof kBundleMagic - 1) == 0;
}

bool is_elf(const void* data, size_t size) {
  return data != nullptr && (size == 0 || size >= SELFMAG) && std::memcmp(data, ELFMAG, SELFMAG) == 0;
}

size_t elf_size(const void* data) {
  if (!is_elf(data, 0)) return 0;
  Elf64_Ehdr h;
  std::memcpy(&h, data, sizeof h);
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_shentsize != sizeof(Elf64_Shdr)) return 0;
  return h.e_shoff + size_t{h.e_shnum} * h.e_shentsize;
}

bool bundle_entry(const void* bundle, size_t size, const std::string& isa, std::vector<uint8_t>* out,
                  std::string* target) {
  if (!is_bundle(bundle, size)) return false;
  const auto* base = static_cast<const uint8_t*>(bundle);
  const size_t limit = size == 0 ? SIZE_MAX : size;
  size_t at = sizeof kBundleMagic - 1;
  uint64_t entries = 0;
  if (!read(base, limit, at, &entries) || entries > 4096) return false;
  at += 8;
  const std::string wanted = isa.substr(isa.rfind('-') == std::string::npos ? 0 : isa.rfind('-') + 1);
  for (uint64_t i = 0; i < entries; ++i) {
    uint64_t offset = 0, bytes = 0, name_size = 0;
    if (!read(base, limit, at, &offset) || !read(base, limit, at + 8, &bytes) || !read(base, limit, at + 16, &name_size)) {
      return false;
    }
    at += 24;
    if (name_size > 4096 || at > limit || name_size > limit - at) return false;
    const std::string name(reinterpret_cast<const char*>(base + at), name_size);
    at += name_size;
    if (target_isa(name) != wanted.substr(0, wanted.find(':')) || bytes == 0) continue;
    if (offset > limit || bytes > limit - offset) return false;
    out->assign(base + offset, base + offset + bytes);
    *target = name;
    return true;
  }
  return false;
}

bool parse_code_object(const uint8_t* image, size_t size, CodeObject* out) {
  Elf64_Ehdr h;
  if (!is_elf(image, size) || !read(image, size, 0, &h)) return false;
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_machine != kEmAmdgpu || h.e_shentsize != sizeof(Elf64_Shdr)) return false;
  std::vector<Elf64_Shdr> sections(h.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!read(image, size, h.e_shoff + i * sizeof(Elf64_Shdr), &sections[i])) return false;
  }
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) continue;
    if (table.sh_link >= sections.size() || table.sh_entsize != sizeof(Elf64_Sym)) return false;
    const Elf64_Shdr& strings = sections[table.sh_link];
    if (strings.sh_offset > size || strings.sh_size > size - strings.sh_offset) return false;
    const char* names = reinterpret_cast<const char*>(image + strings.sh_offset);
    out->kernels.clear();
    out->globals.clear();
    for (size_t at = table.sh_offset; at + sizeof(Elf64_Sym) <= table.sh_offset + table.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      if (!read(image, size, at, &sym)) return false;
      if (sym.st_name >= strings.sh_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= sections.size()) continue;
      const std::string name(names + sym.st_name, strnlen(names + sym.st_name, strings.sh_size - sym.st_name));
      if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || name.empty()) continue;
      const Elf64_Shdr& home = sections[sym.st_shndx];
      if (sym.st_value < home.sh_addr) continue;
      const size_t offset = home.sh_offset + (sym.st_value - home.sh_addr);
      if (ends_with(name, kDescriptorSuffix)) {
        uint32_t group = 0;
        if (home.sh_type != SHT_NOBITS) read(image, size, offset, &group);
        out->kernels.push_back({name.substr(0, name.size() - 3), group});
        continue;
      }
      CodeObjectGlobal g{name, sym.st_size, std::vector<uint8_t>(sym.st_size, 0)};
      if (home.sh_type != SHT_NOBITS) {
        if (offset > size || sym.st_size > size - offset) return false;
        std::memcpy(g.init.data(), image + offset, sym.st_size);
      }
      out->globals.push_back(std::move(g));
    }
    if (table.sh_type == SHT_SYMTAB) break;  // the full table; .dynsym is the fallback
  }
  return true;
}

}  // namespace rocref::hip
