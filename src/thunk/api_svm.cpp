// thunk/api_svm.cpp - hsaKmtSVMSetAttr / hsaKmtSVMGetAttr over AMDKFD_IOC_SVM (libhsakmt svm.c).
//
// The public API speaks node ids; the ioctl speaks gpu_ids (0 = system memory). Locations
// and access attributes are translated on the way in (an access attribute naming the CPU
// node is INVALID_NODE_UNIT), locations on the way out (UNDEFINED reads INVALID_NODEID).
// The attribute array rides in the ioctl's size field, as the driver copies it in one go.
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include <cstring>
#include <vector>

#include "thunk/api_guard.h"

namespace rocref::thunk {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint32_t kSvmMinorVersion = 5;  // KFD 1.5 added the SVM API

bool is_access(uint32_t type) {
  return type == KFD_IOCTL_SVM_ATTR_ACCESS || type == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE ||
         type == KFD_IOCTL_SVM_ATTR_NO_ACCESS;
}

HSAKMT_STATUS check_range(const Process& p, const void* start, HSAuint64 size) {
  if (p.version.KernelInterfaceMinorVersion < kSvmMinorVersion) return HSAKMT_STATUS_NOT_SUPPORTED;
  if (!start || !size) return HSAKMT_STATUS_INVALID_PARAMETER;
  if ((reinterpret_cast<uintptr_t>(start) & (kPage - 1)) != 0 || (size & (kPage - 1)) != 0)
    return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_SUCCESS;
}

// kfd_ioctl_svm_args followed by nattr attributes, 8-byte aligned.
struct SvmBuffer {
  std::vector<uint64_t> words;
  kfd_ioctl_svm_args* args;
  SvmBuffer(uint64_t start, uint64_t size, uint32_t op, unsigned nattr, const HSA_SVM_ATTRIBUTE* attrs)
      : words((sizeof(kfd_ioctl_svm_args) + sizeof(kfd_ioctl_svm_attribute) * nattr) / 8),
        args(reinterpret_cast<kfd_ioctl_svm_args*>(words.data())) {
    args->start_addr = start;
    args->size = size;
    args->op = op;
    args->nattr = nattr;
    if (nattr) std::memcpy(args->attrs, attrs, sizeof(kfd_ioctl_svm_attribute) * nattr);
  }
  unsigned long request(unsigned nattr) const {
    return AMDKFD_IOC_SVM + ((sizeof(kfd_ioctl_svm_attribute) * nattr) << _IOC_SIZESHIFT);
  }
};

static_assert(sizeof(HSA_SVM_ATTRIBUTE) == sizeof(kfd_ioctl_svm_attribute));

}  // namespace
}  // namespace rocref::thunk

extern "C" {

// THUNK-SVM-1
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMSetAttr(void* start_addr, HSAuint64 size, unsigned int nattr,
                                         HSA_SVM_ATTRIBUTE* attrs) {
  using namespace rocref::thunk;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (const HSAKMT_STATUS st = check_range(p, start_addr, size); st != HSAKMT_STATUS_SUCCESS) return st;
  if (nattr && !attrs) return HSAKMT_STATUS_INVALID_PARAMETER;
  SvmBuffer b(reinterpret_cast<uintptr_t>(start_addr), size, KFD_IOCTL_SVM_OP_SET_ATTR, nattr, attrs);
  for (unsigned i = 0; i < nattr; ++i) {
    const uint32_t type = attrs[i].type;
    if (type != KFD_IOCTL_SVM_ATTR_PREFERRED_LOC && type != KFD_IOCTL_SVM_ATTR_PREFETCH_LOC && !is_access(type))
      continue;
    if (type == KFD_IOCTL_SVM_ATTR_PREFERRED_LOC && attrs[i].value == INVALID_NODEID) {
      b.args->attrs[i].value = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
      continue;
    }
    const HSAKMT_STATUS st = validate_api_node(p, attrs[i].value, &b.args->attrs[i].value);
    if (st != HSAKMT_STATUS_SUCCESS) return st;
    if (b.args->attrs[i].value == 0 && is_access(type)) return HSAKMT_STATUS_INVALID_NODE_UNIT;  // the CPU node
  }
  if (p.transport->ioctl(p.kfd_fd, b.request(nattr), b.args) != 0) return HSAKMT_STATUS_ERROR;
  return HSAKMT_STATUS_SUCCESS;
}

// THUNK-SVM-2
HSAKMT_STATUS HSAKMTAPI hsaKmtSVMGetAttr(void* start_addr, HSAuint64 size, unsigned int nattr,
                                         HSA_SVM_ATTRIBUTE* attrs) {
  using namespace rocref::thunk;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (const HSAKMT_STATUS st = check_range(p, start_addr, size); st != HSAKMT_STATUS_SUCCESS) return st;
  if (nattr && !attrs) return HSAKMT_STATUS_INVALID_PARAMETER;
  SvmBuffer b(reinterpret_cast<uintptr_t>(start_addr), size, KFD_IOCTL_SVM_OP_GET_ATTR, nattr, attrs);
  for (unsigned i = 0; i < nattr; ++i) {
    if (!is_access(attrs[i].type)) continue;
    const HSAKMT_STATUS st = validate_api_node(p, attrs[i].value, &b.args->attrs[i].value);
    if (st != HSAKMT_STATUS_SUCCESS) return st;
    if (b.args->attrs[i].value == 0) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  }
  if (p.transport->ioctl(p.kfd_fd, b.request(nattr), b.args) != 0) return HSAKMT_STATUS_ERROR;
  if (nattr) std::memcpy(attrs, b.args->attrs, sizeof(kfd_ioctl_svm_attribute) * nattr);
  // Locations come back as gpu_ids: node ids again, UNDEFINED as INVALID_NODEID.
  for (unsigned i = 0; i < nattr; ++i) {
    if (attrs[i].type != KFD_IOCTL_SVM_ATTR_PREFERRED_LOC && attrs[i].type != KFD_IOCTL_SVM_ATTR_PREFETCH_LOC)
      continue;
    if (attrs[i].value == KFD_IOCTL_SVM_LOCATION_UNDEFINED) {
      attrs[i].value = INVALID_NODEID;
      continue;
    }
    if (attrs[i].value == KFD_IOCTL_SVM_LOCATION_SYSMEM) continue;  // gpu_id 0 is the CPU node 0
    const auto node = p.node_of_gpu_id(attrs[i].value);
    if (!node) return HSAKMT_STATUS_INVALID_NODE_UNIT;
    attrs[i].value = *node;
  }
  return HSAKMT_STATUS_SUCCESS;
}

}  // extern "C"
