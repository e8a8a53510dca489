// hsa/loader_extension.cpp - hsa_ven_amd_loader_* over the loader's registry (see loader_extension.h).
#include "hsa/loader_extension.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "hsa/agent.h"
#include "hsa/executable_registry.h"
#include "hsa/info_value.h"
#include "hsa/runtime.h"

namespace rocref::hsa {
namespace {

using registry::registry_mutex;

hsa_status_t query_host_address(const void* device_address, const void** host_address) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (device_address == nullptr || host_address == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  for (Executable* e : registry::executables()) {
    if (uint64_t host = e->host_address(reinterpret_cast<uint64_t>(device_address)); host != 0) {
      *host_address = reinterpret_cast<const void*>(host);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// ROCR's two-call protocol: *count 0 with no array asks for the count; otherwise the array must
// hold exactly that many descriptors (INCOMPATIBLE_ARGUMENTS).
hsa_status_t query_segment_descriptors(hsa_ven_amd_loader_segment_descriptor_t* descriptors, size_t* count) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (count == nullptr || (*count == 0) != (descriptors == nullptr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  std::vector<const LoadedCodeObject*> objects;
  for (Executable* e : registry::executables()) {
    for (const LoadedCodeObject* o : e->loaded_code_objects()) objects.push_back(o);
  }
  if (*count == 0) {
    *count = objects.size();
    return HSA_STATUS_SUCCESS;
  }
  if (*count != objects.size()) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  for (size_t i = 0; i < objects.size(); ++i) {
    const LoadedCodeObject& o = *objects[i];
    descriptors[i].agent = o.agent->handle();
    descriptors[i].executable = hsa_executable_t{reinterpret_cast<uint64_t>(o.owner)};
    descriptors[i].code_object_storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
    descriptors[i].code_object_storage_base = o.elf.data();
    descriptors[i].code_object_storage_size = o.elf.size();
    descriptors[i].code_object_storage_offset = o.storage_offset;
    descriptors[i].segment_base = reinterpret_cast<void*>(o.load_base);
    descriptors[i].segment_size = o.load_size;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t query_executable(const void* device_address, hsa_executable_t* executable) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (device_address == nullptr || executable == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  for (Executable* e : registry::executables()) {
    if (e->host_address(reinterpret_cast<uint64_t>(device_address)) != 0) {
      executable->handle = reinterpret_cast<uint64_t>(e);
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t iterate_loaded_code_objects(hsa_executable_t executable,
                                         hsa_status_t (*callback)(hsa_executable_t, hsa_loaded_code_object_t, void*),
                                         void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<const LoadedCodeObject*> objects;
  {
    std::lock_guard lock(registry_mutex());
    Executable* e = registry::find_executable(executable.handle);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    objects = e->loaded_code_objects();
  }
  for (const LoadedCodeObject* o : objects) {
    if (hsa_status_t s = callback(executable, hsa_loaded_code_object_t{reinterpret_cast<uint64_t>(o)}, data);
        s != HSA_STATUS_SUCCESS) {
      return s;
    }
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t loaded_code_object_get_info(hsa_loaded_code_object_t handle,
                                         hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  const LoadedCodeObject* o = registry::find_loaded_code_object(handle.handle);
  if (o == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
      return put_info(value, hsa_executable_t{reinterpret_cast<uint64_t>(o->owner)});
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      return put_info<uint32_t>(value, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT: return put_info(value, o->agent->handle());
    // ROCR records neither the file nor the storage kind: memory, the bytes it loaded.
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      return put_info<uint32_t>(value, HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
      return put_info(value, reinterpret_cast<uint64_t>(o->elf.data()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
      return put_info<uint64_t>(value, o->elf.size());
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
      return put_info<int64_t>(value, static_cast<int64_t>(o->load_base));  // the image's vaddr 0 is at load_base
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE: return put_info(value, o->load_base);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE: return put_info(value, o->load_size);
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
      return put_info<uint32_t>(value, static_cast<uint32_t>(o->uri.size()));
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
      std::memcpy(value, o->uri.data(), o->uri.size());  // no terminator, as ROCR
      return HSA_STATUS_SUCCESS;
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // CODE_OBJECT_STORAGE_FILE included, as ROCR
  }
}

hsa_status_t reader_from_file_with_offset_size(hsa_file_t file, size_t offset, size_t size,
                                               hsa_code_object_reader_t* reader) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  return create_reader_from_file(file, offset, size, reader);
}

hsa_status_t iterate_executables(hsa_status_t (*callback)(hsa_executable_t, void*), void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<Executable*> executables;
  {
    std::lock_guard lock(registry_mutex());
    executables = registry::executables();
  }
  for (Executable* e : executables) {
    if (hsa_status_t s = callback(hsa_executable_t{reinterpret_cast<uint64_t>(e)}, data); s != HSA_STATUS_SUCCESS) {
      return s;
    }
  }
  return HSA_STATUS_SUCCESS;
}

// ROCR's file URI: "file://" and the path with every byte outside [A-Za-z0-9/-_.~] as %XX.
std::string file_uri(hsa_file_t file, size_t offset, size_t size, bool whole_file) {
  char path[4096] = {};
  const std::string link = "/proc/self/fd/" + std::to_string(file);
  if (readlink(link.c_str(), path, sizeof path - 1) <= 0) return {};
  std::string uri = "file://";
  for (const char* c = path; *c != '\0'; ++c) {
    const auto byte = static_cast<unsigned char>(*c);
    if (std::isalnum(byte) || std::strchr("/-_.~", byte) != nullptr) {
      uri += *c;
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", byte);
      uri += escaped;
    }
  }
  if (!whole_file) uri += "#offset=" + std::to_string(offset) + "&size=" + std::to_string(size);
  return uri;
}

}  // namespace

hsa_status_t create_reader_from_file(hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t* reader) {
  if (file == -1) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const off_t end = lseek(file, 0, SEEK_END);
  if (end == static_cast<off_t>(-1)) return HSA_STATUS_ERROR_INVALID_FILE;
  if (static_cast<size_t>(end) <= offset) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (size == 0) size = static_cast<size_t>(end) - offset;
  auto object = std::make_unique<CodeObjectReader>();
  object->bytes.resize(size);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pread(file, object->bytes.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n <= 0) return HSA_STATUS_ERROR_INVALID_FILE;  // ROCR maps the range: past the end is unreadable
    done += static_cast<size_t>(n);
  }
  object->uri = file_uri(file, offset, size, offset == 0 && size == static_cast<size_t>(end));
  std::lock_guard lock(registry_mutex());
  reader->handle = registry::add_reader(std::move(object));
  return HSA_STATUS_SUCCESS;
}

void fill_loader_table(hsa_ven_amd_loader_1_03_pfn_t* table) {
  table->hsa_ven_amd_loader_query_host_address = query_host_address;
  table->hsa_ven_amd_loader_query_segment_descriptors = query_segment_descriptors;
  table->hsa_ven_amd_loader_query_executable = query_executable;
  table->hsa_ven_amd_loader_executable_iterate_loaded_code_objects = iterate_loaded_code_objects;
  table->hsa_ven_amd_loader_loaded_code_object_get_info = loaded_code_object_get_info;
  table->hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size = reader_from_file_with_offset_size;
  table->hsa_ven_amd_loader_iterate_executables = iterate_executables;
}

}  // namespace rocref::hsa
