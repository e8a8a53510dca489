// hsa/extensions.cpp - the extension bitmask and lists (see extensions.h).
#include "hsa/extensions.h"

#include <cstring>

namespace rocref::hsa {

void extension_bits(void* value) {
  auto* bits = static_cast<uint8_t*>(value);
  std::memset(bits, 0, 128);
  auto set = [&](unsigned bit) { bits[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8)); };
  hsa_ext_images_1_pfn_t images;
  if (fill_image_table(&images)) set(HSA_EXTENSION_IMAGES);
  set(HSA_EXTENSION_AMD_PROFILER);
}

bool has_major_version_1(uint16_t extension) {
  return extension == HSA_EXTENSION_IMAGES || extension == HSA_EXTENSION_FINALIZER ||
         extension == HSA_EXTENSION_AMD_LOADER || extension == HSA_EXTENSION_AMD_AQLPROFILE;
}

bool fill_image_table(hsa_ext_images_1_pfn_t* table) {
  table->hsa_ext_image_get_capability = hsa_ext_image_get_capability;
  table->hsa_ext_image_data_get_info = hsa_ext_image_data_get_info;
  table->hsa_ext_image_create = hsa_ext_image_create;
  table->hsa_ext_image_import = hsa_ext_image_import;
  table->hsa_ext_image_export = hsa_ext_image_export;
  table->hsa_ext_image_copy = hsa_ext_image_copy;
  table->hsa_ext_image_clear = hsa_ext_image_clear;
  table->hsa_ext_image_destroy = hsa_ext_image_destroy;
  table->hsa_ext_sampler_create = hsa_ext_sampler_create;
  table->hsa_ext_sampler_destroy = hsa_ext_sampler_destroy;
  table->hsa_ext_image_get_capability_with_layout = hsa_ext_image_get_capability_with_layout;
  table->hsa_ext_image_data_get_info_with_layout = hsa_ext_image_data_get_info_with_layout;
  table->hsa_ext_image_create_with_layout = hsa_ext_image_create_with_layout;
  return true;  // HSA-IMG-*: the image extension of api_image.cpp
}

}  // namespace rocref::hsa
