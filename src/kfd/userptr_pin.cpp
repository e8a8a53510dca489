// kfd/userptr_pin.cpp - pins USERPTR pages behind a driver-owned view (see userptr_pin.h).
#include "kfd/userptr_pin.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/own_memory.h"
#include "kfd/kfd_mutant.h"
#include "kfd/off_stack_call.h"

namespace rocref::kfd {
namespace {

constexpr uint64_t kPage = 4096;

struct Vma {
  uint64_t start = 0, end = 0;
  bool read = false, write = false, exec = false, shared = false, anonymous = false;
  bool pinned = false;  // pages a registration moved into its memfd (named kMemfdName)
};

constexpr const char* kMemfdName = "rocref-userptr";

// The mappings that overlap [lo, hi), from /proc/self/maps (what get_user_pages walks).
std::vector<Vma> vmas_over(uint64_t lo, uint64_t hi) {
  std::vector<Vma> out;
  const std::string text = read_own_maps();
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    if (eol == std::string::npos) eol = text.size();
    const std::string line = text.substr(at, eol - at);
    at = eol + 1;
    unsigned long long start = 0, end = 0, offset = 0, inode = 0;
    char perms[8] = {};
    char dev[32] = {};
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %31s %llu", &start, &end, perms, &offset, dev, &inode) != 6) continue;
    if (end <= lo || start >= hi) continue;
    Vma v;
    v.start = start;
    v.end = end;
    v.read = perms[0] == 'r';
    v.write = perms[1] == 'w';
    v.exec = perms[2] == 'x';
    v.shared = perms[3] == 's';
    v.anonymous = inode == 0;  // [heap], [stack], plain anonymous mmaps
    v.pinned = line.find(std::string("/memfd:") + kMemfdName) != std::string::npos;
    out.push_back(v);
  }
  return out;
}

// Copies the pages of [user, user + size) that hold data into `view`. Pages never touched
// (neither present nor swapped, per /proc/self/pagemap) read as zero and the memfd behind
// `view` is zero already: skipping them keeps registering a large untouched allocation cheap
// in time and memory, as get_user_pages on fresh anonymous memory is. read_own_memory: a
// page unmapped meanwhile by another thread is a short read (-EFAULT), not a crash.
bool copy_touched_pages(uint64_t user, uint64_t size, uint8_t* view) {
  const int fd = static_cast<int>(::syscall(SYS_openat, AT_FDCWD, "/proc/self/pagemap", O_RDONLY | O_CLOEXEC));
  auto copy = [&](uint64_t lo, uint64_t hi) {
    return read_own_memory(view + (lo - user), reinterpret_cast<const void*>(static_cast<uintptr_t>(lo)), hi - lo);
  };
  if (fd < 0) return copy(user, user + size);  // no pagemap (e.g. a restricted /proc): copy all
  constexpr uint64_t kPresent = 1ull << 63, kSwapped = 1ull << 62;
  constexpr size_t kBatch = 512;
  uint64_t entries[kBatch];
  bool ok = true;
  uint64_t run_start = 0;  // start of the current run of touched pages, 0 when none
  for (uint64_t page = user; ok && page < user + size;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kBatch, (user + size - page) / kPage));
    const ssize_t got = ::syscall(SYS_pread64, fd, entries, n * sizeof(uint64_t), (page / kPage) * sizeof(uint64_t));
    if (got != static_cast<ssize_t>(n * sizeof(uint64_t))) {
      ::syscall(SYS_close, fd);
      return copy(run_start != 0 ? run_start : page, user + size);  // unreadable: copy the rest
    }
    for (size_t i = 0; i < n && ok; ++i, page += kPage) {
      const bool touched = (entries[i] & (kPresent | kSwapped)) != 0;
      if (touched && run_start == 0) run_start = page;
      if (!touched && run_start != 0) {
        ok = copy(run_start, page);
        run_start = 0;
      }
    }
  }
  if (ok && run_start != 0) ok = copy(run_start, user + size);
  ::syscall(SYS_close, fd);
  return ok;
}

int prot_of(const Vma& v) {
  return (v.read ? PROT_READ : 0) | (v.write ? PROT_WRITE : 0) | (v.exec ? PROT_EXEC : 0);
}

// KFD-MEM-14: the moved ranges, for the fork handler. The pages a pin moved into its memfd are a
// shared mapping, which fork would share between parent and child; the application's pages
// were private, so the child gets its own copy of them, as copy-on-write gave it before.
std::mutex& pins_mutex() {
  static std::mutex m;
  return m;
}
// Every range a registration moved, kept after its buffer is freed: the application's pages
// stay the memfd's until it unmaps them. Keyed by (lo, hi); the value is the user's protection.
std::map<std::pair<uint64_t, uint64_t>, int>& moved_ranges() {
  static std::map<std::pair<uint64_t, uint64_t>, int> m;
  return m;
}

