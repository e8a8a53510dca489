// clr/program.cpp - loading through the HSA loader API, kernels from the metadata note (see program.h).
#include "clr/program.h"

#include <cstring>

#include "clr/clr_mutant.h"
#include "clr/device.h"
#include "common/trace.h"

namespace rocref::clr {
namespace {

bool hidden(const code_object::KernelArg& a) { return a.value_kind.rfind("hidden_", 0) == 0; }

hsa_status_t symbol_u32(hsa_executable_symbol_t s, hsa_executable_symbol_info_t what, uint32_t* out) {
  return hsa_executable_symbol_get_info(s, what, out);
}

}  // namespace

size_t KernelInfo::explicit_count() const {
  size_t n = 0;
  for (const auto& a : args) n += hidden(a) ? 0 : 1;
  return n;
}

Expected<std::unique_ptr<Program>, hsa_status_t> Program::load(Device& device, const std::vector<uint8_t>& image) {
  ROCREF_TRACE_SPAN(trace::Layer::Clr, "Program::load", std::to_string(image.size()) + " bytes");
  std::vector<code_object::KernelMetadata> metadata;
  if (!code_object::read_kernel_metadata(image.data(), image.size(), &metadata)) {
    return unexpected(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  }
  std::unique_ptr<Program> p(new Program());
  p->device_ = &device;
  if (hsa_status_t s = hsa_code_object_reader_create_from_memory(image.data(), image.size(), &p->reader_);
      s != HSA_STATUS_SUCCESS) {
    return unexpected(s);
  }
  if (hsa_status_t s = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr,
                                                 &p->executable_);
      s != HSA_STATUS_SUCCESS) {
    return unexpected(s);
  }
  const hsa_agent_t gpu = device.gpu();
  if (hsa_status_t s = hsa_executable_load_agent_code_object(p->executable_, gpu, p->reader_, nullptr, nullptr);
      s != HSA_STATUS_SUCCESS) {
    return unexpected(s);
  }
  if (hsa_status_t s = hsa_executable_freeze(p->executable_, nullptr); s != HSA_STATUS_SUCCESS) return unexpected(s);
  for (code_object::KernelMetadata& m : metadata) {
    hsa_executable_symbol_t symbol;
    if (hsa_status_t s = hsa_executable_get_symbol_by_name(p->executable_, m.symbol.c_str(), &gpu, &symbol);
        s != HSA_STATUS_SUCCESS) {
      return unexpected(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);  // metadata names a kernel the image lacks
    }
    KernelInfo k;
    k.name = m.name;
    k.max_flat_workgroup_size = m.max_flat_workgroup_size;
    k.args = std::move(m.args);
    if (hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k.kernel_object) !=
            HSA_STATUS_SUCCESS ||
        symbol_u32(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &k.kernarg_size) !=
            HSA_STATUS_SUCCESS ||
        symbol_u32(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, &k.kernarg_align) !=
            HSA_STATUS_SUCCESS ||
        symbol_u32(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k.group_segment_size) !=
            HSA_STATUS_SUCCESS ||
        symbol_u32(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k.private_segment_size) !=
            HSA_STATUS_SUCCESS) {
      return unexpected(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    }
    // The metadata's arguments must fit the segment the loader reports.
    for (const auto& a : k.args) {
      if (a.offset > k.kernarg_size || a.size > k.kernarg_size - a.offset) {
        return unexpected(HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
      }
    }
    p->kernels_.push_back(std::move(k));
  }
  return p;
}

Program::~Program() {
  if (executable_.handle != 0) hsa_executable_destroy(executable_);
  if (reader_.handle != 0) hsa_code_object_reader_destroy(reader_);
}

const KernelInfo* Program::kernel(const std::string& name) const {
  for (const KernelInfo& k : kernels_) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

bool Program::variable(const std::string& name, void** address, size_t* size) const {
  const hsa_agent_t gpu = device_->gpu();
  hsa_executable_symbol_t symbol;
  if (hsa_executable_get_symbol_by_name(executable_, name.c_str(), &gpu, &symbol) != HSA_STATUS_SUCCESS) return false;
  hsa_symbol_kind_t kind;
  uint64_t va = 0;
  uint32_t bytes = 0;
  if (hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) != HSA_STATUS_SUCCESS ||
      kind != HSA_SYMBOL_KIND_VARIABLE ||
      hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &va) != HSA_STATUS_SUCCESS ||
      hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &bytes) != HSA_STATUS_SUCCESS) {
    return false;
  }
  *address = reinterpret_cast<void*>(va);
  *size = bytes;
  return true;
}

bool build_kernargs(const KernelInfo& kernel, void** params, const void* packed, size_t packed_size,
                    std::vector<uint8_t>* out) {
  out->assign(kernel.kernarg_size, 0);
  const bool packed_mutant = clr_mutant_active(ClrMutant::KernargOffsetsIgnored);
  size_t index = 0;   // explicit argument number
  size_t cursor = 0;  // the packed mutant's running offset
  for (const code_object::KernelArg& a : kernel.args) {
    if (!hidden(a)) {
      const size_t at = packed_mutant ? cursor : a.offset;
      cursor += a.size;
      if (params != nullptr) {
        if (params[index] == nullptr) return false;
        std::memcpy(out->data() + at, params[index], a.size);
      } else {
        if (packed == nullptr || a.offset > packed_size || a.size > packed_size - a.offset) return false;
        std::memcpy(out->data() + at, static_cast<const uint8_t*>(packed) + a.offset, a.size);
      }
      ++index;
      continue;
    }
    // ROCclr 5.2.3: a HIP launch has no global offset; the buffers the model does not provide
    // (printf, hostcall, default queue, completion action, multi-grid sync) stay 0.
    if (a.value_kind == "hidden_global_offset_x" || a.value_kind == "hidden_global_offset_y" ||
        a.value_kind == "hidden_global_offset_z") {
      const uint64_t offset = clr_mutant_active(ClrMutant::HiddenGlobalOffsetNonzero) ? 1 : 0;
      std::memcpy(out->data() + a.offset, &offset, a.size < sizeof offset ? a.size : sizeof offset);
    }
  }
  return true;
}

}  // namespace rocref::clr
