// hip/hiprtc_api.cpp - the hiprtc C API of HIP 5.2.3's libamdhip64 (<hip/hiprtc.h>): argument
// checks and the program handles; the compilation is hiprtc_program.cpp's (HIP-RTC-1..3).
//
// Where HIP 5.2.3 would dereference a null or freed program, the call here answers
// HIPRTC_ERROR_INVALID_PROGRAM: a handle is good only while it is in the table of live programs.
#include <hip/hiprtc.h>

#include <cstring>
#include <mutex>
#include <new>
#include <set>

#include "hip/hiprtc_program.h"

namespace rocref::hip {
namespace {

std::mutex g_programs_mutex;
std::set<RtcProgram*>& programs() {
  static auto* live = new std::set<RtcProgram*>;
  return *live;
}

RtcProgram* program_of(hiprtcProgram p) {
  auto* program = reinterpret_cast<RtcProgram*>(p);
  std::lock_guard lock(g_programs_mutex);
  return programs().count(program) != 0 ? program : nullptr;
}

// The size, or a copy of the bytes, of one of a program's outputs (its code or its log), with
// HIP 5.2.3's checks in its order: an unknown program, then a null pointer.
template <typename Bytes>
hiprtcResult output_size(hiprtcProgram prog, size_t* size, const Bytes& (RtcProgram::*output)() const) {
  RtcProgram* program = program_of(prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (size == nullptr) return HIPRTC_ERROR_INVALID_INPUT;
  *size = (program->*output)().size();
  return HIPRTC_SUCCESS;
}
template <typename Bytes>
hiprtcResult output_bytes(hiprtcProgram prog, char* out, const Bytes& (RtcProgram::*output)() const) {
  RtcProgram* program = program_of(prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (out == nullptr) return HIPRTC_ERROR_INVALID_INPUT;
  const Bytes& bytes = (program->*output)();
  std::memcpy(out, bytes.data(), bytes.size());
  return HIPRTC_SUCCESS;
}

}  // namespace
}  // namespace rocref::hip

using rocref::hip::output_bytes;
using rocref::hip::output_size;
using rocref::hip::program_of;
using rocref::hip::RtcProgram;

extern "C" {

const char* hiprtcGetErrorString(hiprtcResult result) {
  switch (result) {
    case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
    case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
    case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
    case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
    case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
    case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
    case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
    case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
    case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
      return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
    case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
    case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
    case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
  }
  return nullptr;  // HIP 5.2.3: an unknown code has no string
}

// HIP 5.2.3's hiprtc reports version 9.0.
hiprtcResult hiprtcVersion(int* major, int* minor) {
  if (major == nullptr || minor == nullptr) return HIPRTC_ERROR_INVALID_INPUT;
  *major = 9;
  *minor = 0;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name, int numHeaders,
                                 const char** headers, const char** includeNames) {
  if (prog == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numHeaders < 0) return HIPRTC_ERROR_INVALID_INPUT;
  if (numHeaders > 0 && (headers == nullptr || includeNames == nullptr)) return HIPRTC_ERROR_INVALID_INPUT;
  if (src == nullptr || *src == '\0') return HIPRTC_ERROR_INVALID_INPUT;
  for (int i = 0; i < numHeaders; ++i) {
    if (headers[i] == nullptr || includeNames[i] == nullptr || *headers[i] == '\0' || *includeNames[i] == '\0') {
      return HIPRTC_ERROR_INVALID_INPUT;
    }
  }
  auto* program = new (std::nothrow) RtcProgram(src, name != nullptr ? name : "");
  if (program == nullptr) return HIPRTC_ERROR_PROGRAM_CREATION_FAILURE;
  for (int i = 0; i < numHeaders; ++i) program->add_header(headers[i], includeNames[i]);
  {
    std::lock_guard lock(rocref::hip::g_programs_mutex);
    rocref::hip::programs().insert(program);
  }
  *prog = reinterpret_cast<hiprtcProgram>(program);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
  if (prog == nullptr) return HIPRTC_ERROR_INVALID_INPUT;
  RtcProgram* program = program_of(*prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  {
    std::lock_guard lock(rocref::hip::g_programs_mutex);
    rocref::hip::programs().erase(program);
  }
  delete program;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char** options) {
  RtcProgram* program = program_of(prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && options == nullptr)) return HIPRTC_ERROR_INVALID_INPUT;
  std::vector<std::string> list;
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr) return HIPRTC_ERROR_INVALID_OPTION;
    list.emplace_back(options[i]);
  }
  return program->compile(list) ? HIPRTC_SUCCESS : HIPRTC_ERROR_COMPILATION;
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
  RtcProgram* program = program_of(prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == nullptr || *name_expression == '\0') return HIPRTC_ERROR_INVALID_INPUT;
  program->add_name_expression(name_expression);
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression, const char** lowered_name) {
  RtcProgram* program = program_of(prog);
  if (program == nullptr) return HIPRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == nullptr || lowered_name == nullptr) return HIPRTC_ERROR_INVALID_INPUT;
  // Before compilation, and for an expression never added, HIP 5.2.3 answers NOT_VALID.
  const char* name = program->lowered_name(name_expression);
  if (name == nullptr) return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  *lowered_name = name;
  return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* codeSizeRet) {
  return output_size(prog, codeSizeRet, &RtcProgram::code);
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) { return output_bytes(prog, code, &RtcProgram::code); }

// The log's size counts its bytes; HIP 5.2.3 writes no NUL after them.
hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* logSizeRet) {
  return output_size(prog, logSizeRet, &RtcProgram::log);
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) { return output_bytes(prog, log, &RtcProgram::log); }

}  // extern "C"