// Copies `size` bytes from `at` into `copy`, then moves `copy` over `at` (mremap), with no store
// to memory in between: on x86-64 one asm block (rep movsb, then the system call), so the range
// may hold this very call's stack frames and the copy still has every byte they hold.
bool copy_then_move_over(void* copy, void* at, size_t size) {
#if defined(__x86_64__)
  void* dst = copy;
  const void* src = at;
  size_t n = size;
  long ret;
  // rep movsb advances rdi, rsi and rcx: the system call's arguments wait in registers it leaves alone.
  register void* old asm("r9") = copy;
  register long flags asm("r10") = MREMAP_MAYMOVE | MREMAP_FIXED;
  register void* target asm("r8") = at;
  asm volatile(
      "rep movsb\n\t"
      "mov %%r9, %%rdi\n\t"
      "mov %%rdx, %%rsi\n\t"
      "mov %[nr], %%eax\n\t"
      "syscall"
      : "+D"(dst), "+S"(src), "+c"(n), "=a"(ret)
      : "d"(size), [nr] "i"(SYS_mremap), "r"(old), "r"(flags), "r"(target)
      : "r11", "memory");
  return ret == reinterpret_cast<long>(at);
#else
  std::memcpy(copy, at, size);
  return ::mremap(copy, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, at) != MAP_FAILED;
#endif
}

// Replaces [lo, hi) (memfd pages a registration moved) by private pages holding the same
// bytes. Skipped when the range no longer is all the pins' memfd pages (the application unmapped
// or replaced them).
void make_private(uint64_t lo, uint64_t hi, int prot) {
  const std::vector<Vma> now = vmas_over(lo, hi);
  uint64_t covered = lo;
  for (const Vma& v : now) {
    if (v.start > covered || !v.pinned || !v.read) return;
    covered = v.end;
  }
  if (now.empty() || covered < hi) return;
  const size_t size = hi - lo;
  void* copy = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return;
  void* at = reinterpret_cast<void*>(static_cast<uintptr_t>(lo));
  if (!copy_then_move_over(copy, at, size)) {
    ::munmap(copy, size);
    return;
  }
  ::mprotect(at, size, prot);
}

// The forking thread's own stack runs in both processes from the fork system call on, before any
// handler in the child: its moved pages are made private here, in the parent, first (they stop
// being the GPU's view of them: a registration of live stack frames does not survive a fork).
void before_fork() {
  pins_mutex().lock();
  if (kfd_mutant_active(KfdMutant::PinSharedAcrossFork)) return;
  const auto frame = reinterpret_cast<uint64_t>(__builtin_frame_address(0));
  constexpr uint64_t kStackWindow = 64ull << 20;
  for (const auto& [range, prot] : moved_ranges()) {
    if (range.second + kStackWindow > frame && range.first < frame + kStackWindow) {
      make_private(range.first, range.second, prot);
    }
  }
}
void after_fork_parent() { pins_mutex().unlock(); }
void after_fork_child() {
  if (!kfd_mutant_active(KfdMutant::PinSharedAcrossFork)) {
    for (const auto& [range, prot] : moved_ranges()) make_private(range.first, range.second, prot);
  }
  pins_mutex().unlock();
}

}  // namespace

