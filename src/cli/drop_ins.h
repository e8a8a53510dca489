// cli/drop_ins.h - where the interposer and rocref's drop-in libraries are, and the environment
// that loads them into a program (`rocref exec`, `rocref run PROGRAM`).
#pragma once

#include <string>

namespace rocref::cli {

inline constexpr const char* kInterposerName = "librocref_preload.so";

// ROCREF_PRELOAD_LIB, else librocref_preload.so in the build or installed tree beside this
// binary's bin/; "" when none is found.
std::string find_interposer();

struct ChildEnvironment {
  std::string ld_preload;       // the interposer first, then the caller's LD_PRELOAD
  std::string ld_library_path;  // with drop-ins: the interposer's folder first; else ""
};
ChildEnvironment child_environment(const std::string& interposer, bool drop_ins);

}  // namespace rocref::cli
