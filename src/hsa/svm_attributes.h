// hsa/svm_attributes.h - hsa_amd_svm_attributes_set/get as the KFD's SVM attributes (HSA-SVM-1, HSA-SVM-2).
//
// ROCR 5.2.3's Runtime::SetSvmAttrib / GetSvmAttrib: each HSA_AMD_SVM_ATTRIB_* becomes KFD
// attributes of hsaKmtSVMSetAttr / hsaKmtSVMGetAttr over the range's whole pages; booleans
// and the memory model become SET_FLAGS / CLR_FLAGS bits, agents become KFD nodes (a CPU
// agent's access is the HOST_ACCESS flag). The list is judged in order and a refused list
// reaches no KFD call.
#pragma once

#include <hsa/hsa_ext_amd.h>

#include <cstddef>
#include <cstdint>

namespace rocref::hsa {

class Runtime;

// The range's whole pages: ptr rounded down, ptr + size rounded up (ROCR's AlignDown/AlignUp).
struct SvmPages {
  void* base;
  uint64_t bytes;
};
SvmPages svm_pages(const void* ptr, size_t size) noexcept;

hsa_status_t svm_set_attributes(Runtime& rt, void* ptr, size_t size, const hsa_amd_svm_attribute_pair_t* list,
                                size_t count);
hsa_status_t svm_get_attributes(Runtime& rt, void* ptr, size_t size, hsa_amd_svm_attribute_pair_t* list, size_t count);

}  // namespace rocref::hsa
