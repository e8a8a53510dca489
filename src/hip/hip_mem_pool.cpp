// hip/hip_mem_pool.cpp - stream-ordered memory pools: the device's default pool and created ones (HIP-MEM-15).
//
// A pool is an accounting of device allocations: hipMallocAsync and
// hipMallocFromPoolAsync allocate at once through the command layer and
// charge the pool; hipFreeAsync (in stream order) and hipFree give the bytes
// back. The model keeps no freed memory in reserve, so a pool's reserved
// memory is its used memory and hipMemPoolTrimTo has nothing to release.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "hip/hip_mem_pool.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"

struct ihipMemPoolHandle_t {
  int device = 0;
  bool is_default = false;
  uint64_t release_threshold = 0;
  int reuse[3] = {1, 1, 1};  // FollowEventDependencies, AllowOpportunistic, AllowInternalDependencies
  uint64_t used = 0;
  uint64_t used_high = 0;
  uint64_t reserved_high = 0;
  hipMemAccessFlags access = hipMemAccessFlagsProtReadWrite;
};

using rocref::hip::result;

namespace {

std::mutex g_mutex;
std::set<ihipMemPoolHandle_t*> g_pools;
std::map<const void*, std::pair<ihipMemPoolHandle_t*, size_t>> g_charged;  // allocation -> pool, bytes
ihipMemPoolHandle_t g_default_pool{0, true};
ihipMemPoolHandle_t* g_current_pool = &g_default_pool;

bool known(hipMemPool_t pool) { return pool == &g_default_pool || g_pools.count(pool) == 1; }

hipError_t ready(int device) {
  if (const auto d = rocref::hip::device(); !d) return d.error();
  return rocref::hip::valid_device(device) ? hipSuccess : hipErrorInvalidDevice;
}

}  // namespace

namespace rocref::hip {

hipError_t pool_allocate(void** ptr, size_t size, hipMemPool_t pool, hipStream_t stream) {
  if (ptr == nullptr || size == 0) return hipErrorInvalidValue;
  if (resolve_stream(stream) == nullptr) return hipErrorInvalidHandle;
  {
    std::lock_guard lock(g_mutex);
    if (pool == nullptr) pool = g_current_pool;
    if (!known(pool)) return hipErrorInvalidValue;
  }
  if (hipError_t e = allocate(ptr, size, clr::MemoryKind::Device, 0, "hipMallocAsync"); e != hipSuccess) return e;
  std::lock_guard lock(g_mutex);
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  pool->reserved_high = std::max(pool->reserved_high, pool->used);
  g_charged[*ptr] = {pool, size};
  return hipSuccess;
}

void pool_forget(const void* ptr) {
  std::lock_guard lock(g_mutex);
  auto it = g_charged.find(ptr);
  if (it == g_charged.end()) return;
  it->second.first->used -= it->second.second;
  g_charged.erase(it);
}

}  // namespace rocref::hip

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t* mem_pool, int device) {
  if (mem_pool == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(device); e != hipSuccess) return result(e);
  *mem_pool = &g_default_pool;
  return hipSuccess;
}

hipError_t hipDeviceGetMemPool(hipMemPool_t* mem_pool, int device) {
  if (mem_pool == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(device); e != hipSuccess) return result(e);
  std::lock_guard lock(g_mutex);
  *mem_pool = g_current_pool;
  return hipSuccess;
}

hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
  if (hipError_t e = ready(device); e != hipSuccess) return result(e);
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool) || mem_pool->device != device) return result(hipErrorInvalidValue);
  g_current_pool = mem_pool;
  return hipSuccess;
}

hipError_t hipMemPoolCreate(hipMemPool_t* mem_pool, const hipMemPoolProps* pool_props) {
  if (mem_pool == nullptr || pool_props == nullptr) return result(hipErrorInvalidValue);
  if (pool_props->allocType != hipMemAllocationTypePinned || pool_props->handleTypes != hipMemHandleTypeNone ||
      pool_props->location.type != hipMemLocationTypeDevice) {
    return result(hipErrorInvalidValue);
  }
  if (hipError_t e = ready(pool_props->location.id); e != hipSuccess) return result(hipErrorInvalidValue);
  auto* pool = new ihipMemPoolHandle_t();
  pool->device = pool_props->location.id;
  std::lock_guard lock(g_mutex);
  g_pools.insert(pool);
  *mem_pool = pool;
  return hipSuccess;
}

hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
  {
    std::lock_guard lock(g_mutex);
    // The default pool is the device's; a created pool only once.
    if (mem_pool == nullptr || mem_pool == &g_default_pool || g_pools.erase(mem_pool) == 0) {
      return result(hipErrorInvalidValue);
    }
    if (g_current_pool == mem_pool) g_current_pool = &g_default_pool;
    // Its live allocations stay valid (freed with hipFree / hipFreeAsync), charged to no pool.
    for (auto it = g_charged.begin(); it != g_charged.end();) {
      it = it->second.first == mem_pool ? g_charged.erase(it) : std::next(it);
    }
  }
  delete mem_pool;
  return hipSuccess;
}

hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value) {
  if (value == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool)) return result(hipErrorInvalidValue);
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies:
    case hipMemPoolReuseAllowOpportunistic:
    case hipMemPoolReuseAllowInternalDependencies:
      mem_pool->reuse[attr - 1] = *static_cast<int*>(value) != 0;
      return hipSuccess;
    case hipMemPoolAttrReleaseThreshold: mem_pool->release_threshold = *static_cast<uint64_t*>(value); return hipSuccess;
    case hipMemPoolAttrReservedMemHigh:
    case hipMemPoolAttrUsedMemHigh:
      // Only a reset to 0 (to the current value) is allowed.
      if (*static_cast<uint64_t*>(value) != 0) return result(hipErrorInvalidValue);
      (attr == hipMemPoolAttrUsedMemHigh ? mem_pool->used_high : mem_pool->reserved_high) = mem_pool->used;
      return hipSuccess;
    default: return result(hipErrorInvalidValue);  // the current values are read-only
  }
}

hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value) {
  if (value == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool)) return result(hipErrorInvalidValue);
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies:
    case hipMemPoolReuseAllowOpportunistic:
    case hipMemPoolReuseAllowInternalDependencies: *static_cast<int*>(value) = mem_pool->reuse[attr - 1]; return hipSuccess;
    case hipMemPoolAttrReleaseThreshold: *static_cast<uint64_t*>(value) = mem_pool->release_threshold; return hipSuccess;
    case hipMemPoolAttrReservedMemCurrent:
    case hipMemPoolAttrUsedMemCurrent: *static_cast<uint64_t*>(value) = mem_pool->used; return hipSuccess;
    case hipMemPoolAttrReservedMemHigh: *static_cast<uint64_t*>(value) = mem_pool->reserved_high; return hipSuccess;
    case hipMemPoolAttrUsedMemHigh: *static_cast<uint64_t*>(value) = mem_pool->used_high; return hipSuccess;
    default: return result(hipErrorInvalidValue);
  }
}

hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc* desc_list, size_t count) {
  if (count != 0 && desc_list == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool)) return result(hipErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    const hipMemAccessDesc& d = desc_list[i];
    if (d.location.type != hipMemLocationTypeDevice || !rocref::hip::valid_device(d.location.id)) {
      return result(hipErrorInvalidDevice);
    }
    if (d.flags != hipMemAccessFlagsProtNone && d.flags != hipMemAccessFlagsProtRead &&
        d.flags != hipMemAccessFlagsProtReadWrite) {
      return result(hipErrorInvalidValue);
    }
    // The pool's own device always has read-write access.
    if (d.location.id == mem_pool->device && d.flags != hipMemAccessFlagsProtReadWrite) {
      return result(hipErrorInvalidDevice);
    }
  }
  return hipSuccess;
}

hipError_t hipMemPoolGetAccess(hipMemAccessFlags* flags, hipMemPool_t mem_pool, hipMemLocation* location) {
  if (flags == nullptr || location == nullptr) return result(hipErrorInvalidValue);
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool)) return result(hipErrorInvalidValue);
  if (location->type != hipMemLocationTypeDevice || !rocref::hip::valid_device(location->id)) {
    return result(hipErrorInvalidDevice);
  }
  *flags = location->id == mem_pool->device ? hipMemAccessFlagsProtReadWrite : mem_pool->access;
  return hipSuccess;
}

hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold) {
  (void)min_bytes_to_hold;  // nothing is held beyond live allocations
  std::lock_guard lock(g_mutex);
  if (mem_pool == nullptr || !known(mem_pool)) return result(hipErrorInvalidValue);
  return hipSuccess;
}

hipError_t hipMallocFromPoolAsync(void** dev_ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream) {
  if (mem_pool == nullptr) return result(hipErrorInvalidValue);
  return result(rocref::hip::pool_allocate(dev_ptr, size, mem_pool, stream));
}
