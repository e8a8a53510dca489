// tests/conformance/hsa/loader_kernels.hip - a gfx900 code object for the loader checks (HSA-LOAD-*).
//
// `table_ptr` is a pointer in .data: the image carries a dynamic relocation for it, so a
// kernel that reads through it works only when the loader applied that relocation.
#include <hip/hip_runtime.h>

__device__ int table[4] = {11, 22, 33, 44};
__device__ int* table_ptr = table;

// out[i] = table[i % 4] (through the relocated pointer) + scale * i, with a char between
// the arguments so their metadata offsets are not packed.
extern "C" __global__ void read_table(int* out, char pad, long scale) {
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  out[i] = table_ptr[i % 4] + static_cast<int>(scale) * i + pad;
}

// out[i] = the i-th hidden argument (hidden_global_offset_x/y/z): reading the implicit
// arguments makes the compiler declare them in the metadata.
extern "C" __global__ void global_offsets(long* out) {
  const auto* implicit = reinterpret_cast<const long*>(__builtin_amdgcn_implicitarg_ptr());
  if (threadIdx.x < 3) out[threadIdx.x] = implicit[threadIdx.x];
}

// HSA-IMG-6: dst(x, y) = 2 * src(x, y) + 1 for 2D float images; x is the work-item, y the
// work-group. The handles are T# addresses, read with the device library's image loads.
extern "C" __global__ void image_twice_plus_one(unsigned long src, unsigned long dst) {
  auto* s = reinterpret_cast<unsigned int ADDRESS_SPACE_CONSTANT*>(src);
  auto* d = reinterpret_cast<unsigned int ADDRESS_SPACE_CONSTANT*>(dst);
  const int2 c(static_cast<int>(threadIdx.x), static_cast<int>(blockIdx.x));
  float4::Native_vec_ v = __ockl_image_load_2D(s, c.data);
  v = v * 2.0f + 1.0f;
  __ockl_image_store_2D(d, c.data, v);
}
