// hip/hip_device.cpp - device selection, properties and whole-device synchronization.
#include <cstring>

#include "common/trace.h"
#include "hip/hip_state.h"

using rocref::hip::result;

hipError_t hipInit(unsigned int flags) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipInit", "");
  if (flags != 0) return result(hipErrorInvalidValue);
  hipError_t error = hipSuccess;
  rocref::hip::device(&error);
  return result(error);
}

hipError_t hipDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return result(hipErrorInvalidValue);
  *driverVersion = 50221153;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) return result(hipErrorInvalidValue);
  *runtimeVersion = 50221153;  // HIP_VERSION of 5.2.3
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return result(hipErrorInvalidValue);
  hipError_t error = hipSuccess;
  *count = rocref::hip::device(&error) ? 1 : 0;
  return result(error);
}

hipError_t hipSetDevice(int deviceId) {
  hipError_t error = hipSuccess;
  if (!rocref::hip::device(&error)) return result(error);
  return result(deviceId == 0 ? hipSuccess : hipErrorInvalidDevice);
}

hipError_t hipGetDevice(int* deviceId) {
  if (deviceId == nullptr) return result(hipErrorInvalidValue);
  hipError_t error = hipSuccess;
  if (!rocref::hip::device(&error)) return result(error);
  *deviceId = 0;
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId) {
  if (prop == nullptr) return result(hipErrorInvalidValue);
  hipError_t error = hipSuccess;
  rocref::clr::Device* d = rocref::hip::device(&error);
  if (d == nullptr) return result(error);
  if (deviceId != 0) return result(hipErrorInvalidDevice);
  const rocref::clr::DeviceInfo& info = d->info();
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, info.name.c_str(), sizeof prop->name - 1);
  std::strncpy(prop->gcnArchName, info.isa_name.c_str(), sizeof prop->gcnArchName - 1);
  prop->totalGlobalMem = info.device_memory;
  prop->sharedMemPerBlock = info.group_segment_size;
  prop->maxSharedMemoryPerMultiProcessor = info.group_segment_size;
  prop->regsPerBlock = 65536;
  prop->warpSize = static_cast<int>(info.wavefront_size);
  prop->maxThreadsPerBlock = static_cast<int>(info.max_workgroup_size);
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = info.max_workgroup_dim[i];
    prop->maxGridSize[i] = static_cast<int>(info.max_grid_dim[i] > INT32_MAX ? INT32_MAX : info.max_grid_dim[i]);
  }
  prop->clockRate = static_cast<int>(info.max_clock_mhz * 1000);
  prop->multiProcessorCount = static_cast<int>(info.compute_units);
  prop->maxThreadsPerMultiProcessor = 2560;
  prop->major = static_cast<int>(info.gfx_major);
  prop->minor = static_cast<int>(info.gfx_minor);
  prop->gcnArch = static_cast<int>(info.gfx_major * 100 + info.gfx_minor * 10);
  prop->concurrentKernels = 1;
  prop->canMapHostMemory = 1;
  prop->managedMemory = 1;
  prop->pciBusID = static_cast<int>((info.bdf_id >> 8) & 0xff);
  prop->pciDeviceID = static_cast<int>((info.bdf_id >> 3) & 0x1f);
  prop->arch.hasGlobalInt32Atomics = 1;
  prop->arch.hasSharedInt32Atomics = 1;
  prop->arch.hasDoubles = 1;
  prop->arch.has3dGrid = 1;
  return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) {
  ROCREF_TRACE_SPAN(rocref::trace::Layer::Hip, "hipDeviceSynchronize", "");
  hipError_t error = hipSuccess;
  if (!rocref::hip::device(&error)) return result(error);
  return result(rocref::hip::synchronize_all());
}

hipError_t hipDeviceReset(void) { return hipDeviceSynchronize(); }
