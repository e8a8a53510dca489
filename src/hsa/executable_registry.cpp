// hsa/executable_registry.cpp - the loader's handle lists (see executable_registry.h).
#include "hsa/executable_registry.h"

#include <algorithm>

namespace rocref::hsa::registry {
namespace {

// Never destroyed: programs destroy executables from their own exit handlers, in any order with ours.
std::mutex& g_mutex = *new std::mutex;
std::vector<std::unique_ptr<CodeObjectReader>>& g_readers = *new std::vector<std::unique_ptr<CodeObjectReader>>;
std::vector<std::unique_ptr<Executable>>& g_executables = *new std::vector<std::unique_ptr<Executable>>;

}  // namespace

std::mutex& registry_mutex() { return g_mutex; }

uint64_t add_reader(std::unique_ptr<CodeObjectReader> reader) {
  const auto handle = reinterpret_cast<uint64_t>(reader.get());
  g_readers.push_back(std::move(reader));
  return handle;
}

CodeObjectReader* find_reader(uint64_t handle) {
  for (auto& r : g_readers) {
    if (reinterpret_cast<uint64_t>(r.get()) == handle) return r.get();
  }
  return nullptr;
}

void remove_reader(const CodeObjectReader* reader) {
  std::erase_if(g_readers, [&](const auto& r) { return r.get() == reader; });
}

uint64_t add_executable(std::unique_ptr<Executable> executable) {
  const auto handle = reinterpret_cast<uint64_t>(executable.get());
  g_executables.push_back(std::move(executable));
  return handle;
}

Executable* find_executable(uint64_t handle) {
  for (auto& e : g_executables) {
    if (reinterpret_cast<uint64_t>(e.get()) == handle) return e.get();
  }
  return nullptr;
}

void remove_executable(const Executable* executable) {
  std::erase_if(g_executables, [&](const auto& e) { return e.get() == executable; });
}

std::vector<Executable*> executables() {
  std::vector<Executable*> out;
  for (auto& e : g_executables) out.push_back(e.get());
  return out;
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

const LoadedCodeObject* find_loaded_code_object(uint64_t handle) {
  const auto* object = reinterpret_cast<const LoadedCodeObject*>(handle);
  for (auto& e : g_executables) {
    if (e->owns(object)) return object;
  }
  return nullptr;
}

}  // namespace rocref::hsa::registry