std::string read_own_maps() {
  std::string text;
  const int fd = static_cast<int>(::syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC));
  if (fd < 0) return text;
  char buf[16384];
  for (;;) {
    const ssize_t n = ::syscall(SYS_read, fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::syscall(SYS_close, fd);
  return text;
}

void install_userptr_fork_handler() {
  static std::once_flag once;
  std::call_once(once, [] { ::pthread_atfork(before_fork, after_fork_parent, after_fork_child); });
}

int UserptrPin::create(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out) {
  return create_here(user, size, writable, out, true);
}

int UserptrPin::create_here(uint64_t user, uint64_t size, bool writable, std::unique_ptr<UserptrPin>* out,
                            bool may_move) {
  if (user == 0 || size == 0 || (user & (kPage - 1)) || (size & (kPage - 1)) || user + size < user) return -EFAULT;
  const std::vector<Vma> vmas = vmas_over(user, user + size);
  // get_user_pages: every page mapped and readable; with FOLL_WRITE, writable too.
  uint64_t covered = user;
  for (const Vma& v : vmas) {
    if (v.start > covered) return -EFAULT;  // a hole
    if (!v.read || (writable && !v.write)) return -EFAULT;
    // A private file mapping (an executable's .data and .bss, a MAP_PRIVATE file) is the
    // process's own copy-on-write pages, pinnable as anonymous memory is (KFD-MEM-13).
    if (!v.shared && !v.anonymous && kfd_mutant_active(KfdMutant::PrivateFileUserptrRefused)) return -EFAULT;
    covered = v.end;
  }
  if (vmas.empty() || covered < user + size) return -EFAULT;
  // The pages are copied and then replaced: none may hold this call chain's frames.
  for (const Vma& v : vmas) {
    if (may_move && !v.shared && overlaps_own_stack(user, user + size, v.start, v.end)) {
      return run_off_own_stack([&] { return create_here(user, size, writable, out, false); });
    }
  }

  // The view is built piece by piece, one piece per mapping of the range: a range often mixes
  // kinds (a page an earlier registration already moved into its memfd, beside fresh heap).
  void* reserved = ::mmap(nullptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) return -ENOMEM;
  auto* view = static_cast<uint8_t*>(reserved);
  int fd = -1;  // the memfd the private pieces move into, made at the first one
  const auto fail = [&](int err) {
    ::munmap(view, size);
    if (fd >= 0) ::close(fd);
    return err;
  };
  for (const Vma& v : vmas) {
    const uint64_t lo = std::max(v.start, user), hi = std::min(v.end, user + size);
    uint8_t* at = view + (lo - user);
    void* piece = reinterpret_cast<void*>(static_cast<uintptr_t>(lo));
    if (v.shared) {
      // A shared mapping (a memfd, a file, another buffer's pages): a second mapping of the same pages.
      if (::mremap(piece, 0, hi - lo, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) return fail(-EFAULT);
      if (::mprotect(at, hi - lo, PROT_READ | (v.write ? PROT_WRITE : 0)) != 0) return fail(-EFAULT);
      continue;
    }
    // Private pages: copied into the memfd, which the view maps now and the user's range maps
    // below, once every piece is ready. A private file mapping's untouched pages hold the file's
    // bytes, not zeros: all of them are copied.
    if (fd < 0) {
      fd = ::memfd_create(kMemfdName, MFD_CLOEXEC);
      if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(size)) != 0) return fail(-ENOMEM);
    }
    if (::mmap(at, hi - lo, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(lo - user)) ==
        MAP_FAILED) {
      return fail(-ENOMEM);
    }
    const bool copied = v.anonymous ? copy_touched_pages(lo, hi - lo, at) : read_own_memory(at, piece, hi - lo);
    if (!copied) return fail(-EFAULT);
  }
  for (const Vma& v : vmas) {
    if (v.shared) continue;
    const uint64_t lo = std::max(v.start, user), hi = std::min(v.end, user + size);
    void* piece = reinterpret_cast<void*>(static_cast<uintptr_t>(lo));
    // Pages already moved keep their contents (the memfd holds them); the registration fails.
    if (::mmap(piece, hi - lo, prot_of(v), MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(lo - user)) == MAP_FAILED) {
      return fail(-EFAULT);
    }
  }
  if (fd >= 0) ::close(fd);  // the mappings keep the memfd alive
  install_userptr_fork_handler();
  {
    std::lock_guard<std::mutex> lock(pins_mutex());
    for (const Vma& v : vmas) {
      if (!v.shared) moved_ranges()[{std::max(v.start, user), std::min(v.end, user + size)}] = prot_of(v);
    }
  }
  out->reset(new UserptrPin(user, size, view));
  return 0;
}

std::unique_ptr<UserptrPin> UserptrPin::adopt(uint64_t user, uint64_t size, uint8_t* view) {
  std::unique_ptr<UserptrPin> pin(new UserptrPin(user, size, view));
  pin->foreign_ = true;
  return pin;
}

UserptrPin::~UserptrPin() { ::munmap(view_, size_); }

bool user_range_present(uint64_t addr, uint64_t size) noexcept {
  if (addr == 0 || size == 0 || addr + size < addr) return false;
  const uint64_t first = addr & ~(kPage - 1);
  const uint64_t last = (addr + size - 1) & ~(kPage - 1);
  unsigned char vec[64];
  for (uint64_t page = first; page <= last; page += 64 * kPage) {
    const uint64_t n = std::min<uint64_t>(64, ((last - page) / kPage) + 1);
    // mincore fails with ENOMEM when any page of the range is not mapped.
    if (::mincore(reinterpret_cast<void*>(static_cast<uintptr_t>(page)), n * kPage, vec) != 0) return false;
  }
  return true;
}

}  // namespace rocref::kfd
