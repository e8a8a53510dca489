// hip/hip_context.cpp - the deprecated context API over the one primary context per device (HIP-CTX-1).
//
// As in hipamd 5.2.3 a context is its device: hipCtxCreate gives the device's
// context and pushes it on the calling thread's context stack; the primary
// context API counts retains and keeps the flags hipDevicePrimaryCtxSetFlags set.
#include <mutex>
#include <vector>

#include "hip/hip_device_props.h"
#include "hip/hip_state.h"

struct ihipCtx_t {
  int device = 0;
  unsigned flags = 0;
  int retains = 0;  // hipDevicePrimaryCtxRetain minus Release
};

using rocref::hip::result;

namespace {

std::mutex g_ctx_mutex;
ihipCtx_t g_primary[1];  // one device
thread_local std::vector<ihipCtx_t*> t_stack;

ihipCtx_t* context_of(int device) { return &g_primary[device]; }
bool known(hipCtx_t ctx) { return ctx == &g_primary[0]; }

hipError_t ready(int device) {
  if (const auto d = rocref::hip::device(); !d) return d.error();
  return rocref::hip::valid_device(device) ? hipSuccess : hipErrorInvalidDevice;
}

}  // namespace

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
  if (ctx == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(device); e != hipSuccess) return result(e);
  *ctx = context_of(device);
  (*ctx)->flags = flags;
  t_stack.push_back(*ctx);
  rocref::hip::set_current_device(device);
  return hipSuccess;
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
  if (ctx == nullptr || !known(ctx)) return result(hipErrorInvalidValue);
  // The device's work finishes first; the context itself lives as long as the process.
  if (hipError_t e = rocref::hip::synchronize_all(); e != hipSuccess) return result(e);
  if (!t_stack.empty() && t_stack.back() == ctx) t_stack.pop_back();
  return hipSuccess;
}

hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
  if (t_stack.empty()) return result(hipErrorInvalidContext);
  if (ctx != nullptr) *ctx = t_stack.back();
  t_stack.pop_back();
  if (!t_stack.empty()) rocref::hip::set_current_device(t_stack.back()->device);
  return hipSuccess;
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  if (ctx == nullptr || !known(ctx)) return result(hipErrorInvalidContext);
  t_stack.push_back(ctx);
  rocref::hip::set_current_device(ctx->device);
  return hipSuccess;
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  if (ctx == nullptr) {
    if (!t_stack.empty()) t_stack.pop_back();
    return hipSuccess;
  }
  if (!known(ctx)) return result(hipErrorInvalidContext);
  if (t_stack.empty()) {
    t_stack.push_back(ctx);
  } else {
    t_stack.back() = ctx;
  }
  rocref::hip::set_current_device(ctx->device);
  return hipSuccess;
}

hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
  if (ctx == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(rocref::hip::current_device()); e != hipSuccess) return result(e);
  // No context pushed: the current device's primary context, as hipamd answers.
  *ctx = t_stack.empty() ? context_of(rocref::hip::current_device()) : t_stack.back();
  return hipSuccess;
}

hipError_t hipCtxGetDevice(hipDevice_t* device) {
  if (device == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(rocref::hip::current_device()); e != hipSuccess) return result(e);
  *device = t_stack.empty() ? rocref::hip::current_device() : t_stack.back()->device;
  return hipSuccess;
}

hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int* apiVersion) {
  if (apiVersion == nullptr || ctx == nullptr || !known(ctx)) return result(hipErrorInvalidValue);
  *apiVersion = 4;  // the CUDA driver API generation HIP's context API mirrors
  return hipSuccess;
}

hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cacheConfig) { return hipDeviceGetCacheConfig(cacheConfig); }
hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig) { return hipDeviceSetCacheConfig(cacheConfig); }
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) { return hipDeviceSetSharedMemConfig(config); }
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* pConfig) { return hipDeviceGetSharedMemConfig(pConfig); }
hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }

hipError_t hipCtxGetFlags(unsigned int* flags) {
  if (flags == nullptr) return result(hipErrorInvalidValue);
  *flags = t_stack.empty() ? 0 : t_stack.back()->flags;
  return hipSuccess;
}

// Peer access between contexts is peer access between their devices.
hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags) {
  if (peerCtx == nullptr || !known(peerCtx)) return result(hipErrorInvalidValue);
  return hipDeviceEnablePeerAccess(peerCtx->device, flags);
}

hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx) {
  if (peerCtx == nullptr || !known(peerCtx)) return result(hipErrorInvalidValue);
  return hipDeviceDisablePeerAccess(peerCtx->device);
}

hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int* flags, int* active) {
  if (flags == nullptr || active == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(dev); e != hipSuccess) return result(e);
  std::lock_guard lock(g_ctx_mutex);
  *flags = context_of(dev)->flags;
  *active = context_of(dev)->retains > 0 ? 1 : 0;
  return hipSuccess;
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev) {
  if (hipError_t e = ready(dev); e != hipSuccess) return result(e);
  std::lock_guard lock(g_ctx_mutex);
  if (context_of(dev)->retains > 0) --context_of(dev)->retains;
  return hipSuccess;
}

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev) {
  if (pctx == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(dev); e != hipSuccess) return result(e);
  std::lock_guard lock(g_ctx_mutex);
  ++context_of(dev)->retains;
  *pctx = context_of(dev);
  return hipSuccess;
}

hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev) {
  if (hipError_t e = ready(dev); e != hipSuccess) return result(e);
  return hipDeviceReset();
}

hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags) {
  if (hipError_t e = ready(dev); e != hipSuccess) return result(e);
  std::lock_guard lock(g_ctx_mutex);
  // As the driver API: flags cannot change while the primary context is active.
  if (context_of(dev)->retains > 0) return result(hipErrorContextAlreadyInUse);
  context_of(dev)->flags = flags;
  return hipSuccess;
}
