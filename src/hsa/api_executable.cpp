// hsa/api_executable.cpp - C entry points of the loader: code object readers, executables, symbols (HSA-LOAD-*).
#include <hsa/hsa.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "hsa/agent.h"
#include "hsa/executable.h"
#include "hsa/info_value.h"
#include "hsa/runtime.h"

using rocref::hsa::Agent;
using rocref::hsa::CodeObjectReader;
using rocref::hsa::Executable;
using rocref::hsa::ExecutableSymbol;
using rocref::hsa::put_info;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;

namespace {

// Handles are object addresses, checked against these lists before any use. Never destroyed:
// programs destroy executables from their own exit handlers, in any order with ours.
std::mutex& g_mutex = *new std::mutex;
std::vector<std::unique_ptr<CodeObjectReader>>& g_readers = *new std::vector<std::unique_ptr<CodeObjectReader>>;
std::vector<std::unique_ptr<Executable>>& g_executables = *new std::vector<std::unique_ptr<Executable>>;

CodeObjectReader* find_reader(uint64_t handle) {
  for (auto& r : g_readers) {
    if (reinterpret_cast<uint64_t>(r.get()) == handle) return r.get();
  }
  return nullptr;
}

Executable* find_executable(uint64_t handle) {
  for (auto& e : g_executables) {
    if (reinterpret_cast<uint64_t>(e.get()) == handle) return e.get();
  }
  return nullptr;
}

const ExecutableSymbol* find_symbol(uint64_t handle, Executable** owner) {
  const auto* symbol = reinterpret_cast<const ExecutableSymbol*>(handle);
  for (auto& e : g_executables) {
    if (e->owns(symbol)) {
      if (owner != nullptr) *owner = e.get();
      return symbol;
    }
  }
  return nullptr;
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
  std::lock_guard lock(g_mutex);
  code_object_reader->handle = reinterpret_cast<uint64_t>(reader.get());
  g_readers.push_back(std::move(reader));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(g_mutex);
  CodeObjectReader* reader = find_reader(code_object_reader.handle);
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  std::erase_if(g_readers, [&](const auto& r) { return r.get() == reader; });
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
  std::lock_guard lock(g_mutex);
  executable->handle = reinterpret_cast<uint64_t>(e.get());
  g_executables.push_back(std::move(e));
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
  std::lock_guard lock(g_mutex);
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  std::erase_if(g_executables, [&](const auto& x) { return x.get() == e; });
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
  std::lock_guard lock(g_mutex);
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  CodeObjectReader* reader = find_reader(code_object_reader.handle);
  if (reader == nullptr) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  if (hsa_status_t s = e->load(*rt, *a, reader->bytes); s != HSA_STATUS_SUCCESS) return s;
  if (loaded_code_object != nullptr) loaded_code_object->handle = reinterpret_cast<uint64_t>(reader);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t HSA_API hsa_executable_freeze(hsa_executable_t executable, const char* options) {
  (void)options;
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(g_mutex);
  Executable* e = find_executable(executable.handle);
  if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  return e->freeze();
}

hsa_status_t HSA_API hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                                             void* value) {
  if (runtime() == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (value == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::lock_guard lock(g_mutex);
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
  std::lock_guard lock(g_mutex);
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
  {
    std::lock_guard lock(g_mutex);
    Executable* e = find_executable(executable.handle);
    if (e == nullptr) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
    symbols = e->symbols();
  }
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
  std::lock_guard lock(g_mutex);
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
    case HSA_EXECUTABLE_SYMBOL_INFO_AGENT: return put_info(value, s->agent->handle());
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

}  // extern "C"
