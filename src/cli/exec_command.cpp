// cli/exec_command.cpp - `rocref exec -- COMMAND...`: runs a program on the model through the interposer.
//
// Sets LD_PRELOAD to librocref_preload.so (found next to this binary's build or
// install tree, or named by --lib / ROCREF_PRELOAD_LIB) and execs the command,
// so unmodified ROCm user space (rocminfo, libhsakmt, ROCR) talks to the KFD model.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/command.h"

namespace rocref::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLibName = "librocref_preload.so";

std::string find_interposer() {
  if (const char* env = std::getenv("ROCREF_PRELOAD_LIB"); env != nullptr && *env != '\0') return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path bin = exe.parent_path();
  for (const fs::path& candidate : {bin / ".." / "lib" / kLibName, bin / ".." / "lib" / "rocref" / kLibName,
                                    bin / kLibName}) {
    if (fs::exists(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return {};
}

int usage(FILE* out) {
  std::fprintf(out,
               "usage: rocref exec [--lib PATH] [--print] -- COMMAND [ARGS...]\n"
               "  Runs COMMAND with LD_PRELOAD set to the /dev/kfd interposer, so unmodified\n"
               "  ROCm binaries run on rocref's KFD and GPU models.\n"
               "  --lib PATH  the interposer (default: ROCREF_PRELOAD_LIB, else lib/%s\n"
               "              beside this binary's bin/)\n"
               "  --print     print the LD_PRELOAD value and exit\n",
               kLibName);
  return out == stdout ? 0 : 2;
}

int exec_main(const std::vector<std::string>& args) {
  std::string lib;
  bool print = false;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    if (args[i] == "--") {
      ++i;
      break;
    }
    if (args[i] == "-h" || args[i] == "--help") return usage(stdout);
    if (args[i] == "--print") {
      print = true;
    } else if (args[i] == "--lib" && i + 1 < args.size()) {
      lib = args[++i];
    } else if (args[i].rfind("-", 0) == 0) {
      std::fprintf(stderr, "rocref exec: unknown option '%s'\n", args[i].c_str());
      return usage(stderr);
    } else {
      break;  // the command itself, without a "--"
    }
  }
  if (lib.empty()) lib = find_interposer();
  if (lib.empty() || access(lib.c_str(), R_OK) != 0) {
    std::fprintf(stderr, "rocref exec: interposer %s not found (build target rocref_preload, or set ROCREF_PRELOAD_LIB)\n",
                 lib.empty() ? kLibName : lib.c_str());
    return 127;
  }
  std::string preload = lib;
  if (const char* old = std::getenv("LD_PRELOAD"); old != nullptr && *old != '\0') preload += std::string(":") + old;
  if (print) {
    std::printf("LD_PRELOAD=%s\n", preload.c_str());
    return 0;
  }
  if (i >= args.size()) return usage(stderr);
  setenv("LD_PRELOAD", preload.c_str(), 1);
  std::vector<char*> argv;
  for (size_t k = i; k < args.size(); ++k) argv.push_back(const_cast<char*>(args[k].c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "rocref exec: cannot run '%s': %s\n", argv[0], std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}

const CommandRegistration kRegistration{"exec", "run a program on the model through the /dev/kfd interposer",
                                        exec_main};

}  // namespace
}  // namespace rocref::cli
