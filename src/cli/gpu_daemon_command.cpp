// cli/gpu_daemon_command.cpp - `rocref gpu-daemon --socket PATH`: one KFD and GPU model for every
// process started under `rocref exec --shared` (src/kfd/kfd_server.h, spec/kfd.md KFD-MP-*).
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/parse_args.h"
#include "common/copy_fill_kernels.h"
#include "kfd/kfd_device.h"
#include "kfd/kfd_server.h"

namespace rocref::cli {
namespace {

kfd::KfdServer* g_server = nullptr;

int gpu_daemon_main(const std::vector<std::string>& args) {
  std::string socket;
  double idle_s = 0;
  CLI::App app{
      "Serves one KFD and GPU model to every process that connects at SOCKET (rocref exec --shared).\n"
      "usage: rocref gpu-daemon --socket PATH [--idle-exit SECONDS]",
      "rocref gpu-daemon"};
  app.add_option("--socket", socket, "the unix socket to listen at")->required();
  app.add_option("--idle-exit", idle_s, "exit after this long with no connection (0: never)");
  if (const int code = parse_args(app, args); code >= 0) return code;
  // The daemon is the driver, not a client of another one.
  ::unsetenv("ROCREF_KFD_SOCKET");
  // The model's own kernels, at the fixed ids a client's copies and fills name (common/kernel_abi.h).
  copy_fill::copy_kernel_id();
  copy_fill::fill_kernel_id();
  kfd::KfdDevice device(kfd::KfdDevice::configured_gpu_count());
  kfd::KfdServer server(device, socket);
  if (const int err = server.listen(); err < 0) {
    std::fprintf(stderr, "rocref gpu-daemon: cannot listen at %s: %s\n", socket.c_str(), std::strerror(-err));
    return err == -EADDRINUSE ? 3 : 1;
  }
  g_server = &server;
  struct sigaction sa {};
  sa.sa_handler = [](int) {
    if (g_server) g_server->request_stop();
  };
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);
  server.run(std::chrono::milliseconds(static_cast<long long>(idle_s * 1000)));
  server.stop();
  g_server = nullptr;
  ::unlink(socket.c_str());
  return 0;
}

const CommandRegistration kRegistration{"gpu-daemon", "serve one shared KFD and GPU model on a unix socket",
                                        gpu_daemon_main};

}  // namespace
}  // namespace rocref::cli
