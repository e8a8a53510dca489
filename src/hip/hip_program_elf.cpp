// hip/hip_program_elf.cpp - sections and object symbols of the loaded ELF files (see hip_program_elf.h).
#include "hip/hip_program_elf.h"

#include <dlfcn.h>
#include <elf.h>

#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

namespace rocref::hip {
namespace {

struct Section {
  std::string name;
  uint64_t address = 0;  // link-time address
  uint64_t size = 0;
};

struct ElfFile {
  bool position_independent = false;
  std::vector<Section> sections;
  std::map<uint64_t, uint64_t> objects;  // link-time address -> size
};

template <typename T>
bool read_at(std::ifstream& file, uint64_t offset, T* out, size_t count = 1) {
  file.seekg(static_cast<std::streamoff>(offset));
  return static_cast<bool>(file.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(sizeof(T) * count)));
}

ElfFile parse(const std::string& path) {
  ElfFile elf;
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr h{};
  if (!file || !read_at(file, 0, &h)) return elf;
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 || h.e_ident[EI_CLASS] != ELFCLASS64) return elf;
  if (h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shnum == 0 || h.e_shstrndx >= h.e_shnum) return elf;
  elf.position_independent = h.e_type == ET_DYN;
  std::vector<Elf64_Shdr> headers(h.e_shnum);
  if (!read_at(file, h.e_shoff, headers.data(), headers.size())) return elf;
  std::string names(headers[h.e_shstrndx].sh_size, '\0');
  if (!read_at(file, headers[h.e_shstrndx].sh_offset, names.data(), names.size())) return elf;
  for (const Elf64_Shdr& s : headers) {
    if ((s.sh_flags & SHF_ALLOC) == 0 || s.sh_name >= names.size()) continue;
    elf.sections.push_back({std::string(names.c_str() + s.sh_name), s.sh_addr, s.sh_size});
  }
  // Object symbols: the full table when present, else the dynamic one.
  for (uint32_t wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const Elf64_Shdr& table : headers) {
      if (table.sh_type != wanted || table.sh_entsize != sizeof(Elf64_Sym) || table.sh_link >= headers.size()) continue;
      std::vector<Elf64_Sym> symbols(table.sh_size / sizeof(Elf64_Sym));
      if (!read_at(file, table.sh_offset, symbols.data(), symbols.size())) continue;
      for (const Elf64_Sym& sym : symbols) {
        if (ELF64_ST_TYPE(sym.st_info) == STT_OBJECT && sym.st_shndx != SHN_UNDEF && sym.st_size != 0) {
          elf.objects.emplace(sym.st_value, sym.st_size);
        }
      }
    }
    if (!elf.objects.empty()) break;
  }
  return elf;
}

// The parsed file holding `address` and the address's link-time value.
const ElfFile* file_of(const void* address, uint64_t* link_address) {
  static std::mutex mutex;
  static std::map<std::string, ElfFile> files;
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  // The main program's name as dladdr gives it is argv[0], maybe relative: read it through /proc.
  std::string path = info.dli_fname;
  if (path.empty() || path[0] != '/') path = "/proc/self/exe";
  std::lock_guard lock(mutex);
  auto it = files.find(path);
  if (it == files.end()) it = files.emplace(path, parse(path)).first;
  // Position-independent files are linked at 0: their addresses are offsets from the load base.
  *link_address = reinterpret_cast<uintptr_t>(address) -
                  (it->second.position_independent ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0);
  return &it->second;  // map nodes are stable
}

}  // namespace

std::string program_section(const void* address) {
  uint64_t link = 0;
  const ElfFile* elf = file_of(address, &link);
  if (elf == nullptr) return "";
  for (const Section& s : elf->sections) {
    if (link >= s.address && link - s.address < s.size) return s.name;
  }
  return "";
}

bool program_object(const void* address, size_t* size) {
  uint64_t link = 0;
  const ElfFile* elf = file_of(address, &link);
  if (elf == nullptr) return false;
  auto it = elf->objects.find(link);
  if (it == elf->objects.end()) return false;
  *size = it->second;
  return true;
}

}  // namespace rocref::hip
