// cli/exec_command.cpp - `rocref exec -- COMMAND...`: runs a program on the model through the interposer.
//
// Sets LD_PRELOAD to librocref_preload.so (found next to this binary's build or
// install tree, or named by --lib / ROCREF_PRELOAD_LIB) and execs the command,
// so unmodified ROCm user space (rocminfo, libhsakmt, ROCR) talks to the KFD model.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/drop_ins.h"
#include "cli/parse_args.h"
#include "kfd/kfd_wire.h"

namespace rocref::cli {
namespace {

std::string default_socket() { return "/tmp/rocref-kfd-" + std::to_string(::getuid()) + ".sock"; }

bool daemon_answers(const std::string& socket) {
  const int s = kfd::wire::connect_socket(socket.c_str());
  if (s < 0) return false;
  ::close(s);
  return true;
}

// KFD-MP-5: the daemon at `socket`, started (detached: its own session, not the command's child)
// when none answers there. It exits by itself after `idle_s` seconds without a connection.
int ensure_daemon(const std::string& socket, double idle_s) {
  if (daemon_answers(socket)) return 0;
  const pid_t child = ::fork();
  if (child < 0) return -errno;
  if (child == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      if (!std::getenv("ROCREF_GPU_DAEMON_STDERR")) ::dup2(null, 2);
    }
    const std::string idle = std::to_string(idle_s);
    const char* argv[] = {"rocref", "gpu-daemon", "--socket", socket.c_str(), "--idle-exit", idle.c_str(), nullptr};
    ::unsetenv("ROCREF_KFD_SOCKET");
    ::execv("/proc/self/exe", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  for (int i = 0; i < 1000; ++i) {  // up to 10 s for the daemon to listen
    if (daemon_answers(socket)) return 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -ETIMEDOUT;
}

int exec_main(const std::vector<std::string>& args) {
  std::string lib;
  bool print = false;
  bool drop_ins = false;
  std::string shared;
  double idle_s = 10;
  CLI::App app{
      "Runs COMMAND with LD_PRELOAD set to the /dev/kfd interposer, so unmodified\n"
      "ROCm binaries run on rocref's KFD and GPU models.\n"
      "usage: rocref exec [--lib PATH] [--drop-ins] [--shared[=SOCKET]] [--print] [--] COMMAND [ARGS...]",
      "rocref exec"};
  app.add_option("--lib", lib,
                 std::string("the interposer (default: ROCREF_PRELOAD_LIB, else ") + kInterposerName +
                     " in lib/ or the installed private folder beside this binary's bin/)");
  app.add_flag("--drop-ins", drop_ins,
               "also load rocref's libhsakmt.so.1 and libhsa-runtime64.so.1 (the interposer's folder goes in front "
               "of LD_LIBRARY_PATH)");
  app.add_option("--shared", shared,
                 "run on one KFD and GPU model shared by every process under it: the daemon at SOCKET "
                 "(default " +
                     default_socket() + "), started if none answers; children inherit ROCREF_KFD_SOCKET")
      ->expected(0, 1);
  app.add_option("--daemon-idle-exit", idle_s, "seconds a daemon this command starts waits for a connection (10)");
  app.add_flag("--print", print, "print the LD_PRELOAD (and LD_LIBRARY_PATH) value and exit");
  app.prefix_command();  // everything from COMMAND on is the command's own arguments
  if (const int code = parse_args(app, args); code >= 0) return code;
  std::vector<std::string> command = app.remaining();
  if (!command.empty() && command.front() == "--") {
    command.erase(command.begin());
  } else if (!command.empty() && command.front().rfind("-", 0) == 0) {
    std::fprintf(stderr, "rocref exec: unknown option '%s'\n%s", command.front().c_str(), app.help().c_str());
    return 2;
  }
  if (lib.empty()) lib = find_interposer();
  if (lib.empty() || access(lib.c_str(), R_OK) != 0) {
    std::fprintf(stderr,
                 "rocref exec: interposer %s not found (build target rocref_preload, or set ROCREF_PRELOAD_LIB)\n",
                 lib.empty() ? kInterposerName : lib.c_str());
    return 127;
  }
  const ChildEnvironment env = child_environment(lib, drop_ins);
  const std::string& preload = env.ld_preload;
  const std::string& library_path = env.ld_library_path;
  if (print) {
    std::printf("LD_PRELOAD=%s\n", preload.c_str());
    if (drop_ins) std::printf("LD_LIBRARY_PATH=%s\n", library_path.c_str());
    return 0;
  }
  if (command.empty()) {
    std::fprintf(stderr, "rocref exec: no COMMAND\n%s", app.help().c_str());
    return 2;
  }
  if (app.count("--shared") > 0) {
    if (shared.empty()) shared = default_socket();
    if (const int err = ensure_daemon(shared, idle_s); err < 0) {
      std::fprintf(stderr, "rocref exec: no GPU daemon at %s: %s\n", shared.c_str(), std::strerror(-err));
      return 1;
    }
    setenv("ROCREF_KFD_SOCKET", shared.c_str(), 1);
  }
  setenv("LD_PRELOAD", preload.c_str(), 1);
  if (drop_ins) setenv("LD_LIBRARY_PATH", library_path.c_str(), 1);
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "rocref exec: cannot run '%s': %s\n", argv[0], std::strerror(errno));
  return errno == ENOENT ? 127 : 126;
}

const CommandRegistration kRegistration{"exec", "run a program on the model through the /dev/kfd interposer",
                                        exec_main};

}  // namespace
}  // namespace rocref::cli
