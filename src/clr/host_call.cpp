// clr/host_call.cpp - host functions between a stream's packets (see host_call.h).
#include "clr/host_call.h"

#include <hsa/hsa_ext_amd.h>

#include "clr/device.h"
#include "clr/virtual_gpu.h"
#include "common/trace.h"

namespace rocref::clr {
namespace {

struct HostCall {
  Device* device;
  HostFunction function;
  void* data;
  hsa_signal_t marker;  // completion of the stream's earlier work: one pool reference
  hsa_signal_t gate;    // 1 until the function returned: one pool reference
};

bool run_host_call(hsa_signal_value_t, void* arg) {
  auto* call = static_cast<HostCall*>(arg);
  {
    ROCREF_TRACE_SPAN(trace::Layer::Clr, "HostCall", "");
    call->function(call->data);
  }
  hsa_signal_store_screlease(call->gate, 0);
  call->device->signal_pool().release(call->gate);
  call->device->signal_pool().release(call->marker);
  delete call;
  return false;  // one shot
}

}  // namespace

hsa_status_t enqueue_host_call(Device& device, VirtualGpu& gpu, HostFunction function, void* data) {
  auto* call = new HostCall{&device, function, data, {0}, {0}};
  if (hsa_status_t s = device.signal_pool().acquire(1, &call->gate); s != HSA_STATUS_SUCCESS) {
    delete call;
    return s;
  }
  if (hsa_status_t s = gpu.marker(&call->marker); s != HSA_STATUS_SUCCESS) {
    device.signal_pool().release(call->gate);
    delete call;
    return s;
  }
  // The barrier first: once the handler is armed it may open the gate at any time.
  if (hsa_status_t s = gpu.wait_for(call->gate); s != HSA_STATUS_SUCCESS) {
    device.signal_pool().release(call->gate);
    device.signal_pool().release(call->marker);
    delete call;
    return s;
  }
  hsa_status_t s = hsa_amd_signal_async_handler(call->marker, HSA_SIGNAL_CONDITION_LT, 1, run_host_call, call);
  if (s != HSA_STATUS_SUCCESS) {  // never call it, but never hold the stream either
    hsa_signal_store_screlease(call->gate, 0);
    device.signal_pool().release(call->gate);
    device.signal_pool().release(call->marker);
    delete call;
  }
  return s;
}

hsa_status_t enqueue_gate(Device& device, VirtualGpu& gpu, hsa_signal_t* gate) {
  if (hsa_status_t s = device.signal_pool().acquire(1, gate); s != HSA_STATUS_SUCCESS) return s;
  if (hsa_status_t s = gpu.wait_for(*gate); s != HSA_STATUS_SUCCESS) {
    device.signal_pool().release(*gate);
    return s;
  }
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::clr
