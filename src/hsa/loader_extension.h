// hsa/loader_extension.h - the AMD loader extension (hsa_ven_amd_loader.h, HSA-EXT-2): the
// functions ROCR hands out only through hsa_system_get_(major_)extension_table.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <cstddef>
#include <string>

namespace rocref::hsa {

// Fills the newest table (1.03); older versions are its prefixes, as in ROCR.
void fill_loader_table(hsa_ven_amd_loader_1_03_pfn_t* table);

// hsa_code_object_reader_create_from_file and the extension's _with_offset_size: the bytes of
// `file` at [offset, offset + size) (size 0: to its end), named by ROCR's file URI.
hsa_status_t create_reader_from_file(hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t* reader);

}  // namespace rocref::hsa
