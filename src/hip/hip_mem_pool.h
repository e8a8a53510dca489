// hip/hip_mem_pool.h - the pools stream-ordered allocations are charged to (hip_mem_pool.cpp).
#pragma once

#include "hip/hip_runtime.h"

namespace rocref::hip {

// Allocates device memory charged to `pool` (nullptr: the device's current pool).
hipError_t pool_allocate(void** ptr, size_t size, hipMemPool_t pool, hipStream_t stream);
// The allocation at `ptr` is being freed: its pool is no longer charged for it.
void pool_forget(const void* ptr);

}  // namespace rocref::hip
