// hip/hip_program_elf.h - what the program's own ELF files say about an address in them.
//
// Host-compiled kernels and __device__ variables are ordinary code and data
// of the program (or a library it loaded). Their section and their symbol's
// size are read from the file on disk (dladdr names it), once per file.
#pragma once

#include <cstddef>
#include <string>

namespace rocref::hip {

// The name of the section holding `address`, or "" when unknown.
std::string program_section(const void* address);
// The size of the data object (STT_OBJECT) that starts at `address`; false when
// none does or the file has no symbol table (stripped).
bool program_object(const void* address, size_t* size);

}  // namespace rocref::hip
