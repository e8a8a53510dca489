// kfd/kfd_wire.h - the messages between a process and the shared model's daemon (KFD-MP-*).
//
// One unix stream socket per open descriptor (a session: its end is the descriptor's
// release), plus call connections the process opens as its threads need them (one call at a
// time each, so ioctls of several threads run at once, and one may block in WAIT_EVENTS).
// Every message is a Frame header and `size` bytes; descriptors travel as SCM_RIGHTS with the
// frame. While a call runs, the daemon may ask the caller for its memory (MemRead, MemWrite,
// MemCheck, Pin) on the same connection; the caller answers each with a MemReply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace rocref::kfd::wire {

enum class Op : uint32_t {
  Hello = 1,   // -> Result{rc = GPU count}: what the process's topology is built from
  OpenKfd,     // session: -> Result{rc = daemon descriptor or -errno}
  OpenRender,  // session, u32 minor: -> Result{rc}
  Close,       // session: release now -> Result{rc}
  Call,        // call connection: CallArgs + window bytes -> Result{rc} + written window bytes
  Mmap,        // call connection: MmapArgs -> Result{rc} + MmapAnswer, the memfd attached
  Result,
  MemRead,   // daemon -> caller: MemArgs -> MemReply{rc} + bytes
  MemWrite,  // daemon -> caller: MemArgs + bytes -> MemReply{rc}
  MemCheck,  // daemon -> caller: MemArgs (kind: 0 pages readable, 1 VMAs) -> MemReply{rc = 0/1}
  Pin,       // daemon -> caller: MemArgs (kind: writable) -> MemReply{rc} + PinPiece[], memfds
  MemReply,
};

struct Frame {
  uint32_t op = 0;
  uint32_t size = 0;
};

struct CallArgs {
  int32_t fd = -1;      // the daemon's descriptor
  uint32_t window = 0;  // bytes of the argument that follow (its whole _IOC_SIZE, or 0: unreadable)
  uint64_t request = 0;
  uint64_t arg = 0;  // the argument's address in the caller
};

struct MmapArgs {
  int32_t fd = -1;
  uint32_t placed = 0;
  uint64_t length = 0;
  uint64_t offset = 0;
};

struct MmapAnswer {
  uint64_t offset = 0;       // in the attached memfd
  uint32_t driver_view = 0;  // KFD-DB-3: the process's one view of this page
  uint32_t pad = 0;
};

struct ResultHead {
  int64_t rc = 0;
  uint32_t written = 0;  // window bytes that follow (0: the window was not written)
  uint32_t pad = 0;
};

struct MemArgs {
  uint64_t addr = 0;
  uint64_t size = 0;
  uint32_t kind = 0;
  uint32_t pad = 0;
};

// One mapping of a pinned range: [offset, offset + length) of the range is the attached memfd
// (in order) at file_offset.
struct PinPiece {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t file_offset = 0;
};

inline constexpr uint32_t kMaxFrame = 64u << 20;
inline constexpr size_t kMaxFds = 250;  // below the kernel's SCM_MAX_FD

// Sends a frame of `op` with the concatenation of the parts, and `fds` (may be empty).
// False when the peer is gone.
struct Part {
  const void* data;
  size_t size;
};
bool send_frame(int sock, Op op, std::initializer_list<Part> parts, const std::vector<int>& fds = {}) noexcept;
// Receives one frame; received descriptors are appended to *fds (the caller closes them).
bool recv_frame(int sock, Op* op, std::vector<uint8_t>* body, std::vector<int>* fds = nullptr) noexcept;
// Connects to the daemon's socket (SOCK_CLOEXEC): the descriptor or -errno.
int connect_socket(const char* path) noexcept;

}  // namespace rocref::kfd::wire
