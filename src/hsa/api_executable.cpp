// hsa/api_executable.cpp - C entry points of the loader: code object readers, executables, symbols (HSA-LOAD-*).
#include <hsa/hsa.h>

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hsa/agent.h"
#include "hsa/executable.h"
#include "hsa/executable_registry.h"
#include "hsa/info_value.h"
#include "hsa/loader_extension.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::CodeObjectReader;
using rocref::hsa::Executable;
using rocref::hsa::ExecutableSymbol;
using rocref::hsa::put_info;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

using rocref::hsa::registry::find_executable;
using rocref::hsa::registry::find_reader;
using rocref::hsa::registry::find_symbol;
using rocref::hsa::registry::registry_mutex;

namespace {

// ROCR's URI of a code object read from memory (hsa_ven_amd_loader.h's memory_uri).
std::string memory_uri(const void* memory, size_t size) {
  char text[96];
  std::snprintf(text, sizeof text, "memory://%d#offset=0x%" PRIxPTR "&size=%zu", static_cast<int>(getpid()),
                reinterpret_cast<uintptr_t>(memory), size);
  return text;
}

// The symbols of a live executable, copied out under the registry's lock (callbacks run without it).
bool symbols_of(hsa_executable_t executable, std::vector<const ExecutableSymbol*>* out) {
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return false;
  *out = e->symbols();
  return true;
}

}  // namespace

extern "C" {

hsa_status_t HSA_API hsa_code_object_reader_create_from_memory(const void* code_object, size_t size,
                                                               hsa_code_object_reader_t* code_object_reader) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (code_object == nullptr || size == 0 || code_object_reader == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto reader = std::make_unique<CodeObjectReader>();
  const auto* bytes = static_cast<const uint8_t*>(code_object);
  reader->bytes.assign(bytes, bytes + size);
  reader->uri = memory_uri(code_object, size);
  std::lock_guard lock(registry_mutex());
  code_object_reader->handle = rocref::hsa::registry::add_reader(std::move(reader));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                             hsa_code_object_reader_t* code_object_reader) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (code_object_reader == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return rocref::hsa::create_reader_from_file(file, 0, 0, code_object_reader);
}

hsa_status_t HSA_API hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(registry_mutex());
  CodeObjectReader* reader = find_reader(code_object_reader.handle);
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  rocref::hsa::registry::remove_reader(reader);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_create_alt(hsa_profile_t profile,
                                               hsa_default_float_rounding_mode_t default_float_rounding_mode,
                                               const char* options, hsa_executable_t* executable) {
  (void)options;
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (executable == nullptr || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) ||
      default_float_rounding_mode > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  auto e = std::make_unique<Executable>(profile);
  std::lock_guard lock(registry_mutex());
  executable->handle = rocref::hsa::registry::add_executable(std::move(e));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t executable_state,
                                           const char* options, hsa_executable_t* executable) {
  if (executable_state != HSA_EXECUTABLE_STATE_UNFROZEN && executable_state != HSA_EXECUTABLE_STATE_FROZEN) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, options, executable);
}

