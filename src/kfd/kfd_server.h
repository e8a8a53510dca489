// kfd/kfd_server.h - the shared model's daemon side: one KfdDevice serving many processes.
//
// Listens on a unix socket. A session connection is one open of /dev/kfd (or of a render node)
// and lives as long as that descriptor: its end, however it comes (close, exit, kill -9), is the
// descriptor's release in the device (KFD-MP-3). Call connections carry ioctls and mmaps of the
// sessions of the same process (checked by the peer's pid, SO_PEERCRED), one call at a time
// each, on a thread each, so a WAIT_EVENTS blocks only its own connection. During a call, user
// pointers are read and written in the caller's memory through the connection (KFD-MP-2).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kfd/kfd_wire.h"

namespace rocref::kfd {

class KfdDevice;

class KfdServer {
 public:
  KfdServer(KfdDevice& device, std::string socket_path);
  ~KfdServer();
  KfdServer(const KfdServer&) = delete;
  KfdServer& operator=(const KfdServer&) = delete;

  // Binds and listens (a stale socket file nobody answers at is replaced): 0 or -errno
  // (-EADDRINUSE when a daemon already answers there).
  int listen();
  // Serves until stop(), or until no connection has been open for `idle` (zero: never).
  void run(std::chrono::milliseconds idle);
  // Ends run(), closes every connection (their processes are released) and joins the threads.
  void stop();
  // Async-signal-safe: makes run() return at its next poll.
  void request_stop() noexcept { stopping_.store(true); }
  size_t open_sessions() const;

 private:
  void serve(int sock);
  void reap();
  void serve_session(int sock, int pid, bool kfd, uint32_t minor);
  void serve_calls(int sock, int pid, wire::Op op, std::vector<uint8_t> body);

  KfdDevice& device_;
  std::string path_;
  int listen_fd_ = -1;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  std::map<int, int> session_pid_;      // daemon descriptor -> pid of the process that opened it
  std::map<int, std::thread> threads_;  // by connection socket
  std::vector<int> finished_;           // sockets whose thread has returned (joined by run)
  size_t connections_ = 0;
  std::chrono::steady_clock::time_point last_active_;
};

}  // namespace rocref::kfd
