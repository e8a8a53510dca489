// hip/hip_symbol.h - __device__ variables the symbol API knows: key address -> device memory and size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

struct ihipModule_t;

namespace rocref::hip {

struct Symbol {
  void* device = nullptr;        // where the variable lives for kernels and copies; null until first use
  size_t size = 0;
  const uint8_t* init = nullptr;   // initial bytes for a device copy made on first use (no loadable code object)
  ihipModule_t* module = nullptr;  // hipcc's variables: the variable `name` inside the module's loaded image
  std::string name;
};

// Keys are the addresses programs pass as `symbol`: a host-compiled variable
// itself, or the host shadow variable hipcc registered (__hipRegisterVar).
void add_symbol(const void* key, Symbol symbol);
void remove_symbol(const void* key);
// The symbol, its device address resolved on first use: the variable inside the loaded code
// object (loading it), or a device copy made and initialized then.
std::optional<Symbol> find_symbol(const void* key);

}  // namespace rocref::hip
