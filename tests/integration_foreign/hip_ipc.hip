// tests/integration_foreign/hip_ipc.hip - a hipMalloc'd buffer shared with a second process.
//
// The parent hipMallocs a buffer, fills it, exports it with hipIpcGetMemHandle and runs itself
// again (fork + exec of /proc/self/exe) with the 64 handle bytes on a pipe. The child opens the
// handle with hipIpcOpenMemHandle, doubles every element and adds its index in a gfx900
// kernel, closes the handle and exits; the parent then checks every value. It needs one KFD
// for both processes (`rocref exec --shared`, one daemon behind every /dev/kfd): under the
// in-process model each process has its own device and the child's import fails. Exit status:
// 0 right, 1 wrong values, 2 a HIP call failed (the message names it).
#include <hip/hip_runtime.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kCount = 1 << 16;

__global__ void double_plus_index(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = 2 * data[i] + i;
}

#define CHECK(call)                                                                    \
  do {                                                                                 \
    const hipError_t e_ = (call);                                                      \
    if (e_ != hipSuccess) {                                                            \
      std::fprintf(stderr, "%s: %s (%d)\n", #call, hipGetErrorName(e_), int(e_));      \
      std::exit(2);                                                                    \
    }                                                                                  \
  } while (0)

int child(int fd) {
  hipIpcMemHandle_t handle;
  size_t got = 0;
  while (got < sizeof(handle)) {
    const ssize_t n = read(fd, reinterpret_cast<char*>(&handle) + got, sizeof(handle) - got);
    if (n <= 0) return 2;
    got += static_cast<size_t>(n);
  }
  void* ptr = nullptr;
  CHECK(hipIpcOpenMemHandle(&ptr, handle, hipIpcMemLazyEnablePeerAccess));
  hipLaunchKernelGGL(double_plus_index, dim3(kCount / 256), dim3(256), 0, 0, static_cast<int*>(ptr), kCount);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  CHECK(hipIpcCloseMemHandle(ptr));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0) return child(std::atoi(argv[2]));
  static_assert(sizeof(hipIpcMemHandle_t) == 64, "HIP_IPC_HANDLE_SIZE");
  int* buf = nullptr;
  CHECK(hipMalloc(&buf, kCount * sizeof(int)));
  int* host = static_cast<int*>(std::malloc(kCount * sizeof(int)));
  for (int i = 0; i < kCount; ++i) host[i] = 3 * i + 1;
  CHECK(hipMemcpy(buf, host, kCount * sizeof(int), hipMemcpyHostToDevice));
  hipIpcMemHandle_t handle;
  CHECK(hipIpcGetMemHandle(&handle, buf));
  int fds[2];
  if (pipe(fds) != 0) return 2;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[1]);
    const std::string fd = std::to_string(fds[0]);
    execl("/proc/self/exe", argv[0], "--child", fd.c_str(), static_cast<char*>(nullptr));
    _exit(2);
  }
  close(fds[0]);
  if (write(fds[1], &handle, sizeof(handle)) != static_cast<ssize_t>(sizeof(handle))) return 2;
  close(fds[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "importer exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 2;
  }
  CHECK(hipMemcpy(host, buf, kCount * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < kCount; ++i) wrong += host[i] != 2 * (3 * i + 1) + i;
  std::printf("%d of %d values as the importer's kernel wrote them\n", kCount - wrong, kCount);
  CHECK(hipFree(buf));
  std::free(host);
  return wrong == 0 ? 0 : 1;
}
