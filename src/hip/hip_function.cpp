// hip/hip_function.cpp - function attributes and the occupancy API (HIP-LNC-6, HIP-LNC-7).
//
// Occupancy is hipamd's calculation for a gfx9 CU with what the runtime knows
// of a kernel: 40 wavefronts per CU, the block's wavefronts, and its LDS
// (declared group segment plus the dynamic size asked for). Host-compiled
// kernels declare no registers or static LDS the runtime can see.
#include <algorithm>
#include <vector>

#include "hip/hip_device_props.h"
#include "hip/hip_function.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

constexpr int kWavesPerCu = rocref::hip::kMaxThreadsPerCu / 64;
// CUDA's cudaOccupancyDisableCachingOverride, which HIP 5.2.3 accepts without a name.
constexpr unsigned kOccupancyDisableCachingOverride = 0x01;

ihipModuleSymbol_t* function_of(const void* f) { return f == nullptr ? nullptr : rocref::hip::find_function(f); }

// Blocks of `block_size` work-items resident on one CU, or an error.
hipError_t active_blocks(const ihipModuleSymbol_t& f, int block_size, size_t dynamic_shared, int* blocks) {
  const auto dev = rocref::hip::device();
  if (!dev) return dev.error();
  rocref::clr::Device* d = *dev;
  if (block_size <= 0) return hipErrorInvalidValue;
  if (static_cast<uint32_t>(block_size) > rocref::hip::max_threads_per_block(f)) {
    *blocks = 0;
    return hipSuccess;
  }
  const int wave = static_cast<int>(d->info().wavefront_size);
  const int waves = (block_size + wave - 1) / wave;
  int by_waves = std::min(kWavesPerCu / waves, rocref::hip::kMaxBlocksPerCu);
  const size_t lds = f.static_shared + dynamic_shared;
  if (lds > d->info().group_segment_size) {
    *blocks = 0;
    return hipSuccess;
  }
  if (lds > 0) by_waves = std::min<int>(by_waves, static_cast<int>(d->info().group_segment_size / lds));
  *blocks = by_waves;
  return hipSuccess;
}

hipError_t potential_block_size(const ihipModuleSymbol_t& f, int* grid_size, int* block_size, size_t dynamic_shared,
                                int limit) {
  if (grid_size == nullptr || block_size == nullptr) return hipErrorInvalidValue;
  const auto dev = rocref::hip::device();
  if (!dev) return dev.error();
  rocref::clr::Device* d = *dev;
  int max = static_cast<int>(rocref::hip::max_threads_per_block(f));
  if (limit > 0) max = std::min(max, limit);
  const int wave = static_cast<int>(d->info().wavefront_size);
  int best_size = 0, best_blocks = 0;
  long best_threads = -1;
  std::vector<int> sizes;
  for (int size = wave; size <= max; size += wave) sizes.push_back(size);
  if (sizes.empty() && max > 0) sizes.push_back(max);
  for (int size : sizes) {
    int blocks = 0;
    if (active_blocks(f, size, dynamic_shared, &blocks) != hipSuccess) continue;
    const long threads = long{blocks} * size;
    if (threads > best_threads) {  // ties keep the smaller block
      best_threads = threads;
      best_size = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_size;
  *grid_size = best_blocks * static_cast<int>(d->info().compute_units);
  return hipSuccess;
}

hipError_t attributes(const ihipModuleSymbol_t& f, hipFuncAttributes* attr) {
  const auto dev = rocref::hip::device();
  if (!dev) return dev.error();
  rocref::clr::Device* d = *dev;
  *attr = hipFuncAttributes{};
  attr->binaryVersion = static_cast<int>(d->info().gfx_major * 10 + d->info().gfx_minor);
  attr->ptxVersion = attr->binaryVersion;
  attr->maxThreadsPerBlock = static_cast<int>(rocref::hip::max_threads_per_block(f));
  attr->sharedSizeBytes = f.static_shared;
  attr->maxDynamicSharedSizeBytes = f.max_dynamic_shared >= 0
                                        ? f.max_dynamic_shared
                                        : static_cast<int>(d->info().group_segment_size - f.static_shared);
  attr->numRegs = 0;
  attr->localSizeBytes = 0;
  attr->constSizeBytes = 0;
  return hipSuccess;
}

}  // namespace

hipError_t hipFuncGetAttributes(struct hipFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return result(hipErrorInvalidValue);
  ihipModuleSymbol_t* f = function_of(func);
  if (f == nullptr) return result(hipErrorInvalidDeviceFunction);
  return result(attributes(*f, attr));
}

hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc) {
  if (value == nullptr) return result(hipErrorInvalidValue);
  if (!rocref::hip::known_function(hfunc)) return result(hipErrorInvalidHandle);
  hipFuncAttributes a;
  if (hipError_t e = attributes(*hfunc, &a); e != hipSuccess) return result(e);
  switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = a.maxThreadsPerBlock; break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = static_cast<int>(a.sharedSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = static_cast<int>(a.constSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = static_cast<int>(a.localSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = a.numRegs; break;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION: *value = a.ptxVersion; break;
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: *value = a.binaryVersion; break;
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = a.cacheModeCA; break;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = a.maxDynamicSharedSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = a.preferredShmemCarveout; break;
    default: return result(hipErrorInvalidValue);
  }
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  ihipModuleSymbol_t* f = function_of(func);
  if (f == nullptr) return result(hipErrorInvalidDeviceFunction);
  const auto dev = rocref::hip::device();
  if (!dev) return result(dev.error());
  rocref::clr::Device* d = *dev;
  switch (attr) {
    case hipFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || static_cast<uint32_t>(value) > d->info().group_segment_size - f->static_shared) {
        return result(hipErrorInvalidValue);
      }
      f->max_dynamic_shared = value;
      rocref::hip::function_limits_changed();  // launches that cached the old limit look again
      return hipSuccess;
    case hipFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return result(hipErrorInvalidValue);
      return hipSuccess;  // a hint; the LDS/L1 split of gfx9 is fixed
    default: return result(hipErrorInvalidValue);
  }
}

hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config) {
  if (function_of(func) == nullptr) return result(hipErrorInvalidDeviceFunction);
  if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return result(hipErrorInvalidValue);
  return hipSuccess;  // accepted and ignored, as on every AMD GPU
}

hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig config) {
  if (function_of(func) == nullptr) return result(hipErrorInvalidDeviceFunction);
  if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte) return result(hipErrorInvalidValue);
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* f, int blockSize,
                                                        size_t dynSharedMemPerBlk) {
  if (numBlocks == nullptr) return result(hipErrorInvalidValue);
  ihipModuleSymbol_t* function = function_of(f);
  if (function == nullptr) return result(hipErrorInvalidDeviceFunction);
  return result(active_blocks(*function, blockSize, dynSharedMemPerBlk, numBlocks));
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* f, int blockSize,
                                                                 size_t dynSharedMemPerBlk, unsigned int flags) {
  if (flags != hipOccupancyDefault && flags != kOccupancyDisableCachingOverride) return result(hipErrorInvalidValue);
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, const void* f, size_t dynSharedMemPerBlk,
                                             int blockSizeLimit) {
  ihipModuleSymbol_t* function = function_of(f);
  if (gridSize == nullptr || blockSize == nullptr) return result(hipErrorInvalidValue);
  if (function == nullptr) return result(hipErrorInvalidDeviceFunction);
  return result(potential_block_size(*function, gridSize, blockSize, dynSharedMemPerBlk, blockSizeLimit));
}

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, hipFunction_t f,
                                                   size_t dynSharedMemPerBlk, int blockSizeLimit) {
  if (gridSize == nullptr || blockSize == nullptr) return result(hipErrorInvalidValue);
  if (!rocref::hip::known_function(f)) return result(hipErrorInvalidHandle);
  return result(potential_block_size(*f, gridSize, blockSize, dynSharedMemPerBlk, blockSizeLimit));
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int* gridSize, int* blockSize, hipFunction_t f,
                                                            size_t dynSharedMemPerBlk, int blockSizeLimit,
                                                            unsigned int flags) {
  if (flags != hipOccupancyDefault && flags != kOccupancyDisableCachingOverride) return result(hipErrorInvalidValue);
  return hipModuleOccupancyMaxPotentialBlockSize(gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, hipFunction_t f, int blockSize,
                                                              size_t dynSharedMemPerBlk) {
  if (numBlocks == nullptr) return result(hipErrorInvalidValue);
  if (!rocref::hip::known_function(f)) return result(hipErrorInvalidHandle);
  return result(active_blocks(*f, blockSize, dynSharedMemPerBlk, numBlocks));
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, hipFunction_t f, int blockSize,
                                                                       size_t dynSharedMemPerBlk, unsigned int flags) {
  if (flags != hipOccupancyDefault && flags != kOccupancyDisableCachingOverride) return result(hipErrorInvalidValue);
  return hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

const char* hipKernelNameRef(const hipFunction_t f) {
  return rocref::hip::known_function(f) ? f->name.c_str() : nullptr;
}

const char* hipKernelNameRefByPtr(const void* hostFunction, hipStream_t stream) {
  (void)stream;
  const ihipModuleSymbol_t* f = function_of(hostFunction);
  return f != nullptr ? f->name.c_str() : nullptr;
}
