// common/code_object_metadata.cpp - the NT_AMDGPU_METADATA note through msgpack-c (see code_object_metadata.h).
#include "common/code_object_metadata.h"

#include <elf.h>

#include <cstring>

#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

namespace rocref::code_object {
namespace {

template <typename T>
bool read(const uint8_t* base, size_t size, size_t offset, T* out) {
  if (offset > size || sizeof(T) > size - offset) return false;
  std::memcpy(out, base + offset, sizeof(T));
  return true;
}

const msgpack::object* field(const msgpack::object& map, const char* key) {
  if (map.type != msgpack::type::MAP) return nullptr;
  for (uint32_t i = 0; i < map.via.map.size; ++i) {
    const msgpack::object_kv& kv = map.via.map.ptr[i];
    if (kv.key.type == msgpack::type::STR && kv.key.via.str.size == std::strlen(key) &&
        std::memcmp(kv.key.via.str.ptr, key, kv.key.via.str.size) == 0) {
      return &kv.val;
    }
  }
  return nullptr;
}

bool get_u32(const msgpack::object& map, const char* key, uint32_t* out, bool required) {
  const msgpack::object* v = field(map, key);
  if (v == nullptr) return !required;
  if (v->type != msgpack::type::POSITIVE_INTEGER || v->via.u64 > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(v->via.u64);
  return true;
}

bool get_str(const msgpack::object& map, const char* key, std::string* out, bool required) {
  const msgpack::object* v = field(map, key);
  if (v == nullptr) return !required;
  if (v->type != msgpack::type::STR) return false;
  out->assign(v->via.str.ptr, v->via.str.size);
  return true;
}

// The descriptor of the first "AMDGPU" note of type NT_AMDGPU_METADATA in [at, at + bytes).
bool find_note(const uint8_t* image, size_t size, size_t at, size_t bytes, const uint8_t** desc, size_t* desc_size) {
  if (at > size || bytes > size - at) return false;
  const size_t end = at + bytes;
  while (at + sizeof(Elf64_Nhdr) <= end) {
    Elf64_Nhdr n;
    if (!read(image, size, at, &n)) return false;
    const size_t name_at = at + sizeof n;
    const size_t desc_at = name_at + ((size_t{n.n_namesz} + 3) & ~size_t{3});
    const size_t next = desc_at + ((size_t{n.n_descsz} + 3) & ~size_t{3});
    if (desc_at > end || n.n_descsz > end - desc_at) return false;
    if (n.n_type == kNoteAmdgpuMetadata && n.n_namesz == 7 && std::memcmp(image + name_at, "AMDGPU", 7) == 0) {
      *desc = image + desc_at;
      *desc_size = n.n_descsz;
      return true;
    }
    at = next;
  }
  return false;
}

}  // namespace

bool parse_metadata_msgpack(const uint8_t* bytes, size_t size, std::vector<KernelMetadata>* kernels) {
  msgpack::object_handle handle;
  try {
    handle = msgpack::unpack(reinterpret_cast<const char*>(bytes), size);
  } catch (const std::exception&) {
    return false;
  }
  const msgpack::object* list = field(handle.get(), "amdhsa.kernels");
  if (list == nullptr || list->type != msgpack::type::ARRAY) return false;
  std::vector<KernelMetadata> out;
  for (uint32_t k = 0; k < list->via.array.size; ++k) {
    const msgpack::object& entry = list->via.array.ptr[k];
    KernelMetadata m;
    if (!get_str(entry, ".name", &m.name, true) || !get_str(entry, ".symbol", &m.symbol, true) ||
        !get_u32(entry, ".kernarg_segment_size", &m.kernarg_segment_size, true) ||
        !get_u32(entry, ".kernarg_segment_align", &m.kernarg_segment_align, true) ||
        !get_u32(entry, ".group_segment_fixed_size", &m.group_segment_fixed_size, true) ||
        !get_u32(entry, ".private_segment_fixed_size", &m.private_segment_fixed_size, true) ||
        !get_u32(entry, ".max_flat_workgroup_size", &m.max_flat_workgroup_size, false)) {
      return false;
    }
    if (const msgpack::object* args = field(entry, ".args"); args != nullptr) {
      if (args->type != msgpack::type::ARRAY) return false;
      for (uint32_t a = 0; a < args->via.array.size; ++a) {
        KernelArg arg;
        const msgpack::object& o = args->via.array.ptr[a];
        if (!get_u32(o, ".offset", &arg.offset, true) || !get_u32(o, ".size", &arg.size, true) ||
            !get_str(o, ".value_kind", &arg.value_kind, true)) {
          return false;
        }
        // Every argument lies inside the kernarg segment the kernel declares.
        if (arg.offset > m.kernarg_segment_size || arg.size > m.kernarg_segment_size - arg.offset) return false;
        m.args.push_back(std::move(arg));
      }
    }
    out.push_back(std::move(m));
  }
  *kernels = std::move(out);
  return true;
}

bool read_kernel_metadata(const uint8_t* image, size_t size, std::vector<KernelMetadata>* kernels) {
  Elf64_Ehdr h;
  if (image == nullptr || !read(image, size, 0, &h) || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 ||
      h.e_phentsize != sizeof(Elf64_Phdr)) {
    return false;
  }
  for (size_t i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr p;
    if (!read(image, size, h.e_phoff + i * sizeof p, &p)) return false;
    if (p.p_type != PT_NOTE) continue;
    const uint8_t* desc = nullptr;
    size_t desc_size = 0;
    if (find_note(image, size, p.p_offset, p.p_filesz, &desc, &desc_size)) {
      return parse_metadata_msgpack(desc, desc_size, kernels);
    }
  }
  return false;
}

}  // namespace rocref::code_object
