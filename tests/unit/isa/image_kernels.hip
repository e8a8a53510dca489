// tests/unit/isa/image_kernels.hip - texture, surface and image kernels for unit_isa_image, built by hipcc's clang for
// gfx900: HIP's tex1Dfetch (MUBUF buffer_load_format), tex2D / tex2DLod (image_sample_lz / image_sample_l) and the
// ockl image load/store entry points HIP's surface functions use (image_load, image_load_mip, image_store).
#include <hip/hip_runtime.h>

#define TSHARP(p) (unsigned int __attribute__((address_space(4)))*)(p)

extern "C" __global__ void fetch_x(hipTextureObject_t tex, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

extern "C" __global__ void fetch_xyzw(hipTextureObject_t tex, float4* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex1Dfetch<float4>(tex, i);
}

extern "C" __global__ void sample_2d(hipTextureObject_t tex, const float* u, const float* v, float4* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex2D<float4>(tex, u[i], v[i]);
}

extern "C" __global__ void sample_2d_lod(hipTextureObject_t tex, const float* u, const float* v, const float* lod,
                                         float4* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex2DLod<float4>(tex, u[i], v[i], lod[i]);
}

extern "C" __global__ void load_2d(unsigned int* t, const int* x, const int* y, float4* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i].data = __ockl_image_load_2D(TSHARP(t), int2(x[i], y[i]).data);
}

extern "C" __global__ void load_mip_2d(unsigned int* t, const int* x, const int* y, float4* out, int n, int mip) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i].data = __ockl_image_load_lod_2D(TSHARP(t), int2(x[i], y[i]).data, mip);
}

extern "C" __global__ void store_2d(unsigned int* t, const int* x, const int* y, const float4* in, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) __ockl_image_store_2D(TSHARP(t), int2(x[i], y[i]).data, in[i].data);
}

extern "C" __global__ void load_2d_array(unsigned int* t, const int* x, const int* y, const int* layer, float4* out,
                                         int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i].data = __ockl_image_load_2Da(TSHARP(t), int4(x[i], y[i], layer[i], 0).data);
}

extern "C" __global__ void store_2d_array(unsigned int* t, const int* x, const int* y, const int* layer,
                                          const float4* in, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) __ockl_image_store_2Da(TSHARP(t), int4(x[i], y[i], layer[i], 0).data, in[i].data);
}
