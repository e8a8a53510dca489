// cli/drop_ins.cpp - finding the interposer and the drop-ins (see drop_ins.h).
#include "cli/drop_ins.h"

#include <cstdlib>
#include <filesystem>

namespace rocref::cli {
namespace {
namespace fs = std::filesystem;
// The installed tree's private library folder relative to the prefix (cmake/Install.cmake sets it).
#ifndef ROCREF_INSTALL_PRIVATE_LIBDIR
#define ROCREF_INSTALL_PRIVATE_LIBDIR "lib/rocref"
#endif
}  // namespace

std::string find_interposer() {
  if (const char* env = std::getenv("ROCREF_PRELOAD_LIB"); env != nullptr && *env != '\0') return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path bin = exe.parent_path();
  // Build tree (build/bin, build/lib), then the installed prefix, wherever it was moved to.
  for (const fs::path& candidate :
       {bin / ".." / "lib" / kInterposerName, bin / ".." / ROCREF_INSTALL_PRIVATE_LIBDIR / kInterposerName,
        bin / ".." / "lib" / "rocref" / kInterposerName, bin / kInterposerName}) {
    if (fs::exists(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return {};
}

ChildEnvironment child_environment(const std::string& interposer, bool drop_ins) {
  ChildEnvironment env;
  env.ld_preload = interposer;
  if (const char* old = std::getenv("LD_PRELOAD"); old != nullptr && *old != '\0')
    env.ld_preload += std::string(":") + old;
  // The drop-ins lie beside the interposer in the build tree (lib/) and the installed one
  // (lib/<multiarch>/rocref/), a folder the loader never searches by default.
  if (drop_ins) {
    env.ld_library_path = fs::path(interposer).parent_path().string();
    if (const char* old = std::getenv("LD_LIBRARY_PATH"); old != nullptr && *old != '\0')
      env.ld_library_path += std::string(":") + old;
  }
  return env;
}

}  // namespace rocref::cli
