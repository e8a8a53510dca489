// thunk/active_transport.cpp - picks the transport: ROCREF_KFD=real for syscalls, else the model.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "thunk/transport.h"

namespace rocref::thunk {
namespace {

std::atomic<Transport*> g_override{nullptr};

Transport& default_transport() {
  // Built once, never destroyed: hsaKmt calls may run from other libraries' destructors.
  static Transport* const chosen = [] {
    const char* env = std::getenv("ROCREF_KFD");
    return (env && std::strcmp(env, "real") == 0) ? make_syscall_transport().release()
                                                  : make_in_process_transport().release();
  }();
  return *chosen;
}

}  // namespace

Transport& active_transport() {
  Transport* t = g_override.load(std::memory_order_acquire);
  return t ? *t : default_transport();
}

void set_active_transport(Transport* transport) { g_override.store(transport, std::memory_order_release); }

}  // namespace rocref::thunk
