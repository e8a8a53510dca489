// hsa/extensions.h - what the runtime reports of its extensions (HSA-EXT-1): the bitmask of
// HSA_SYSTEM_INFO_EXTENSIONS / HSA_AGENT_INFO_EXTENSIONS and the image table.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_image.h>

#include <cstdint>

namespace rocref::hsa {

// The 128-byte bitmask, bit N for extension N: what ROCR 5.2.3 sets on Debian (images when the
// image library is there, the AMD profiler always; no finalizer, no aqlprofile library).
void extension_bits(void* value);

// hsa_system_major_extension_supported's list: images, finalizer, AMD loader, aqlprofile.
bool has_major_version_1(uint16_t extension);

// The image extension's functions (version 1, api_image.cpp); false if the runtime had none.
bool fill_image_table(hsa_ext_images_1_pfn_t* table);

}  // namespace rocref::hsa
