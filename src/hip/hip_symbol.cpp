// hip/hip_symbol.cpp - the symbol API over known __device__ variables (HIP-SYM-1).
//
// A host-compiled __device__ variable is a host global that kernels use in
// place: its size comes from the program's symbol table.
// Variables of hipcc-built programs are the variables inside their loaded code object.
// An unknown symbol is hipErrorInvalidSymbol; a range past its end hipErrorInvalidValue.
#include "hip/hip_symbol.h"

#include <mutex>
#include <unordered_map>

#include "hip/hip_function.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_program_elf.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace rocref::hip {
namespace {

std::mutex g_symbols_mutex;
std::unordered_map<const void*, Symbol> g_symbols;

}  // namespace

void add_symbol(const void* key, Symbol symbol) {
  std::lock_guard lock(g_symbols_mutex);
  g_symbols.emplace(key, symbol);
}

void remove_symbol(const void* key) {
  std::lock_guard lock(g_symbols_mutex);
  // Unregistration runs at exit: a device copy the runtime made is left to the process's end.
  g_symbols.erase(key);
}

std::optional<Symbol> find_symbol(const void* key) {
  std::lock_guard lock(g_symbols_mutex);
  auto it = g_symbols.find(key);
  if (it == g_symbols.end()) {
    // A host-compiled __device__ variable: a data object of the program, its own device copy.
    size_t size = 0;
    if (!program_object(key, &size)) return std::nullopt;
    it = g_symbols.emplace(key, Symbol{const_cast<void*>(key), size, nullptr}).first;
  }
  Symbol& s = it->second;
  if (s.device == nullptr && s.module != nullptr && !hip_mutant_active(HipMutant::SymbolSeparateCopy)) {
    // HIP-SYM-1: the address the kernels use, inside the loaded image (loaded now if need be).
    void* address = nullptr;
    size_t size = 0;
    if (module_global(s.module, s.name, &address, &size) != hipSuccess) return std::nullopt;
    s.device = address;
    return s;
  }
  if (s.device == nullptr && s.size != 0) {
    // Registered at program start, before the device was open: the copy is made now.
    void* memory = nullptr;
    if (allocate(&memory, s.size, clr::MemoryKind::Device, 0, "hipRegisterVar") != hipSuccess) return std::nullopt;
    if (s.init != nullptr && copy(memory, s.init, s.size, hipMemcpyHostToDevice, nullptr, false) != hipSuccess) {
      (void)release(memory, false, "hipRegisterVar");
      return std::nullopt;
    }
    s.device = memory;
  }
  return s;
}


}  // namespace rocref::hip

namespace {

// The device address of [offset, offset + size) of `symbol`, or an error.
hipError_t symbol_range(const void* symbol, size_t size, size_t offset, char** address) {
  if (symbol == nullptr) return hipErrorInvalidSymbol;
  std::optional<rocref::hip::Symbol> s = rocref::hip::find_symbol(symbol);
  if (!s) return hipErrorInvalidSymbol;
  if ((offset > s->size || size > s->size - offset) &&
      !rocref::hip::hip_mutant_active(rocref::hip::HipMutant::SymbolRangeUnchecked)) {
    return hipErrorInvalidValue;
  }
  *address = static_cast<char*>(s->device) + offset;
  return hipSuccess;
}

hipError_t to_symbol(const void* symbol, const void* src, size_t size, size_t offset, hipMemcpyKind kind,
                     hipStream_t stream, bool async) {
  char* address = nullptr;
  if (hipError_t e = symbol_range(symbol, size, offset, &address); e != hipSuccess) return e;
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault) {
    return hipErrorInvalidMemcpyDirection;
  }
  return rocref::hip::copy(address, src, size, kind, stream, async);
}

hipError_t from_symbol(void* dst, const void* symbol, size_t size, size_t offset, hipMemcpyKind kind,
                       hipStream_t stream, bool async) {
  char* address = nullptr;
  if (hipError_t e = symbol_range(symbol, size, offset, &address); e != hipSuccess) return e;
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault) {
    return hipErrorInvalidMemcpyDirection;
  }
  return rocref::hip::copy(dst, address, size, kind, stream, async);
}

}  // namespace

hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
  if (devPtr == nullptr) return result(hipErrorInvalidValue);
  std::optional<rocref::hip::Symbol> s = symbol != nullptr ? rocref::hip::find_symbol(symbol) : std::nullopt;
  if (!s) return result(hipErrorInvalidSymbol);
  *devPtr = s->device;
  return hipSuccess;
}

hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  if (size == nullptr) return result(hipErrorInvalidValue);
  std::optional<rocref::hip::Symbol> s = symbol != nullptr ? rocref::hip::find_symbol(symbol) : std::nullopt;
  if (!s) return result(hipErrorInvalidSymbol);
  *size = s->size;
  return hipSuccess;
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
  return result(to_symbol(symbol, src, sizeBytes, offset, kind, nullptr, false));
}

hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream) {
  return result(to_symbol(symbol, src, sizeBytes, offset, kind, stream, true));
}

hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind) {
  return result(from_symbol(dst, symbol, sizeBytes, offset, kind, nullptr, false));
}

hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream) {
  return result(from_symbol(dst, symbol, sizeBytes, offset, kind, stream, true));
}

hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                                 hipMemcpyKind kind) {
  return result(to_symbol(symbol, src, sizeBytes, offset, kind, hipStreamPerThread, false));
}

hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                   hipMemcpyKind kind) {
  return result(from_symbol(dst, symbol, sizeBytes, offset, kind, hipStreamPerThread, false));
}
