// hsa/image_registry.cpp - image and sampler objects in GPU-mapped memory (see image_registry.h).
#include "hsa/image_registry.h"

#include <cstring>
#include <mutex>

#include "hsa/agent.h"
#include "hsa/memory_region.h"
#include "hsa/runtime.h"

namespace rocref::hsa {
namespace {

// ROCR allocates image and sampler objects from the kernarg pool (fine-grained system memory,
// mapped for every GPU): a kernel reads the descriptor at the handle.
hsa_status_t allocate_descriptor(size_t bytes, uint32_t** out) {
  Runtime* rt = runtime();
  for (const auto& region : rt->cpu_agent()->owned_regions()) {
    if (region->kind() != MemoryRegion::Kind::Kernarg) continue;
    void* memory = nullptr;
    if (rt->allocate(*region, bytes, &memory) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    *out = static_cast<uint32_t*>(memory);
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

}  // namespace

hsa_status_t ImageRegistry::add_image(ImageObject image, const uint32_t (&srd)[kImageSrdDwords],
                                      hsa_ext_image_t* handle) {
  uint32_t* words = nullptr;
  if (hsa_status_t s = allocate_descriptor(sizeof srd, &words); s != HSA_STATUS_SUCCESS) return s;
  std::memcpy(words, srd, sizeof srd);
  image.srd = words;
  const uint64_t key = reinterpret_cast<uintptr_t>(words);
  std::unique_lock lock(mutex_);
  images_[key] = std::make_unique<ImageObject>(image);
  handle->handle = key;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ImageRegistry::add_sampler(SamplerObject sampler, const uint32_t (&srd)[4], hsa_ext_sampler_t* handle) {
  uint32_t* words = nullptr;
  if (hsa_status_t s = allocate_descriptor(kSamplerSrdDwords * sizeof(uint32_t), &words); s != HSA_STATUS_SUCCESS)
    return s;
  std::memset(words, 0, kSamplerSrdDwords * sizeof(uint32_t));
  std::memcpy(words, srd, sizeof srd);
  sampler.srd = words;
  const uint64_t key = reinterpret_cast<uintptr_t>(words);
  std::unique_lock lock(mutex_);
  samplers_[key] = std::make_unique<SamplerObject>(sampler);
  handle->handle = key;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t ImageRegistry::remove_image(hsa_ext_image_t handle) {
  {
    std::unique_lock lock(mutex_);
    if (images_.erase(handle.handle) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return runtime()->free(reinterpret_cast<void*>(handle.handle));
}

hsa_status_t ImageRegistry::remove_sampler(hsa_ext_sampler_t handle) {
  {
    std::unique_lock lock(mutex_);
    if (samplers_.erase(handle.handle) == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return runtime()->free(reinterpret_cast<void*>(handle.handle));
}

}  // namespace rocref::hsa
