// hip/hip_launch_multi.cpp - one launch per device from a list (HIP-LNC-9).
//
// hipLaunchCooperativeKernelMultiDevice and hipExtLaunchMultiKernelMultiDevice
// check the list as hipamd 5.2.3 does (no more entries than devices, a block of
// work-items and a stream per entry, each stream on a different device), wait
// for the streams' earlier work, enqueue each kernel on its stream (the
// cooperative form with hipLaunchCooperativeKernel's residency rule), and wait
// for the launches; the two hipCooperativeLaunchMultiDevice* flags skip the waits.
#include <vector>

#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

hipError_t launch_list(hipLaunchParams* list, int count, unsigned flags, bool cooperative) {
  if (list == nullptr || count < 1 || count > rocref::hip::device_count()) return hipErrorInvalidValue;
  std::vector<int> devices;
  for (int i = 0; i < count; ++i) {
    const hipLaunchParams& l = list[i];
    if (uint64_t{l.blockDim.x} * l.blockDim.y * l.blockDim.z == 0) return hipErrorInvalidConfiguration;
    const bool stream_checked = !rocref::hip::hip_mutant_active(rocref::hip::HipMutant::LaunchListStreamUnchecked);
    const ihipStream_t* s = rocref::hip::resolve_stream(l.stream);
    if ((stream_checked && l.stream == nullptr) || s == nullptr) return hipErrorInvalidResourceHandle;
    const int device = s->device;  // the device the stream was made on
    for (int d : devices) {
      if (d == device) return hipErrorInvalidDevice;
    }
    devices.push_back(device);
  }
  if ((flags & hipCooperativeLaunchMultiDeviceNoPreSync) == 0) {
    for (int i = 0; i < count; ++i) {
      if (hipError_t e = hipStreamSynchronize(list[i].stream); e != hipSuccess) return e;
    }
  }
  hipError_t error = hipSuccess;
  for (int i = 0; i < count && error == hipSuccess; ++i) {
    const hipLaunchParams& l = list[i];
    error = cooperative ? hipLaunchCooperativeKernel(l.func, l.gridDim, l.blockDim, l.args,
                                                     static_cast<unsigned>(l.sharedMem), l.stream)
                        : hipLaunchKernel(l.func, l.gridDim, l.blockDim, l.args, l.sharedMem, l.stream);
  }
  if ((flags & hipCooperativeLaunchMultiDeviceNoPostSync) == 0) {
    for (int i = 0; i < count; ++i) {
      if (hipError_t e = hipStreamSynchronize(list[i].stream); e != hipSuccess && error == hipSuccess) error = e;
    }
  }
  return error;
}

}  // namespace

hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* launchParamsList, int numDevices, unsigned int flags) {
  return result(launch_list(launchParamsList, numDevices, flags, true));
}

hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* launchParamsList, int numDevices, unsigned int flags) {
  return result(launch_list(launchParamsList, numDevices, flags, false));
}
