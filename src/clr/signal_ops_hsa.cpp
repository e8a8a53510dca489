// clr/signal_ops_hsa.cpp - the signal pool's operations as HSA calls (see signal_pool.h).
// Apart from the pool so that its tests link without the HSA runtime.
#include <hsa/hsa.h>

#include "clr/signal_pool.h"

namespace rocref::clr {
namespace {

hsa_status_t hsa_create(hsa_signal_value_t initial, hsa_signal_t* signal) {
  // No consumers named: the host waits on it too, so it is an interrupt signal.
  return hsa_signal_create(initial, 0, nullptr, signal);
}
// Silent, as ROCclr: a free signal has no holder waiting on it, so nobody to wake.
void hsa_reset(hsa_signal_t signal, hsa_signal_value_t value) { hsa_signal_silent_store_relaxed(signal, value); }
void hsa_destroy(hsa_signal_t signal) { hsa_signal_destroy(signal); }

}  // namespace

const SignalOps& hsa_signal_ops() {
  static const SignalOps ops{hsa_create, hsa_reset, hsa_destroy};
  return ops;
}

}  // namespace rocref::clr
