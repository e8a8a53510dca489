// clr/host_call.h - a host function as a command of a stream (hipLaunchHostFunc, stream callbacks).
//
// ROCclr runs a stream callback from the completion of a marker and holds the
// stream's later commands behind it. Here: a marker packet whose completion
// signal wakes an HSA async handler, which calls the function and then opens a
// gate signal that a barrier-AND packet right behind the marker waits for.
#pragma once

#include <hsa/hsa.h>

namespace rocref::clr {

class Device;
class VirtualGpu;

using HostFunction = void (*)(void* data);

// Enqueues `function(data)` on `gpu`: it runs on a runtime thread once every
// earlier command of the stream completed, and later commands start after it returned.
hsa_status_t enqueue_host_call(Device& device, VirtualGpu& gpu, HostFunction function, void* data);

// Holds the later commands of `gpu` until the caller opens *gate: a pool
// signal at 1 with one reference for the caller, who stores 0 to it and then
// gives the reference back (device.signal_pool().release).
hsa_status_t enqueue_gate(Device& device, VirtualGpu& gpu, hsa_signal_t* gate);

}  // namespace rocref::clr
