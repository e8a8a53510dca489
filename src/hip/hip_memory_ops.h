// hip/hip_memory_ops.h - the allocation, copy and fill steps every memory entry point shares.
//
// None records the last error: the entry point that calls them does (result()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "clr/memory_registry.h"
#include "hip/hip_runtime.h"

namespace rocref::hip {

hipError_t allocate(void** ptr, size_t size, clr::MemoryKind kind, unsigned flags, const char* what);
hipError_t release(void* ptr, bool host, const char* what);
// hipMemcpy(Async): size bytes, in the order of `stream`; async returns once enqueued where it can.
hipError_t copy(void* dst, const void* src, size_t size, hipMemcpyKind kind, hipStream_t stream, bool async);
// hipMemset(Async): `pattern` (pattern_bytes 1, 2 or 4) repeated over size bytes of HIP memory.
hipError_t fill(void* dst, uint32_t pattern, uint32_t pattern_bytes, size_t size, hipStream_t stream, bool async);

}  // namespace rocref::hip
