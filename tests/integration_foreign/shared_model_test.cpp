// tests/integration_foreign/shared_model_test.cpp - unmodified binaries on one shared model (KFD-MP-1, KFD-MP-5).
//
// Runs Debian's rocminfo and the hipcc-built sample under `rocref exec --shared=SOCKET`, two at
// a time, with Debian's HIP and ROCR and with rocref's drop-ins: every process is a client of
// the one daemon the first `rocref exec` started.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

namespace {

std::string socket_path(const char* what) {
  return "/tmp/rocref-foreign-shared-" + std::to_string(::getpid()) + "-" + what + ".sock";
}

bool answers(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  const int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(s);
  return ok;
}

struct Program {
  FILE* pipe = nullptr;
  std::string out;
  int status = -1;
  void start(const std::string& socket, const std::string& args) {
    const std::string cmd = std::string(ROCREF_TOOL) + " exec --lib " + ROCREF_PRELOAD_LIB + " --shared=" + socket +
                            " --daemon-idle-exit 2 " + args + " 2>&1";
    pipe = ::popen(cmd.c_str(), "r");
  }
  void finish() {
    char buf[4096];
    size_t n;
    while (pipe && (n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    status = pipe ? ::pclose(pipe) : -1;
  }
};

// Past the daemon's idle time (every probe is a connection, which would keep it alive).
void wait_gone(const std::string&) { std::this_thread::sleep_for(std::chrono::seconds(4)); }

TEST(ForeignShared, KFD_MP_1_TwoRocminfosSeeOneMachine) {
  if (::access("/usr/bin/rocminfo", X_OK) != 0) GTEST_SKIP() << "no rocminfo";
  const std::string socket = socket_path("rocminfo");
  Program a, b;
  a.start(socket, "-- /usr/bin/rocminfo");
  b.start(socket, "-- /usr/bin/rocminfo");
  a.finish();
  b.finish();
  EXPECT_EQ(a.status, 0) << a.out;
  EXPECT_EQ(b.status, 0) << b.out;
  EXPECT_NE(a.out.find("gfx900"), std::string::npos) << a.out;
  EXPECT_EQ(a.out, b.out) << "both list the one machine";
  wait_gone(socket);
}

TEST(ForeignShared, KFD_MP_1_TwoHipProgramsRunAtOnce) {
  if (::access(ROCREF_SAMPLE, X_OK) != 0) GTEST_SKIP() << "no hipcc-built sample";
  const std::string socket = socket_path("hip");
  for (const char* mode : {"", "--drop-ins"}) {
    Program a, b;
    a.start(socket, std::string(mode) + " -- " + ROCREF_SAMPLE);
    b.start(socket, std::string(mode) + " -- " + ROCREF_SAMPLE);
    a.finish();
    b.finish();
    for (const Program* r : {&a, &b}) {
      EXPECT_EQ(r->status, 0) << mode << r->out;
      EXPECT_NE(r->out.find("saxpy: 0 of 16384 results differ"), std::string::npos) << mode << r->out;
      EXPECT_NE(r->out.find("block_sums (LDS, barriers): 0 of 64 sums differ"), std::string::npos) << mode << r->out;
    }
  }
  wait_gone(socket);
}

TEST(ForeignShared, KFD_MP_5_ExecSharedStartsTheDaemonWhichLeavesWhenIdle) {
  const std::string socket = socket_path("idle");
  ASSERT_FALSE(answers(socket));
  Program r;
  r.start(socket, "-- /bin/sh -c 'echo socket=$ROCREF_KFD_SOCKET'");
  r.finish();
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("socket=" + socket), std::string::npos) << r.out;
  EXPECT_TRUE(answers(socket)) << "the daemon the command started serves";
  wait_gone(socket);
  EXPECT_FALSE(answers(socket)) << "the daemon left after 2 s without a connection";
  EXPECT_NE(::access(socket.c_str(), F_OK), 0) << "and removed its socket";
}

}  // namespace