hsa_status_t HSA_API hsa_executable_destroy(hsa_executable_t executable) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  rocref::hsa::registry::remove_executable(e);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                           hsa_code_object_reader_t code_object_reader,
                                                           const char* options,
                                                           hsa_loaded_code_object_t* loaded_code_object) {
  (void)options;
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  Agent* a = rt->find_agent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  CodeObjectReader* reader = find_reader(code_object_reader.handle);
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  rocref::hsa::LoadedCodeObject* loaded = nullptr;
  if (hsa_status_t s = e->load(*rt, *a, *reader, &loaded); s != HSA_STATUS_SUCCESS) return s;
  if (loaded_code_object != nullptr) loaded_code_object->handle = reinterpret_cast<uint64_t>(loaded);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_freeze(hsa_executable_t executable, const char* options) {
  (void)options;
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  return e->freeze();
}

hsa_status_t HSA_API hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                             void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE: return put_info(value, e->profile());
    case HSA_EXECUTABLE_INFO_STATE:
      return put_info(value, e->frozen() ? HSA_EXECUTABLE_STATE_FROZEN : HSA_EXECUTABLE_STATE_UNFROZEN);
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE: return put_info(value, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t HSA_API hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char* symbol_name,
                                                       const hsa_agent_t* agent, hsa_executable_symbol_t* symbol) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (symbol_name == nullptr || symbol == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent* a = nullptr;
  if (agent != nullptr && (a = rt->find_agent(*agent)) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  const ExecutableSymbol* s = e->find(symbol_name, a);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  symbol->handle = reinterpret_cast<uint64_t>(s);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_iterate_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void* data), void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<const ExecutableSymbol*> symbols;
  if (!symbols_of(executable, &symbols)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (const ExecutableSymbol* s : symbols) {
    const hsa_status_t status = callback(executable, hsa_executable_symbol_t{reinterpret_cast<uint64_t>(s)}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                                                    hsa_executable_symbol_info_t attribute, void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  const ExecutableSymbol* s = find_symbol(executable_symbol.handle, nullptr);
  if (s == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
  const bool kernel = s->kind == HSA_SYMBOL_KIND_KERNEL;
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_TYPE: return put_info(value, s->kind);
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH: return put_info(value, static_cast<uint32_t>(s->name.size()));
    case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      std::memcpy(value, s->name.data(), s->name.size());  // no terminator, as ROCR
      return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE: return put_info(value, HSA_SYMBOL_LINKAGE_PROGRAM);
    case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION: return put_info(value, true);
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
      if (s->agent == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;  // a program variable
      return put_info(value, s->agent->handle());
    default: break;
  }
  if (kernel) {
    switch (attribute) {
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT: return put_info(value, s->address);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: return put_info(value, s->kernarg_size);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT: return put_info(value, s->kernarg_align);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: return put_info(value, s->group_segment_size);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: return put_info(value, s->private_segment_size);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK: return put_info(value, s->dynamic_call_stack);
      case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION: return put_info(value, uint32_t{0});
      default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  }
  switch (attribute) {
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS: return put_info(value, s->address);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE: return put_info(value, static_cast<uint32_t>(s->size));
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION: return put_info(value, HSA_VARIABLE_ALLOCATION_AGENT);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT: return put_info(value, HSA_VARIABLE_SEGMENT_GLOBAL);
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT: return put_info(value, uint32_t{8});
    case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST: return put_info(value, false);
    default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

// --- variables the program defines, validation, the deprecated lookups (HSA-LOAD-5) -------

namespace {

hsa_status_t define_variable(hsa_executable_t executable, const hsa_agent_t* agent, const char* name,
                             const void* address) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (name == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  Agent* a = nullptr;
  if (agent != nullptr && (a = rt->find_agent(*agent)) == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  return e->define_variable(name, a, reinterpret_cast<uint64_t>(address));
}

}  // namespace

hsa_status_t HSA_API hsa_executable_agent_global_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                                                 const char* variable_name, void* address) {
  return define_variable(executable, &agent, variable_name, address);
}

hsa_status_t HSA_API hsa_executable_readonly_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                                             const char* variable_name, void* address) {
  return define_variable(executable, &agent, variable_name, address);
}

hsa_status_t HSA_API hsa_executable_global_variable_define(hsa_executable_t executable, const char* variable_name,
                                                           void* address) {
  return define_variable(executable, nullptr, variable_name, address);
}

// ROCR's loader checks nothing more at validation: every load was checked whole already.
hsa_status_t HSA_API hsa_executable_validate(hsa_executable_t executable, uint32_t* result) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (result == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(registry_mutex());
  if (find_executable(executable.handle) == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  *result = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_validate_alt(hsa_executable_t executable, const char* options, uint32_t* result) {
  (void)options;
  return hsa_executable_validate(executable, result);
}

// Deprecated: "module::name", and the agent only for agent symbols.
hsa_status_t HSA_API hsa_executable_get_symbol(hsa_executable_t executable, const char* module_name,
                                               const char* symbol_name, hsa_agent_t agent, int32_t call_convention,
                                               hsa_executable_symbol_t* symbol) {
  (void)call_convention;
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (symbol_name == nullptr || symbol == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::string name(symbol_name);
  if (name.empty()) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  if (module_name != nullptr && *module_name != '\0') name = std::string(module_name) + "::" + name;
  bool program = false;
  {
    std::lock_guard lock(registry_mutex());
    Executable* e = find_executable(executable.handle);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    program = e->find(name, nullptr) != nullptr;
  }
  return hsa_executable_get_symbol_by_name(executable, name.c_str(), program ? nullptr : &agent, symbol);
}

hsa_status_t HSA_API hsa_executable_iterate_agent_symbols(
    hsa_executable_t executable, hsa_agent_t agent,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_agent_t agent, hsa_executable_symbol_t symbol, void* data),
    void* data) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const Agent* a = rt->find_agent(agent);
  if (a == nullptr) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::vector<const ExecutableSymbol*> symbols;
  if (!symbols_of(executable, &symbols)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (const ExecutableSymbol* s : symbols) {
    if (s->agent != a) continue;
    const hsa_status_t status =
        callback(executable, agent, hsa_executable_symbol_t{reinterpret_cast<uint64_t>(s)}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_iterate_program_symbols(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t exec, hsa_executable_symbol_t symbol, void* data), void* data) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (callback == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::vector<const ExecutableSymbol*> symbols;
  if (!symbols_of(executable, &symbols)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (const ExecutableSymbol* s : symbols) {
    if (s->agent != nullptr) continue;
    const hsa_status_t status = callback(executable, hsa_executable_symbol_t{reinterpret_cast<uint64_t>(s)}, data);
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
