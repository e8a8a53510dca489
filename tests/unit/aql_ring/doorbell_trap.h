// tests/unit/aql_ring/doorbell_trap.h - observe the ring at the instant of each doorbell store.
//
// A doorbell is an MMIO store the packet processor may act on at once, so what
// matters (AQL-DB-1) is the ring's state when the store happens, not after the
// producer returns. The trap puts the doorbell word on a read-only page; the
// store faults, the SIGSEGV handler runs the check, makes the page writable and
// returns, and the store is retried and lands. arm() before each submission.
// Any queue with move_doorbell(uint64_t*) works; move it before a producer
// caches the doorbell address.
#pragma once

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace rocref::testing {

class DoorbellTrap {
 public:
  using Check = void (*)(void* context);

  template <class Queue>
  DoorbellTrap(Queue& queue, Check check, void* context) : check_(check), context_(context) {
    page_size_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    page_ = mmap(nullptr, page_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    queue.move_doorbell(static_cast<uint64_t*>(page_));
    active() = this;
    struct sigaction action {};
    action.sa_sigaction = &DoorbellTrap::on_fault;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_);
  }
  ~DoorbellTrap() {
    sigaction(SIGSEGV, &previous_, nullptr);
    active() = nullptr;
    munmap(page_, page_size_);
  }
  DoorbellTrap(const DoorbellTrap&) = delete;
  DoorbellTrap& operator=(const DoorbellTrap&) = delete;

  void arm() { mprotect(page_, page_size_, PROT_READ); }
  uint64_t stores() const { return stores_; }

 private:
  static DoorbellTrap*& active() {
    static DoorbellTrap* trap = nullptr;
    return trap;
  }

  static void on_fault(int signo, siginfo_t* info, void* uctx) {
    DoorbellTrap* trap = active();
    auto* address = static_cast<uint8_t*>(info->si_addr);
    auto* page = trap != nullptr ? static_cast<uint8_t*>(trap->page_) : nullptr;
    if (page == nullptr || address < page || address >= page + trap->page_size_) {
      // Not ours: a real crash. Restore the previous handler and let the fault repeat.
      sigaction(SIGSEGV, trap != nullptr ? &trap->previous_ : nullptr, nullptr);
      if (trap == nullptr) signal(signo, SIG_DFL);
      (void)uctx;
      return;
    }
    ++trap->stores_;
    trap->check_(trap->context_);
    mprotect(page, trap->page_size_, PROT_READ | PROT_WRITE);
  }

  Check check_;
  void* context_;
  void* page_ = nullptr;
  size_t page_size_ = 0;
  uint64_t stores_ = 0;
  struct sigaction previous_ {};
};

}  // namespace rocref::testing
