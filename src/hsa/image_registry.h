// hsa/image_registry.h - the runtime's image and sampler objects, found by their handles.
//
// A handle is, as in ROCR, the address of the object's descriptor words (T# or V#, then ROCR's
// dwords 8..10; an S#) in GPU-mapped system memory (the kernarg pool, where ROCR puts them), so
// a kernel given the handle loads the descriptor from it (HSA-IMG-3). The host-side record
// beside it keeps what the copies need: the HSA descriptor, the format and the linear layout.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>

#include "hsa/image_descriptor.h"
#include "hsa/image_format.h"

namespace rocref::hsa {

struct ImageObject {
  hsa_agent_t agent{0};
  hsa_ext_image_descriptor_t desc{};
  hsa_access_permission_t permission = HSA_ACCESS_PERMISSION_RO;
  ImageFormat format;
  uint8_t* data = nullptr;
  ImageLayout layout;
  bool linear = true;  // false: hsa_amd_image_create with a tiled T# (no host-side copies)
  uint32_t* srd = nullptr;
};

struct SamplerObject {
  hsa_agent_t agent{0};
  hsa_ext_sampler_descriptor_t desc{};
  uint32_t* srd = nullptr;
};

class ImageRegistry {
 public:
  // Places `srd` in GPU-mapped memory and records `image`; OUT_OF_RESOURCES when no memory.
  hsa_status_t add_image(ImageObject image, const uint32_t (&srd)[kImageSrdDwords], hsa_ext_image_t* handle);
  hsa_status_t add_sampler(SamplerObject sampler, const uint32_t (&srd)[4], hsa_ext_sampler_t* handle);
  // INVALID_ARGUMENT for a handle this runtime did not make (ROCR does not check: undefined there).
  hsa_status_t remove_image(hsa_ext_image_t handle);
  hsa_status_t remove_sampler(hsa_ext_sampler_t handle);

  // Runs f(const ImageObject&) under the registry's shared lock (a concurrent destroy waits);
  // INVALID_ARGUMENT for an unknown handle.
  template <class F>
  hsa_status_t with_image(hsa_ext_image_t handle, F&& f) const {
    std::shared_lock lock(mutex_);
    const auto it = images_.find(handle.handle);
    if (it == images_.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    return f(static_cast<const ImageObject&>(*it->second));
  }
  template <class F>
  hsa_status_t with_images(hsa_ext_image_t a, hsa_ext_image_t b, F&& f) const {
    std::shared_lock lock(mutex_);
    const auto ia = images_.find(a.handle), ib = images_.find(b.handle);
    if (ia == images_.end() || ib == images_.end()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    return f(static_cast<const ImageObject&>(*ia->second), static_cast<const ImageObject&>(*ib->second));
  }

 private:
  mutable std::shared_mutex mutex_;
  std::map<uint64_t, std::unique_ptr<ImageObject>> images_;
  std::map<uint64_t, std::unique_ptr<SamplerObject>> samplers_;
};

}  // namespace rocref::hsa
