// hip/hiprtc_program.cpp - a hiprtc program compiled through libamd_comgr (HIP-RTC-1..3).
//
// The steps are HIP 5.2.3 hiprtc's: the source (with an implicit include of the HIP runtime
// header) compiled to bitcode, the device libraries (rocm-device-libs) added and linked in, code generation to a
// relocatable object and its link to an executable code object; each step's log is appended to
// the program's log. Lowered names come from the executable's symbols, demangled and cut to the
// kernel's name with its template arguments, matched against the name expressions.
#include "hip/hiprtc_program.h"

#include <amd_comgr.h>
#include <cxxabi.h>
#include <hip/hip_version.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

#ifndef ROCREF_HIPRTC_HIP_INCLUDE_DIR
#error "ROCREF_HIPRTC_HIP_INCLUDE_DIR: the directory of Debian's hip/hip_runtime.h"
#endif
#ifndef ROCREF_HIPRTC_CLANG_RESOURCE_DIR
#error "ROCREF_HIPRTC_CLANG_RESOURCE_DIR: clang's resource directory (its include/cuda_wrappers)"
#endif

namespace rocref::hip {
namespace {

std::mutex g_comgr_mutex;  // LLVM inside comgr is not thread-safe (hiprtc 5.2.3 holds one lock too)

// The header every program includes first: the C types Debian's HIP headers expect from the
// C library, then the HIP runtime header.
constexpr const char kPreludeName[] = "rocref_hiprtc_prelude.h";
constexpr const char kPrelude[] =
    "#pragma once\n"
    "#include <hip/hip_runtime.h>\n";

struct DataSet {
  amd_comgr_data_set_t set{0};
  DataSet() { amd_comgr_create_data_set(&set); }
  ~DataSet() { amd_comgr_destroy_data_set(set); }
  DataSet(const DataSet&) = delete;
  DataSet& operator=(const DataSet&) = delete;
};

struct ActionInfo {
  amd_comgr_action_info_t info{0};
  ActionInfo(const std::string& isa, const std::vector<std::string>& options) {
    amd_comgr_create_action_info(&info);
    amd_comgr_action_info_set_language(info, AMD_COMGR_LANGUAGE_HIP);
    amd_comgr_action_info_set_isa_name(info, isa.c_str());
    amd_comgr_action_info_set_logging(info, true);
    std::vector<const char*> list;
    for (const auto& o : options) {
      if (!o.empty()) list.push_back(o.c_str());
    }
    amd_comgr_action_info_set_option_list(info, list.data(), list.size());
  }
  ~ActionInfo() { amd_comgr_destroy_action_info(info); }
  ActionInfo(const ActionInfo&) = delete;
  ActionInfo& operator=(const ActionInfo&) = delete;
};

bool add_data(amd_comgr_data_set_t set, amd_comgr_data_kind_t kind, const std::string& name, const char* bytes,
              size_t size) {
  amd_comgr_data_t data;
  if (amd_comgr_create_data(kind, &data) != AMD_COMGR_STATUS_SUCCESS) return false;
  const bool ok = amd_comgr_set_data(data, size, bytes) == AMD_COMGR_STATUS_SUCCESS &&
                  amd_comgr_set_data_name(data, name.c_str()) == AMD_COMGR_STATUS_SUCCESS &&
                  amd_comgr_data_set_add(set, data) == AMD_COMGR_STATUS_SUCCESS;
  amd_comgr_release_data(data);
  return ok;
}

// Every data object of `kind` in `set`, concatenated.
std::vector<char> take(amd_comgr_data_set_t set, amd_comgr_data_kind_t kind) {
  std::vector<char> out;
  size_t count = 0;
  if (amd_comgr_action_data_count(set, kind, &count) != AMD_COMGR_STATUS_SUCCESS) return out;
  for (size_t i = 0; i < count; ++i) {
    amd_comgr_data_t data;
    if (amd_comgr_action_data_get_data(set, kind, i, &data) != AMD_COMGR_STATUS_SUCCESS) continue;
    size_t size = 0;
    if (amd_comgr_get_data(data, &size, nullptr) == AMD_COMGR_STATUS_SUCCESS) {
      const size_t at = out.size();
      out.resize(at + size);
      if (amd_comgr_get_data(data, &size, out.data() + at) != AMD_COMGR_STATUS_SUCCESS) out.resize(at);
    }
    amd_comgr_release_data(data);
  }
  return out;
}

// One action; its log goes to `log`. False when comgr reports a failure.
bool run(amd_comgr_action_kind_t kind, const std::string& isa, const std::vector<std::string>& options,
         amd_comgr_data_set_t in, amd_comgr_data_set_t out, std::string* log) {
  ActionInfo info(isa, options);
  const amd_comgr_status_t status = amd_comgr_do_action(kind, info.info, in, out);
  const std::vector<char> text = take(out, AMD_COMGR_DATA_KIND_LOG);
  log->append(text.begin(), text.end());
  return status == AMD_COMGR_STATUS_SUCCESS;
}

std::string without_spaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c) != 0; }), s.end());
  return s;
}

