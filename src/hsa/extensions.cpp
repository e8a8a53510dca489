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
  (void)table;
  return false;  // the image extension is not part of this runtime yet
}

}  // namespace rocref::hsa
