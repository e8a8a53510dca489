// kfd/userptr_pin.h - a USERPTR buffer's pages pinned as get_user_pages pins them.
//
// The GPU must never reach a host page that the application has unmapped. The
// pin gives the driver its own view of the user's pages, built per mapping of
// the range: private memory (anonymous, or a private file mapping such as an
// executable's .data and .bss) is moved into a memfd mapped both at the
// user's address (with the user's protection) and in the driver's view; a shared
// mapping (a file, shared memory, or pages an earlier registration moved into its
// memfd) gets a second mapping of the same pages (mremap with old size 0).
// Registrations may overlap, as amdgpu's userptr BOs may. GPU page tables point at
// the driver view, which stays valid until the buffer is freed, whatever the
// application does with its own mapping (KFD-MEM-10). Whether the user's range
// is still mapped is the MMU-notifier question: gpu::vm::GpuVm asks it at
// every translation of the buffer (user_range_present) and evicts on "no".
// Known limits: a private file mapping's pages stop following the file (they
// were the process's copy-on-write pages already once written); stores the
// application's other threads make to the range while it is being registered may
// be lost (registration copies the pages once). The calling thread's own stack is
// registered off that stack, while the thread waits (kfd/off_stack_call.h). A forked
// child's copies of the moved pages are made private again at fork (KFD-MEM-14), so parent
// and child never share a registered stack or heap page.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace rocref::kfd {

class UserptrPin {
 public:
  // KFD-MEM-3: 0 and *out, or -EFAULT when a page of [user, user + size) is not
  // mapped, not readable, or not writable while `writable` is asked (FOLL_WRITE).
  static int create(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out);
  // KFD-MP-2: a pin of another process's pages (the shared model's daemon): `view` is this
  // process's mapping of the memfd pages that process moved its range into; freed with munmap.
  static std::unique_ptr<UserptrPin> adopt(uint64_t user, uint64_t size, uint8_t* view);
  ~UserptrPin();
  UserptrPin(const UserptrPin&) = delete;
  UserptrPin& operator=(const UserptrPin&) = delete;

  uint8_t* host() const noexcept { return view_; }  // the driver's view: what PTEs point at
  uint64_t user() const noexcept { return user_; }
  uint64_t size() const noexcept { return size_; }
  // Whether the pinned range belongs to another process (adopt): this process cannot ask
  // mincore about it, so presence is not checked at translation (src/kfd/README.md).
  bool foreign() const noexcept { return foreign_; }

 private:
  UserptrPin(uint64_t user, uint64_t size, uint8_t* view) : user_(user), size_(size), view_(view) {}
  // create's work; when `may_move` and the range holds the calling thread's stack, it is redone
  // off that stack (kfd/off_stack_call.h).
  static int create_here(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out, bool may_move);
  uint64_t user_;
  uint64_t size_;
  uint8_t* view_;
  bool foreign_ = false;
};

// KFD-MEM-14: installs the fork handler that gives a child private copies of the pages pins
// moved into their memfds. Child handlers run in the order they were installed, and until this
// one ran the child writes through to the parent's pages: the device installs it before its own
// (whose reset allocates), so nothing in the child touches shared heap pages first.
void install_userptr_fork_handler();

// True when every page of [addr, addr + size) is still mapped in this process (mincore).
bool user_range_present(uint64_t addr, uint64_t size) noexcept;

// The whole of /proc/self/maps, read with raw system calls: under the LD_PRELOAD interposer,
// open, fopen and close are hooked, and the driver must see the process's real mappings.
std::string read_own_maps();

}  // namespace rocref::kfd
