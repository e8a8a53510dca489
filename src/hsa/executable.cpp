// hsa/executable.cpp - checking, placing and relocating a gfx9 code object (see executable.h).
#include "hsa/executable.h"

#include <elf.h>
#include <hsa/amd_hsa_elf.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/code_object_metadata.h"
#include "common/trace.h"
#include "hsa/agent.h"
#include "hsa/hsa_mutant.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"

namespace rocref::hsa {
namespace {

constexpr uint16_t kEmAmdgpu = 224;             // EM_AMDGPU
constexpr uint8_t kOsAbiAmdgpuHsa = 64;         // ELFOSABI_AMDGPU_HSA
constexpr uint64_t kMaxImageSpan = 1ull << 30;  // more is no code object
constexpr uint32_t kR_Amdgpu_Abs32 = 6;         // LLVM's R_AMDGPU_ABS32 (not in amd_hsa_elf.h)
constexpr size_t kDescriptorBytes = 64;
constexpr uint16_t kUsesDynamicStack = 1u << 11;  // kernel_code_properties bit 11

template <typename T>
bool read(const std::vector<uint8_t>& image, uint64_t offset, T* out) {
  if (offset > image.size() || sizeof(T) > image.size() - offset) return false;
  std::memcpy(out, image.data() + offset, sizeof(T));
  return true;
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() > n && s.compare(s.size() - n, n, suffix) == 0;
}

struct Reloc {
  uint64_t offset;  // image address of the patched bytes
  uint32_t type;
  uint64_t symbol_value;  // st_value of a defined symbol (ABS*), 0 for RELATIVE64
  int64_t addend;
  bool external = false;  // symbol_value is the address of a variable the program defined
};

// Everything a load needs, taken from the image before anything is allocated.
struct Plan {
  std::vector<uint8_t> staging;  // the PT_LOAD segments at their vaddr, zero-filled to `span`
  uint64_t align = 4096;
  uint64_t storage_offset = 0;  // p_offset of the first PT_LOAD
  std::vector<Reloc> relocs;
  std::vector<ExecutableSymbol> symbols;  // addresses relative to the load base
};

// The defined symbols of `table` (whose names lie in section `strings`), by index.
bool read_symbols(const std::vector<uint8_t>& image, const Elf64_Shdr& table, const Elf64_Shdr& strings,
                  std::vector<std::optional<Elf64_Sym>>* out, std::vector<std::string>* names) {
  if (table.sh_entsize != sizeof(Elf64_Sym) || strings.sh_offset > image.size() ||
      strings.sh_size > image.size() - strings.sh_offset) {
    return false;
  }
  const size_t count = table.sh_size / sizeof(Elf64_Sym);
  out->assign(count, std::nullopt);
  names->assign(count, {});
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym sym;
    if (!read(image, table.sh_offset + i * sizeof sym, &sym)) return false;
    if (sym.st_name >= strings.sh_size && sym.st_name != 0) return false;
    const char* name = reinterpret_cast<const char*>(image.data() + strings.sh_offset + sym.st_name);
    (*names)[i].assign(name, strnlen(name, strings.sh_size - sym.st_name));
    (*out)[i] = sym;
  }
  return true;
}

// A variable the program defined under `name`: for `agent` (any agent when null), or for the
// whole program (its agent is null); nullptr when there is none.
const ExecutableSymbol* find_defined(const std::vector<std::unique_ptr<ExecutableSymbol>>& defined,
                                     const std::string& name, const Agent* agent) {
  for (const auto& d : defined) {
    if (d->name == name && (agent == nullptr || d->agent == nullptr || d->agent == agent)) return d.get();
  }
  return nullptr;
}

hsa_status_t plan_load(const std::vector<uint8_t>& image, const Agent& agent,
                       const std::vector<std::unique_ptr<ExecutableSymbol>>& defined, Plan* plan) {
  Elf64_Ehdr h;
  if (!read(image, 0, &h) || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 || h.e_ident[EI_CLASS] != ELFCLASS64 ||
      h.e_ident[EI_DATA] != ELFDATA2LSB || h.e_machine != kEmAmdgpu || h.e_type != ET_DYN ||
      h.e_phentsize != sizeof(Elf64_Phdr) || (h.e_shnum != 0 && h.e_shentsize != sizeof(Elf64_Shdr))) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  // Code object v3 (ABI version 1) and v4 (2), what ROCR 5.2.3 loads from hipcc 5.2.3.
  if (h.e_ident[EI_OSABI] != kOsAbiAmdgpuHsa || (h.e_ident[EI_ABIVERSION] != 1 && h.e_ident[EI_ABIVERSION] != 2)) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  if (isa_of_elf_flags(h.e_flags) != agent.name()) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;

  // PT_LOAD segments: inside the file, and their span.
  std::vector<Elf64_Phdr> loads;
  uint64_t span = 0;
  for (size_t i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr p;
    if (!read(image, h.e_phoff + i * sizeof p, &p)) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    if (p.p_type != PT_LOAD) continue;
    if (p.p_filesz > p.p_memsz || p.p_offset > image.size() || p.p_filesz > image.size() - p.p_offset ||
        p.p_vaddr > kMaxImageSpan || p.p_memsz > kMaxImageSpan - p.p_vaddr || p.p_align > 65536) {
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    span = std::max(span, p.p_vaddr + p.p_memsz);
    plan->align = std::max<uint64_t>(plan->align, p.p_align);
    loads.push_back(p);
  }
  if (loads.empty() || span == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  plan->storage_offset = loads.front().p_offset;
  plan->staging.assign(span, 0);
  for (const Elf64_Phdr& p : loads) {
    std::memcpy(plan->staging.data() + p.p_vaddr, image.data() + p.p_offset, p.p_filesz);
  }

  // Sections: the dynamic symbol table and the allocated relocation sections.
  std::vector<Elf64_Shdr> sections(h.e_shnum);
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!read(image, h.e_shoff + i * sizeof(Elf64_Shdr), &sections[i])) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    const Elf64_Shdr& s = sections[i];
    if (s.sh_type != SHT_NOBITS && (s.sh_offset > image.size() || s.sh_size > image.size() - s.sh_offset)) {
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
  }
  auto table_of = [&](uint32_t type) -> const Elf64_Shdr* {
    for (const Elf64_Shdr& s : sections) {
      if (s.sh_type == type) return &s;
    }
    return nullptr;
  };
  const Elf64_Shdr* symtab = table_of(SHT_DYNSYM);
  if (symtab == nullptr) symtab = table_of(SHT_SYMTAB);
  if (symtab == nullptr || symtab->sh_link >= sections.size()) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  std::vector<std::optional<Elf64_Sym>> syms;
  std::vector<std::string> names;
  if (!read_symbols(image, *symtab, sections[symtab->sh_link], &syms, &names)) {
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }

  std::vector<code_object::KernelMetadata> metadata;
  const bool have_metadata = code_object::read_kernel_metadata(image.data(), image.size(), &metadata);
  for (size_t i = 0; i < syms.size(); ++i) {
    const Elf64_Sym& sym = *syms[i];
    if (sym.st_shndx == SHN_UNDEF || names[i].empty() || ELF64_ST_TYPE(sym.st_info) != STT_OBJECT ||
        ELF64_ST_BIND(sym.st_info) == STB_LOCAL) {
      continue;
    }
    if (sym.st_value > span || sym.st_size > span - sym.st_value) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    ExecutableSymbol s;
    s.name = names[i];
    s.agent = const_cast<Agent*>(&agent);
    s.address = sym.st_value;
    s.size = sym.st_size;
    if (ends_with(s.name, ".kd")) {
      if (sym.st_value > span - kDescriptorBytes) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      const uint8_t* kd = plan->staging.data() + sym.st_value;
      uint16_t properties = 0;
      std::memcpy(&s.group_segment_size, kd + 0, 4);
      std::memcpy(&s.private_segment_size, kd + 4, 4);
      std::memcpy(&s.kernarg_size, kd + 8, 4);
      std::memcpy(&properties, kd + 56, 2);
      s.dynamic_call_stack = (properties & kUsesDynamicStack) != 0;
      s.kind = HSA_SYMBOL_KIND_KERNEL;
      s.size = 0;
      if (have_metadata) {
        for (const code_object::KernelMetadata& m : metadata) {
          if (m.symbol != s.name) continue;
          s.kernarg_size = m.kernarg_segment_size;
          s.kernarg_align = m.kernarg_segment_align;
        }
      }
    }
    plan->symbols.push_back(std::move(s));
  }

  // Dynamic relocations (SHF_ALLOC RELA sections): types ROCR 5.2.3 applies, targets inside the image.
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_type == SHT_REL && (s.sh_flags & SHF_ALLOC) && s.sh_size != 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    if (s.sh_type != SHT_RELA || !(s.sh_flags & SHF_ALLOC)) continue;
    if (s.sh_entsize != sizeof(Elf64_Rela) || s.sh_link >= sections.size() ||
        sections[s.sh_link].sh_link >= sections.size()) {
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    std::vector<std::optional<Elf64_Sym>> rsyms;
    std::vector<std::string> rnames;
    if (s.sh_link != 0 &&
        !read_symbols(image, sections[s.sh_link], sections[sections[s.sh_link].sh_link], &rsyms, &rnames)) {
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    for (uint64_t at = 0; at + sizeof(Elf64_Rela) <= s.sh_size; at += sizeof(Elf64_Rela)) {
      Elf64_Rela r;
      if (!read(image, s.sh_offset + at, &r)) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      const uint32_t type = ELF64_R_TYPE(r.r_info);
      const uint64_t index = ELF64_R_SYM(r.r_info);
      if (type == R_AMDGPU_NONE) continue;
      uint64_t width = 0;
      switch (type) {
        case R_AMDGPU_32_LOW:
        case R_AMDGPU_32_HIGH:
        case kR_Amdgpu_Abs32: width = 4; break;
        case R_AMDGPU_64:
        case R_AMDGPU_RELATIVE64: width = 8; break;
        default: return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;  // as ROCR's ApplyDynamicRelocation
      }
      if (r.r_offset > span || width > span - r.r_offset) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      Reloc reloc{r.r_offset, type, 0, r.r_addend};
      if (type != R_AMDGPU_RELATIVE64) {
        if (index == 0 || index >= rsyms.size()) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
        if (rsyms[index]->st_shndx == SHN_UNDEF) {
          const ExecutableSymbol* d = find_defined(defined, rnames[index], &agent);
          if (d == nullptr) return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
          reloc.external = true;
          reloc.symbol_value = d->address;
        } else {
          reloc.symbol_value = rsyms[index]->st_value;
        }
      }
      plan->relocs.push_back(reloc);
    }
  }
  return HSA_STATUS_SUCCESS;
}

MemoryRegion* device_local_region(const Agent& agent) {
  for (const auto& region : agent.owned_regions()) {
    if (region->kind() == MemoryRegion::Kind::DeviceLocal) return region.get();
  }
  return nullptr;
}

}  // namespace

std::string isa_of_elf_flags(uint32_t e_flags) {
  using namespace ELF;
  switch (e_flags & EF_AMDGPU_MACH) {
    case EF_AMDGPU_MACH_AMDGCN_GFX900: return "gfx900";
    case EF_AMDGPU_MACH_AMDGCN_GFX902: return "gfx902";
    case EF_AMDGPU_MACH_AMDGCN_GFX904: return "gfx904";
    case EF_AMDGPU_MACH_AMDGCN_GFX906: return "gfx906";
    case EF_AMDGPU_MACH_AMDGCN_GFX908: return "gfx908";
    case EF_AMDGPU_MACH_AMDGCN_GFX1030: return "gfx1030";
    default: return "";
  }
}

Executable::~Executable() {
  // After the last hsa_shut_down the runtime freed every allocation itself.
  if (runtime_ == nullptr || Runtime::get() != runtime_) return;
  for (const Segment& s : segments_) runtime_->free(s.allocation);
}

bool Executable::frozen() const {
  std::lock_guard lock(mutex_);
  return frozen_;
}

hsa_status_t Executable::load(Runtime& runtime, Agent& agent, const CodeObjectReader& reader,
                              LoadedCodeObject** loaded) {
  const std::vector<uint8_t>& image = reader.bytes;
  ROCREF_TRACE_SPAN(trace::Layer::Hsa, "hsa_executable_load_agent_code_object",
                    std::to_string(image.size()) + " bytes");
  std::lock_guard lock(mutex_);
  if (frozen_) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  Plan plan;
  if (hsa_status_t s = plan_load(image, agent, defined_, &plan); s != HSA_STATUS_SUCCESS) return s;
  MemoryRegion* region = device_local_region(agent);
  if (region == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  // One allocation, its base aligned to the largest p_align: relative layout kept.
  void* allocation = nullptr;
  const uint64_t extra = plan.align > MemoryRegion::kGranule ? plan.align - MemoryRegion::kGranule : 0;
  if (hsa_status_t s = runtime.allocate(*region, plan.staging.size() + extra, &allocation); s != HSA_STATUS_SUCCESS) {
    return s;
  }
  const uint64_t base = (reinterpret_cast<uint64_t>(allocation) + plan.align - 1) & ~(plan.align - 1);
  auto* memory = reinterpret_cast<uint8_t*>(base);
  std::memcpy(memory, plan.staging.data(), plan.staging.size());
  if (!hsa_mutant_active(HsaMutant::LoaderRelocationsSkipped)) {
    for (const Reloc& r : plan.relocs) {
      const uint64_t symbol = (r.external ? 0 : base) + r.symbol_value + static_cast<uint64_t>(r.addend);
      uint64_t value64 = 0;
      uint32_t value32 = 0;
      switch (r.type) {
        case R_AMDGPU_64: value64 = symbol; break;
        case R_AMDGPU_RELATIVE64: value64 = base + static_cast<uint64_t>(r.addend); break;
        case R_AMDGPU_32_LOW: value32 = static_cast<uint32_t>(symbol); break;
        case R_AMDGPU_32_HIGH: value32 = static_cast<uint32_t>(symbol >> 32); break;
        default: value32 = static_cast<uint32_t>(symbol); break;  // ABS32
      }
      if (r.type == R_AMDGPU_64 || r.type == R_AMDGPU_RELATIVE64) {
        std::memcpy(memory + r.offset, &value64, 8);
      } else {
        std::memcpy(memory + r.offset, &value32, 4);
      }
    }
  }
  for (ExecutableSymbol& s : plan.symbols) {
    if (!(s.kind == HSA_SYMBOL_KIND_KERNEL && hsa_mutant_active(HsaMutant::LoaderKernelObjectWithoutBase))) {
      s.address += base;
    }
  }
  auto object = std::make_unique<LoadedCodeObject>();
  object->owner = this;
  object->agent = &agent;
  object->elf = image;
  object->storage_offset = plan.storage_offset;
  object->load_base = base;
  object->load_size = plan.staging.size();
  if (hsa_mutant_active(HsaMutant::LoaderHostCopyBeforeRelocation)) {
    object->host_copy = plan.staging;
  } else {
    object->host_copy.assign(memory, memory + plan.staging.size());
  }
  object->uri = reader.uri;
  runtime_ = &runtime;
  segments_.push_back(Segment{allocation});
  loaded_.push_back(std::move(plan.symbols));
  if (loaded != nullptr) *loaded = object.get();
  code_objects_.push_back(std::move(object));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t Executable::define_variable(const std::string& name, Agent* agent, uint64_t address) {
  std::lock_guard lock(mutex_);
  if (frozen_) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  for (const auto& d : defined_) {
    if (d->name == name && d->agent == agent) return HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
  }
  auto symbol = std::make_unique<ExecutableSymbol>();
  symbol->name = name;
  symbol->agent = agent;
  symbol->address = address;
  defined_.push_back(std::move(symbol));
  return HSA_STATUS_SUCCESS;
}

std::vector<const LoadedCodeObject*> Executable::loaded_code_objects() const {
  std::lock_guard lock(mutex_);
  std::vector<const LoadedCodeObject*> out;
  for (const auto& o : code_objects_) out.push_back(o.get());
  return out;
}

bool Executable::owns(const LoadedCodeObject* object) const {
  std::lock_guard lock(mutex_);
  return std::any_of(code_objects_.begin(), code_objects_.end(), [&](const auto& o) { return o.get() == object; });
}

uint64_t Executable::host_address(uint64_t device_address) const {
  std::lock_guard lock(mutex_);
  for (const auto& o : code_objects_) {
    if (device_address >= o->load_base && device_address - o->load_base < o->load_size) {
      return reinterpret_cast<uint64_t>(o->host_copy.data()) + (device_address - o->load_base);
    }
  }
  return 0;
}

hsa_status_t Executable::freeze() {
  std::lock_guard lock(mutex_);
  if (frozen_) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  frozen_ = true;
  return HSA_STATUS_SUCCESS;
}

const ExecutableSymbol* Executable::find(const std::string& name, const Agent* agent) const {
  std::lock_guard lock(mutex_);
  for (const auto& list : loaded_) {
    for (const ExecutableSymbol& s : list) {
      if (agent != nullptr && s.name == name && s.agent == agent) return &s;
    }
  }
  // Without an agent, ROCR looks among program symbols only: the program variables defined here.
  if (agent == nullptr) {
    for (const auto& d : defined_) {
      if (d->name == name && d->agent == nullptr) return d.get();
    }
    return nullptr;
  }
  return find_defined(defined_, name, agent);
}

std::vector<const ExecutableSymbol*> Executable::symbols() const {
  std::lock_guard lock(mutex_);
  std::vector<const ExecutableSymbol*> out;
  for (const auto& list : loaded_) {
    for (const ExecutableSymbol& s : list) out.push_back(&s);
  }
  for (const auto& d : defined_) out.push_back(d.get());
  return out;
}

bool Executable::owns(const ExecutableSymbol* symbol) const {
  std::lock_guard lock(mutex_);
  for (const auto& list : loaded_) {
    for (const ExecutableSymbol& s : list) {
      if (&s == symbol) return true;
    }
  }
  return std::any_of(defined_.begin(), defined_.end(), [&](const auto& d) { return d.get() == symbol; });
}

}  // namespace rocref::hsa
