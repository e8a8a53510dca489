// hip/hip_symbol.h - __device__ variables the symbol API knows: key address -> device memory and size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace rocref::hip {

struct Symbol {
  void* device = nullptr;        // where the variable lives for kernels and copies; null until first use
  size_t size = 0;
  const uint8_t* init = nullptr;  // initial bytes for a device copy made on first use (code objects)
};

// Keys are the addresses programs pass as `symbol`: a host-compiled variable
// itself, or the host shadow variable hipcc registered (__hipRegisterVar).
void add_symbol(const void* key, Symbol symbol);
void remove_symbol(const void* key);
// The symbol, its device copy made (and initialized) on first use.
std::optional<Symbol> find_symbol(const void* key);

}  // namespace rocref::hip
