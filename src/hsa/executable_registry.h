// hsa/executable_registry.h - the loader's handles: code object readers, executables, their symbols
// and loaded code objects are object addresses, checked against these lists before any use.
//
// Shared by the loader's C entry points (api_executable.cpp) and the AMD loader extension
// (loader_extension.cpp). Callers hold registry_mutex() across a lookup and its use.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "hsa/executable.h"

namespace rocref::hsa::registry {

std::mutex& registry_mutex();

uint64_t add_reader(std::unique_ptr<CodeObjectReader> reader);
CodeObjectReader* find_reader(uint64_t handle);
void remove_reader(const CodeObjectReader* reader);

uint64_t add_executable(std::unique_ptr<Executable> executable);
Executable* find_executable(uint64_t handle);
void remove_executable(const Executable* executable);
// In creation order (hsa_ven_amd_loader_iterate_executables).
std::vector<Executable*> executables();

// A symbol or loaded code object of a live executable, or nullptr; *owner names that executable.
const ExecutableSymbol* find_symbol(uint64_t handle, Executable** owner);
const LoadedCodeObject* find_loaded_code_object(uint64_t handle);

}  // namespace rocref::hsa::registry