// "void ns::k<int, 2>(int*, float)" -> "ns::k<int,2>": the return type and parameters dropped.
std::string kernel_name_of(std::string demangled) {
  if (demangled.rfind("void ", 0) == 0) demangled.erase(0, 5);
  size_t at = demangled.find_first_of("(<");
  if (at == std::string::npos) return without_spaces(demangled);
  if (demangled[at] == '<') {
    int depth = 0;
    for (; at < demangled.size(); ++at) {
      depth += demangled[at] == '<' ? 1 : demangled[at] == '>' ? -1 : 0;
      if (depth == 0) break;
    }
    demangled.erase(std::min(at + 1, demangled.size()));
  } else {
    demangled.erase(at);
  }
  return without_spaces(demangled);
}

std::string default_isa() {
  const auto dev = device();
  if (!dev) return {};
  return "amdgcn-amd-amdhsa--" + (*dev)->info().isa_name;
}

}  // namespace

void RtcProgram::add_name_expression(const std::string& expression) {
  std::string stripped = expression;
  if (!stripped.empty() && stripped.back() == ')') {  // "(&k<int>)"
    stripped.pop_back();
    stripped.erase(0, stripped.find('(') + 1);
  }
  if (!stripped.empty() && stripped.front() == '&') stripped.erase(0, 1);
  stripped = without_spaces(stripped);
  stripped_[expression] = stripped;
  lowered_.emplace(stripped, std::string());
  // A constant naming the kernel makes the compiler instantiate (and keep) it.
  source_ += "\nextern \"C\" constexpr auto __hiprtc_" + std::to_string(stripped_.size()) + " = " + expression + ";\n";
}

