// hip/hip_per_thread.cpp - the _spt forms: the default stream is the calling thread's (hipStreamPerThread) (HIP-STR-9).
#include "hip/hip_state.h"

namespace {
hipStream_t per_thread(hipStream_t stream) { return stream == nullptr ? hipStreamPerThread : stream; }
}  // namespace

hipError_t hipMemcpy_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) {
  return hipMemcpyWithStream(dst, src, sizeBytes, kind, hipStreamPerThread);
}
hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                           hipMemcpyKind kind) {
  if (hipError_t e = hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, hipStreamPerThread); e != hipSuccess) {
    return e;
  }
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemcpy2DToArray_spt(hipArray* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                  size_t width, size_t height, hipMemcpyKind kind) {
  if (hipError_t e = hipMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, hipStreamPerThread);
      e != hipSuccess) {
    return e;
  }
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemcpy2DFromArray_spt(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset, size_t hOffset,
                                    size_t width, size_t height, hipMemcpyKind kind) {
  if (hipError_t e = hipMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, hipStreamPerThread);
      e != hipSuccess) {
    return e;
  }
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemcpy3D_spt(const struct hipMemcpy3DParms* p) {
  if (hipError_t e = hipMemcpy3DAsync(p, hipStreamPerThread); e != hipSuccess) return e;
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemset_spt(void* dst, int value, size_t sizeBytes) {
  if (hipError_t e = hipMemsetAsync(dst, value, sizeBytes, hipStreamPerThread); e != hipSuccess) return e;
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width, size_t height) {
  if (hipError_t e = hipMemset2DAsync(dst, pitch, value, width, height, hipStreamPerThread); e != hipSuccess) return e;
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemset3D_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent) {
  if (hipError_t e = hipMemset3DAsync(pitchedDevPtr, value, extent, hipStreamPerThread); e != hipSuccess) return e;
  return hipStreamSynchronize(hipStreamPerThread);
}
hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind, hipStream_t stream) {
  return hipMemcpyAsync(dst, src, sizeBytes, kind, per_thread(stream));
}
hipError_t hipStreamQuery_spt(hipStream_t stream) { return hipStreamQuery(per_thread(stream)); }
hipError_t hipStreamSynchronize_spt(hipStream_t stream) { return hipStreamSynchronize(per_thread(stream)); }
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) {
  return hipStreamGetPriority(per_thread(stream), priority);
}
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return hipStreamWaitEvent(per_thread(stream), event, flags);
}
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) {
  return hipStreamGetFlags(per_thread(stream), flags);
}
hipError_t hipLaunchCooperativeKernel_spt(const void* f, dim3 gridDim, dim3 blockDim, void** kernelParams,
                                          uint32_t sharedMemBytes, hipStream_t hStream) {
  return hipLaunchCooperativeKernel(f, gridDim, blockDim, kernelParams, sharedMemBytes, per_thread(hStream));
}
hipError_t hipLaunchKernel_spt(const void* function_address, dim3 numBlocks, dim3 dimBlocks, void** args,
                               size_t sharedMemBytes, hipStream_t stream) {
  return hipLaunchKernel(function_address, numBlocks, dimBlocks, args, sharedMemBytes, per_thread(stream));
}
