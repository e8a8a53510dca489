// kfd/kfd_svm.cpp - AMDKFD_IOC_SVM: set and get attributes of shared-virtual-memory ranges.
//
// Follows amdkfd's kfd_ioctl_svm / svm_ioctl / svm_range_set_attr / svm_range_get_attr:
// argument checks first (nothing changes on an error), then the range table is split
// at the request's bounds, gaps are filled with default ranges, the attributes applied,
// and every range the GPU may access (ACCESS or ACCESS_IN_PLACE) is mapped in the
// process's GPUVM onto the same host pages (GPU VA = host VA), the others unmapped.
// Migration is a no-op in this model: system memory is the only backing, so the
// preferred and prefetch locations are recorded and reported but move nothing (KFD-SVM-6).
// Not modelled: amdkfd's MMU notifier, which drops a range whose pages the process
// unmaps; here the range and its PTEs stay until NO_ACCESS or close, as for USERPTR buffers.
#include "kfd/kfd_svm.h"

#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <iterator>

#include "kfd/device_state.h"
#include "kfd/user_copy.h"

namespace rocref::kfd {
namespace {

constexpr uint64_t kPageShift = 12;
constexpr uint64_t kPage = uint64_t{1} << kPageShift;
constexpr uint64_t kUserVaLimit = uint64_t{1} << 47;
constexpr uint32_t kDefaultGranularity = 9;  // svm_range_set_default_attributes: 2 MiB
constexpr uint32_t kMaxGranularity = 0x3f;

static_assert(sizeof(kfd_ioctl_svm_attribute) == 8);
static_assert(sizeof(kfd_ioctl_svm_args) == 24);

// svm_range_check_attr: every type known, every location or access gpu_id one of ours.
int check_attrs(const DeviceState& d, const kfd_ioctl_svm_attribute* attrs, uint32_t nattr) {
  for (uint32_t i = 0; i < nattr; ++i) {
    const uint32_t v = attrs[i].value;
    bool needs_gpu = false;
    switch (attrs[i].type) {
      case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
        needs_gpu = v != KFD_IOCTL_SVM_LOCATION_SYSMEM && v != KFD_IOCTL_SVM_LOCATION_UNDEFINED;
        break;
      case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
        needs_gpu = v != KFD_IOCTL_SVM_LOCATION_SYSMEM;
        break;
      case KFD_IOCTL_SVM_ATTR_ACCESS:
      case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
      case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
        needs_gpu = true;
        break;
      case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
      case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
      case KFD_IOCTL_SVM_ATTR_GRANULARITY:
        break;
      default:
        return -EINVAL;  // "unknown attr type"
    }
    if (needs_gpu && d.gpu_index(v) < 0) return -EINVAL;  // "no GPU 0x%x found"
  }
  return 0;
}

// True when [start, start + size) overlaps memory the driver owns rather than the process: the
// pools behind its buffer objects (kernel memory on a real machine) and its own CPU mappings of
// buffers, doorbells and MMIO (VM_IO | VM_PFNMAP there).
bool overlaps_device_memory(const DeviceState& d, uint64_t start, uint64_t size) {
  const auto overlaps = [&](uint64_t base, uint64_t length) { return base < start + size && start < base + length; };
  const auto pool = [&](const HostArena& a) {
    return a.ok() && overlaps(reinterpret_cast<uintptr_t>(a.at(0)), a.size());
  };
  if (pool(d.gtt)) return true;
  for (const auto& gpu : d.gpus)
    if (pool(gpu->vram) || pool(gpu->mmio)) return true;
  for (const auto& [base, m] : d.cpu_mappings)
    if (overlaps(base, m.length)) return true;
  return false;
}

// svm_range_is_valid: every page lies in a VMA of the process that is no device mapping
// (-EFAULT), found by walking the VMAs, not the pages; then svm_range_check_vm: no buffer
// object is mapped over them (-EADDRINUSE). A call that grants the GPU access also needs the
// pages readable, as hmm_range_fault does when the range is mapped (KFD-SVM-2).
int check_range(const DeviceState& d, const Process& p, uint64_t start, uint64_t size, bool needs_pages) {
  if (start >= kUserVaLimit || size > kUserVaLimit - start) return -EFAULT;
  if (!user_range_has_vmas(start, size) || overlaps_device_memory(d, start, size)) return -EFAULT;
  for (const auto& [idr, bo] : p.bos)
    if (bo.mapped() && bo.va < start + size && start < bo.va + bo.size) return -EADDRINUSE;
  if (needs_pages && !user_range_mapped(start, size)) return -EFAULT;
  return 0;
}

bool grants_access(const kfd_ioctl_svm_attribute* attrs, uint32_t nattr) {
  for (uint32_t i = 0; i < nattr; ++i)
    if (attrs[i].type == KFD_IOCTL_SVM_ATTR_ACCESS || attrs[i].type == KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE) return true;
  return false;
}

// The first range holding a page at or after `first` (a range may start before it).
std::map<uint64_t, SvmRange>::iterator first_overlap(SvmRangeTable& t, uint64_t first) {
  auto it = t.ranges.upper_bound(first);
  if (it != t.ranges.begin() && std::prev(it)->second.last >= first) return std::prev(it);
  return it;
}

SvmRange default_range(const Process& p, uint64_t last) {
  SvmRange r;
  r.last = last;
  r.preferred_loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
  r.prefetch_loc = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
  r.flags = KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT;
  r.granularity = kDefaultGranularity;
  r.access = p.xnack_enabled;  // with XNACK on, new ranges are accessible to every GPU
  return r;
}

// Splits the range containing page `at` (if one does and starts before it) into two.
void split_at(SvmRangeTable& t, uint64_t at) {
  auto it = t.ranges.upper_bound(at);
  if (it == t.ranges.begin()) return;
  --it;
  if (it->first == at || it->second.last < at) return;
  SvmRange tail = it->second;
  it->second.last = at - 1;
  t.ranges.emplace(at, tail);
}

void apply(SvmRange& r, const kfd_ioctl_svm_attribute& a) {
  switch (a.type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC: r.preferred_loc = a.value; break;
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC: r.prefetch_loc = a.value; break;  // migration: no-op copy
    case KFD_IOCTL_SVM_ATTR_ACCESS: r.access = true; r.access_in_place = false; break;
    case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE: r.access = false; r.access_in_place = true; break;
    case KFD_IOCTL_SVM_ATTR_NO_ACCESS: r.access = false; r.access_in_place = false; break;
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS: r.flags |= a.value; break;
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS: r.flags &= ~a.value; break;
    case KFD_IOCTL_SVM_ATTR_GRANULARITY: r.granularity = a.value < kMaxGranularity ? a.value : kMaxGranularity; break;
    default: break;  // rejected by check_attrs
  }
}

uint64_t pte_flags(const SvmRange& r) {
  using namespace gpu::vm;
  uint64_t f = kPteReadable | kPteSystem;
  if (!(r.flags & KFD_IOCTL_SVM_FLAG_GPU_RO)) f |= kPteWriteable;
  if (r.flags & KFD_IOCTL_SVM_FLAG_GPU_EXEC) f |= kPteExecutable;
  // GPU-GRAIN-1: amdkfd's svm_range_get_pte_flags on gfx900: COHERENT ranges are MTYPE_UC.
  f |= (r.flags & KFD_IOCTL_SVM_FLAG_COHERENT) ? kPteMtypeUc : kPteMtypeNc;
  return f;
}

// KFD-SVM-5: (re)writes the PTEs of one range after its attributes changed. The model keeps
// one access state per range, not per GPU: an accessible range is mapped into every GPU's VM.
void update_mapping(Process& p, uint64_t first, SvmRange& r) {
  const uint64_t va = first << kPageShift;
  const uint64_t size = (r.last - first + 1) << kPageShift;
  if (r.mapped)
    for (ProcessDevice& pd : p.pdd) pd.vm->unmap(va, size);
  r.mapped = false;
  if (r.access || r.access_in_place) {
    // check_range refused ranges over mapped buffers, so the range maps alike in every VM.
    r.mapped = true;
    for (ProcessDevice& pd : p.pdd) r.mapped &= pd.vm->map(va, va, size, pte_flags(r)) == 0;
  }
  for (ProcessDevice& pd : p.pdd) pd.vm->invalidate_tlb_range(va, size);
}

// Merges neighbours with equal attributes around [first, last] so repeated calls keep the table small.
void merge_around(SvmRangeTable& t, uint64_t first, uint64_t last) {
  auto it = t.ranges.lower_bound(first);
  if (it != t.ranges.begin()) --it;
  while (it != t.ranges.end() && it->first <= last + 1) {
    auto next = std::next(it);
    if (next == t.ranges.end()) break;
    if (it->second.last + 1 == next->first && it->second.mapped == next->second.mapped &&
        it->second.same_attributes(next->second)) {
      it->second.last = next->second.last;
      t.ranges.erase(next);
    } else {
      it = next;
    }
  }
}

int set_attr(DeviceState& d, Process& p, uint64_t start, uint64_t size, const kfd_ioctl_svm_attribute* attrs,
             uint32_t nattr) {
  if (const int r = check_attrs(d, attrs, nattr)) return r;
  if (const int r = check_range(d, p, start, size, grants_access(attrs, nattr))) return r;
  SvmRangeTable& t = p.svm;
  const uint64_t first = start >> kPageShift;
  const uint64_t last = first + (size >> kPageShift) - 1;
  split_at(t, first);
  split_at(t, last + 1);
  // Fill the gaps of [first, last] with new default ranges (svm_range_add's insert list).
  uint64_t page = first;
  for (auto it = t.ranges.lower_bound(first); page <= last;) {
    const uint64_t gap_end = (it == t.ranges.end() || it->first > last) ? last : it->first - 1;
    if (it != t.ranges.end() && it->first == page) {
      page = it->second.last + 1;
      ++it;
      continue;
    }
    if (gap_end >= page) t.ranges.emplace(page, default_range(p, gap_end));
    page = gap_end + 1;
    it = t.ranges.lower_bound(page);
  }
  for (auto it = t.ranges.lower_bound(first); it != t.ranges.end() && it->first <= last; ++it) {
    for (uint32_t i = 0; i < nattr; ++i) apply(it->second, attrs[i]);
    update_mapping(p, it->first, it->second);
  }
  merge_around(t, first, last);
  return 0;
}

// svm_range_get_attr: one value per attribute over the whole request; where ranges differ
// the locations read UNDEFINED, SET_FLAGS the AND of the flags, CLR_FLAGS the complement of
// their OR, GRANULARITY the smallest, ACCESS the strongest access all ranges share (KFD-SVM-4).
int get_attr(DeviceState& d, Process& p, uint64_t start, uint64_t size, kfd_ioctl_svm_attribute* attrs,
             uint32_t nattr) {
  if (const int r = check_range(d, p, start, size, false)) return r;
  bool get_pref = false, get_prefetch = false;
  for (uint32_t i = 0; i < nattr; ++i) {
    switch (attrs[i].type) {
      case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC: get_pref = true; break;
      case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC: get_prefetch = true; break;
      case KFD_IOCTL_SVM_ATTR_ACCESS:
      case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
      case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
      case KFD_IOCTL_SVM_ATTR_GRANULARITY:
        break;
      default:
        return -EINVAL;  // ACCESS_IN_PLACE and NO_ACCESS are answers, not questions
    }
  }
  const uint64_t first = start >> kPageShift;
  const uint64_t last = first + (size >> kPageShift) - 1;
  uint32_t location = KFD_IOCTL_SVM_LOCATION_UNDEFINED, prefetch = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
  uint32_t flags_and = 0xffffffffu, flags_or = 0, granularity = 0xff;
  bool access = true, in_place = true;
  auto it = first_overlap(p.svm, first);
  if (it == p.svm.ranges.end() || it->first > last) {
    const SvmRange def = default_range(p, 0);
    flags_and = flags_or = def.flags;
    granularity = def.granularity;
    access = def.access;
    in_place = false;
  } else {
    for (; it != p.svm.ranges.end() && it->first <= last; ++it) {
      const SvmRange& r = it->second;
      if (get_pref) {
        if (r.preferred_loc == KFD_IOCTL_SVM_LOCATION_UNDEFINED ||
            (location != KFD_IOCTL_SVM_LOCATION_UNDEFINED && location != r.preferred_loc)) {
          location = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
          get_pref = false;
        } else {
          location = r.preferred_loc;
        }
      }
      if (get_prefetch) {
        if (r.prefetch_loc == KFD_IOCTL_SVM_LOCATION_UNDEFINED ||
            (prefetch != KFD_IOCTL_SVM_LOCATION_UNDEFINED && prefetch != r.prefetch_loc)) {
          prefetch = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
          get_prefetch = false;
        } else {
          prefetch = r.prefetch_loc;
        }
      }
      access = access && r.access;
      in_place = in_place && r.access_in_place;
      flags_and &= r.flags;
      flags_or |= r.flags;
      if (r.granularity < granularity) granularity = r.granularity;
    }
  }
  for (uint32_t i = 0; i < nattr; ++i) {
    switch (attrs[i].type) {
      case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC: attrs[i].value = location; break;
      case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC: attrs[i].value = prefetch; break;
      case KFD_IOCTL_SVM_ATTR_ACCESS:
        if (d.gpu_index(attrs[i].value) < 0) return -EINVAL;  // "invalid gpuid"
        attrs[i].type = access     ? KFD_IOCTL_SVM_ATTR_ACCESS
                        : in_place ? KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE
                                   : KFD_IOCTL_SVM_ATTR_NO_ACCESS;
        break;
      case KFD_IOCTL_SVM_ATTR_SET_FLAGS: attrs[i].value = flags_and; break;
      case KFD_IOCTL_SVM_ATTR_CLR_FLAGS: attrs[i].value = ~flags_or; break;
      case KFD_IOCTL_SVM_ATTR_GRANULARITY: attrs[i].value = granularity; break;
      default: break;
    }
  }
  return 0;
}

}  // namespace

// KFD-SVM-1..3: the ioctl's own checks, then the operation.
int kfd_ioctl_svm(IoctlCall& c) {
  auto* args = static_cast<kfd_ioctl_svm_args*>(c.args);
  if ((args->start_addr & (kPage - 1)) != 0 || (args->size & (kPage - 1)) != 0) return -EINVAL;
  if (args->start_addr == 0 || args->size == 0) return -EINVAL;
  // The attributes travel in the ioctl's size field (the thunk adds nattr * 8 to it);
  // attributes beyond what was copied in are not there to read.
  if (args->nattr > (c.size - sizeof(*args)) / sizeof(kfd_ioctl_svm_attribute)) return -EINVAL;
  // KFD-MP-6: SVM maps the process's own pages at their addresses (GPU VA = host VA), which only
  // works where the driver shares that address space: the shared model's daemon answers as an
  // amdkfd built without SVM support does (CONFIG_HSA_AMD_SVM off: -EPERM).
  if (!current_user_memory().own()) return -EPERM;
  switch (args->op) {
    case KFD_IOCTL_SVM_OP_SET_ATTR:
      return set_attr(c.dev, c.p, args->start_addr, args->size, args->attrs, args->nattr);
    case KFD_IOCTL_SVM_OP_GET_ATTR:
      return get_attr(c.dev, c.p, args->start_addr, args->size, args->attrs, args->nattr);
    default:
      return -EINVAL;
  }
}

void svm_release_locked(Process& p) {
  for (auto& [first, r] : p.svm.ranges)
    if (r.mapped)
      for (ProcessDevice& pd : p.pdd) pd.vm->unmap(first << kPageShift, (r.last - first + 1) << kPageShift);
  p.svm.ranges.clear();
}

}  // namespace rocref::kfd