bool RtcProgram::compile(const std::vector<std::string>& user_options) {
  std::lock_guard lock(g_comgr_mutex);
  log_.clear();
  code_.clear();
  std::string isa;
  std::vector<std::string> options = {"-O3", "-mllvm", "-amdgpu-prelink", "-mwavefrontsize64",
                                      "--hip-version=" + std::to_string(HIP_VERSION_MAJOR) + "." +
                                          std::to_string(HIP_VERSION_MINOR) + "." + std::to_string(HIP_VERSION_PATCH),
                                      "-DHIP_VERSION_MAJOR=" + std::to_string(HIP_VERSION_MAJOR),
                                      "-DHIP_VERSION_MINOR=" + std::to_string(HIP_VERSION_MINOR),
                                      "-DHIP_VERSION_PATCH=" + std::to_string(HIP_VERSION_PATCH), "-std=c++14",
                                      "-nogpuinc",  // the HIP header comes from the prelude
                                      // The HIP headers and clang's wrappers they include, after
                                      // the C++ library's own directories.
                                      "-isystem", std::string(ROCREF_HIPRTC_CLANG_RESOURCE_DIR) + "/include/..",
                                      "-idirafter", std::string(ROCREF_HIPRTC_HIP_INCLUDE_DIR) + "/x86_64-linux-gnu",
                                      "-idirafter", ROCREF_HIPRTC_HIP_INCLUDE_DIR, "-include", kPreludeName};
  for (std::string o : user_options) {
    if (o == "-hip-pch") continue;  // deprecated, no effect (as in HIP 5.2.3)
    if (o.rfind("--gpu-architecture=", 0) == 0) o = "--offload-arch=" + o.substr(std::strlen("--gpu-architecture="));
    if (o.rfind("--offload-arch=", 0) == 0) {
      isa = "amdgcn-amd-amdhsa--" + o.substr(std::strlen("--offload-arch="));
      continue;  // the target is the action's ISA
    }
    options.push_back(o);
  }
  if (isa.empty()) isa = default_isa();
  if (isa.empty()) {
    log_ += "Error: Please provide architecture for which code is to be generated.\n";
    return false;
  }

  DataSet sources, bitcode, with_libraries, linked, relocatable, executable;
  bool ok = add_data(sources.set, AMD_COMGR_DATA_KIND_SOURCE, name_.empty() ? "CompileSource" : name_, source_.data(),
                     source_.size()) &&
            add_data(sources.set, AMD_COMGR_DATA_KIND_INCLUDE, kPreludeName, kPrelude, std::strlen(kPrelude));
  for (const auto& [name, text] : headers_) {
    ok = ok && add_data(sources.set, AMD_COMGR_DATA_KIND_INCLUDE, name, text.data(), text.size());
  }
  if (!ok) return false;
  const std::vector<std::string> code_options = {"-O3", "-mllvm", "-amdgpu-internalize-symbols", "-mwavefrontsize64"};
  if (!run(AMD_COMGR_ACTION_COMPILE_SOURCE_TO_BC, isa, options, sources.set, bitcode.set, &log_) ||
      !run(AMD_COMGR_ACTION_ADD_DEVICE_LIBRARIES, isa, {"wavefrontsize64"}, bitcode.set, with_libraries.set, &log_) ||
      !run(AMD_COMGR_ACTION_LINK_BC_TO_BC, isa, {}, with_libraries.set, linked.set, &log_) ||
      !run(AMD_COMGR_ACTION_CODEGEN_BC_TO_RELOCATABLE, isa, code_options, linked.set, relocatable.set, &log_) ||
      !run(AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, isa, code_options, relocatable.set, executable.set,
           &log_)) {
    return false;
  }
  code_ = take(executable.set, AMD_COMGR_DATA_KIND_EXECUTABLE);
  if (code_.empty()) return false;

  // HIP-RTC-3: the symbols of the code object, demangled, against the name expressions.
  amd_comgr_data_t object;
  if (amd_comgr_create_data(AMD_COMGR_DATA_KIND_EXECUTABLE, &object) != AMD_COMGR_STATUS_SUCCESS) return false;
  std::vector<std::string> symbols;
  if (amd_comgr_set_data(object, code_.size(), code_.data()) == AMD_COMGR_STATUS_SUCCESS) {
    amd_comgr_iterate_symbols(
        object,
        [](amd_comgr_symbol_t symbol, void* data) {
          size_t length = 0;
          if (amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_NAME_LENGTH, &length) !=
              AMD_COMGR_STATUS_SUCCESS) {
            return AMD_COMGR_STATUS_SUCCESS;
          }
          std::string name(length, '\0');
          if (amd_comgr_symbol_get_info(symbol, AMD_COMGR_SYMBOL_INFO_NAME, name.data()) == AMD_COMGR_STATUS_SUCCESS) {
            static_cast<std::vector<std::string>*>(data)->push_back(name);
          }
          return AMD_COMGR_STATUS_SUCCESS;
        },
        &symbols);
  }
  amd_comgr_release_data(object);
  for (const std::string& symbol : symbols) {
    if (symbol.find(".kd") != std::string::npos) continue;  // the kernel descriptors
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr,
                                                                              &status),
                                                          &std::free);
    const std::string readable = status == 0 && demangled ? demangled.get() : symbol;
    const auto it = lowered_.find(kernel_name_of(readable));
    if (it == lowered_.end()) continue;
    // HIP-RTC-3 mutant: the expression itself comes back instead of the symbol's name.
    it->second = hip_mutant_active(HipMutant::RtcLoweredNameUnmangled) ? it->first : symbol;
  }
  return true;
}

const char* RtcProgram::lowered_name(const std::string& expression) const {
  auto s = stripped_.find(expression);
  const std::string key = s != stripped_.end() ? s->second : expression;
  auto l = lowered_.find(key);
  if (l == lowered_.end() || l->second.empty()) return nullptr;
  return l->second.c_str();
}

}  // namespace rocref::hip
