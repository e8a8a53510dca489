// tests/conformance/hip/hip_texture_test.cpp - texture objects, texture references, surface objects (HIP-TEX-1..4).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hip_suite.h"

#if HIP_SUITE_AMD_API
namespace hip_suite {

// External linkage: the runtime finds a texture reference's device variable by name in the code
// object, and clang emits no symbol for one in an anonymous namespace (hipBindTexture2D would
// abort in AMD's runtime on any GPU).
texture<float, hipTextureType1D, hipReadModeElementType> g_tex_ref;
#if defined(__HIP__)
texture<float, hipTextureType2D, hipReadModeElementType> g_tex_2d_ref;
#endif

namespace {

__global__ void fetch_object(hipTextureObject_t tex, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void fetch_normalized(hipTextureObject_t tex, float* out, int n) {
  const int i = static_cast<int>(threadIdx.x);
  if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void fetch_reference(float* out, int n) {
  const int i = static_cast<int>(threadIdx.x);
  if (i < n) out[i] = tex1Dfetch(g_tex_ref, i);
}

#if defined(__HIP__)
// HIP-TEX-4: hipcc's sampling and surface functions, which read the objects' descriptors.
__global__ void sample_2d(hipTextureObject_t tex, const float2* at, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex2D<float>(tex, at[i].x, at[i].y);
}

__global__ void sample_2d_reference(const float2* at, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = tex2D(g_tex_2d_ref, at[i].x, at[i].y);
}

__global__ void write_surface(hipSurfaceObject_t surface, int width) {
  const int x = static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.x);
  if (x < width) surf2Dwrite(100.0f + x + 1000.0f * y, surface, x * static_cast<int>(sizeof(float)), y);
}
#endif

hipResourceDesc linear_resource(void* ptr, size_t bytes) {
  hipResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = ptr;
  res.res.linear.desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  res.res.linear.sizeInBytes = bytes;
  return res;
}

hipTextureDesc point_texture() {
  hipTextureDesc tex;
  std::memset(&tex, 0, sizeof tex);
  tex.readMode = hipReadModeElementType;
  tex.filterMode = hipFilterModePoint;
  tex.addressMode[0] = hipAddressModeClamp;
  return tex;
}

TEST(HipTexture, HIP_TEX_1_TextureObjectsKeepTheirDescriptors) {
  HIP_CLAUSE("HIP-TEX-1");
  int image = 0;
  ASSERT_HIP_OK(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
  EXPECT_EQ(image, 1);
  float* d = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), 1024 * sizeof(float)));
  hipResourceDesc res = linear_resource(d, 1024 * sizeof(float));
  hipTextureDesc tex = point_texture();
  hipTextureObject_t object = nullptr;
  ASSERT_HIP_OK(hipCreateTextureObject(&object, &res, &tex, nullptr));
  ASSERT_NE(object, nullptr);
  hipResourceDesc got_res;
  ASSERT_HIP_OK(hipGetTextureObjectResourceDesc(&got_res, object));
  EXPECT_EQ(got_res.resType, hipResourceTypeLinear);
  EXPECT_EQ(got_res.res.linear.devPtr, d);
  EXPECT_EQ(got_res.res.linear.sizeInBytes, 1024 * sizeof(float));
  EXPECT_EQ(got_res.res.linear.desc.x, 32);
  hipTextureDesc got_tex;
  ASSERT_HIP_OK(hipGetTextureObjectTextureDesc(&got_tex, object));
  EXPECT_EQ(got_tex.addressMode[0], hipAddressModeClamp);
  EXPECT_EQ(got_tex.readMode, hipReadModeElementType);
  // The driver API's view of the same object.
  HIP_RESOURCE_DESC drv_res;
  ASSERT_HIP_OK(hipTexObjectGetResourceDesc(&drv_res, object));
  EXPECT_EQ(drv_res.resType, HIP_RESOURCE_TYPE_LINEAR);
  EXPECT_EQ(drv_res.res.linear.format, HIP_AD_FORMAT_FLOAT);
  EXPECT_EQ(drv_res.res.linear.numChannels, 1u);
  HIP_TEXTURE_DESC drv_tex;
  ASSERT_HIP_OK(hipTexObjectGetTextureDesc(&drv_tex, object));
  EXPECT_NE(drv_tex.flags & HIP_TRSF_READ_AS_INTEGER, 0u);
  ASSERT_HIP_OK(hipDestroyTextureObject(object));

  // Bad arguments: nothing is made.
  hipTextureObject_t none = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(nullptr, &res, &tex, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, nullptr, &tex, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, &res, nullptr, nullptr));
  hipResourceViewDesc view;
  std::memset(&view, 0, sizeof view);
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, &res, &tex, &view));  // a view needs an array
  hipResourceDesc misaligned = linear_resource(d + 1, 1000 * sizeof(float));
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, &misaligned, &tex, nullptr));
  hipResourceDesc null_ptr = linear_resource(nullptr, 64);
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, &null_ptr, &tex, nullptr));
  hipResourceDesc no_array;
  std::memset(&no_array, 0, sizeof no_array);
  no_array.resType = hipResourceTypeArray;
  EXPECT_HIP(hipErrorInvalidValue, hipCreateTextureObject(&none, &no_array, &tex, nullptr));
  EXPECT_EQ(none, nullptr);
  // What HIP 5.2.3's sampler does not program is hipErrorNotSupported.
  hipTextureDesc aniso = tex;
  aniso.maxAnisotropy = 4;
  EXPECT_HIP(hipErrorNotSupported, hipCreateTextureObject(&none, &res, &aniso, nullptr));
  EXPECT_HIP(hipSuccess, hipDestroyTextureObject(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipGetTextureObjectResourceDesc(&got_res, nullptr));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

TEST(HipTexture, HIP_TEX_1_DriverFormsAndArrays) {
  HIP_CLAUSE("HIP-TEX-1");
  hipChannelFormatDesc desc = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray* array = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&array, &desc, 16, 16, 0));
  HIP_RESOURCE_DESC res;
  std::memset(&res, 0, sizeof res);
  res.resType = HIP_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = array;
  HIP_TEXTURE_DESC tex;
  std::memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = tex.addressMode[1] = HIP_TR_ADDRESS_MODE_WRAP;
  tex.filterMode = HIP_TR_FILTER_MODE_POINT;
  tex.flags = HIP_TRSF_NORMALIZED_COORDINATES;
  HIP_RESOURCE_VIEW_DESC view;
  std::memset(&view, 0, sizeof view);
  view.format = HIP_RES_VIEW_FORMAT_UINT_4X8;
  view.width = 16;
  view.height = 16;
  hipTextureObject_t object = nullptr;
  ASSERT_HIP_OK(hipTexObjectCreate(&object, &res, &tex, &view));
  HIP_RESOURCE_DESC got_res;
  ASSERT_HIP_OK(hipTexObjectGetResourceDesc(&got_res, object));
  EXPECT_EQ(got_res.resType, HIP_RESOURCE_TYPE_ARRAY);
  EXPECT_EQ(got_res.res.array.hArray, array);
  HIP_TEXTURE_DESC got_tex;
  ASSERT_HIP_OK(hipTexObjectGetTextureDesc(&got_tex, object));
  EXPECT_EQ(got_tex.flags, static_cast<unsigned>(HIP_TRSF_NORMALIZED_COORDINATES));
  EXPECT_EQ(got_tex.addressMode[1], HIP_TR_ADDRESS_MODE_WRAP);
  HIP_RESOURCE_VIEW_DESC got_view;
  ASSERT_HIP_OK(hipTexObjectGetResourceViewDesc(&got_view, object));
  EXPECT_EQ(got_view.format, HIP_RES_VIEW_FORMAT_UINT_4X8);
  EXPECT_EQ(got_view.width, 16u);
  hipResourceViewDesc runtime_view;
  ASSERT_HIP_OK(hipGetTextureObjectResourceViewDesc(&runtime_view, object));
  EXPECT_EQ(runtime_view.format, hipResViewFormatUnsignedChar4);
  EXPECT_EQ(runtime_view.height, 16u);
  ASSERT_HIP_OK(hipTexObjectDestroy(object));
  EXPECT_HIP(hipErrorInvalidValue, hipTexObjectCreate(nullptr, &res, &tex, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipTexObjectGetTextureDesc(nullptr, object));
  ASSERT_HIP_OK(hipFreeArray(array));
  hipGetLastError();
}

TEST(HipTexture, HIP_TEX_1_KernelsFetchLinearTextures) {
  HIP_CLAUSE("HIP-TEX-1");
  constexpr int n = 256;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.25f * i;
  float* d = nullptr;
  float* out = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(float)));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&out), (n + 8) * sizeof(float)));
  ASSERT_HIP_OK(hipMemcpy(d, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipResourceDesc res = linear_resource(d, n * sizeof(float));
  hipTextureDesc tex = point_texture();
  hipTextureObject_t object = nullptr;
  ASSERT_HIP_OK(hipCreateTextureObject(&object, &res, &tex, nullptr));
  // Eight work-items past the end read 0.
  hipLaunchKernelGGL(fetch_object, dim3(2), dim3(132), 0, 0, object, out, n + 8);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<float> back(n + 8, -1.0f);
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, (n + 8) * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_EQ(back[i], host[i]) << i;
  for (int i = n; i < n + 8; ++i) EXPECT_EQ(back[i], 0.0f) << i;
  ASSERT_HIP_OK(hipDestroyTextureObject(object));

  // 8-bit unsigned texels read as normalized floats.
  const uint8_t bytes[4] = {0, 51, 255, 102};
  ASSERT_HIP_OK(hipMemcpy(d, bytes, sizeof bytes, hipMemcpyHostToDevice));
  res.res.linear.desc = hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindUnsigned);
  res.res.linear.sizeInBytes = sizeof bytes;
  tex.readMode = hipReadModeNormalizedFloat;
  ASSERT_HIP_OK(hipCreateTextureObject(&object, &res, &tex, nullptr));
  hipLaunchKernelGGL(fetch_normalized, dim3(1), dim3(4), 0, 0, object, out, 4);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, 4 * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_FLOAT_EQ(back[0], 0.0f);
  EXPECT_FLOAT_EQ(back[1], 0.2f);
  EXPECT_FLOAT_EQ(back[2], 1.0f);
  EXPECT_FLOAT_EQ(back[3], 0.4f);
  ASSERT_HIP_OK(hipDestroyTextureObject(object));
  ASSERT_HIP_OK(hipFree(d));
  ASSERT_HIP_OK(hipFree(out));
}

TEST(HipTexture, HIP_TEX_2_TextureReferenceStateAndBinding) {
  HIP_CLAUSE("HIP-TEX-2");
  textureReference* ref = &g_tex_ref;
  ASSERT_HIP_OK(hipTexRefSetAddressMode(ref, 0, hipAddressModeClamp));
  ASSERT_HIP_OK(hipTexRefSetAddressMode(ref, 1, hipAddressModeBorder));
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefSetAddressMode(ref, 3, hipAddressModeClamp));
  hipTextureAddressMode am = hipAddressModeWrap;
  ASSERT_HIP_OK(hipTexRefGetAddressMode(&am, ref, 1));
  EXPECT_EQ(am, hipAddressModeBorder);
  ASSERT_HIP_OK(hipTexRefSetFilterMode(ref, hipFilterModePoint));
  hipTextureFilterMode fm = hipFilterModeLinear;
  ASSERT_HIP_OK(hipTexRefGetFilterMode(&fm, ref));
  EXPECT_EQ(fm, hipFilterModePoint);
  ASSERT_HIP_OK(hipTexRefSetFlags(ref, HIP_TRSF_READ_AS_INTEGER));
  unsigned flags = 0;
  ASSERT_HIP_OK(hipTexRefGetFlags(&flags, ref));
  EXPECT_EQ(flags, static_cast<unsigned>(HIP_TRSF_READ_AS_INTEGER));
  EXPECT_EQ(g_tex_ref.readMode, hipReadModeElementType);
  EXPECT_EQ(g_tex_ref.normalized, 0);
  ASSERT_HIP_OK(hipTexRefSetFormat(ref, HIP_AD_FORMAT_FLOAT, 1));
  hipArray_Format format = HIP_AD_FORMAT_UNSIGNED_INT8;
  int channels = 0;
  ASSERT_HIP_OK(hipTexRefGetFormat(&format, &channels, ref));
  EXPECT_EQ(format, HIP_AD_FORMAT_FLOAT);
  EXPECT_EQ(channels, 1);
  ASSERT_HIP_OK(hipTexRefSetMipmapFilterMode(ref, hipFilterModePoint));
  ASSERT_HIP_OK(hipTexRefGetMipmapFilterMode(&fm, ref));
  EXPECT_EQ(fm, hipFilterModePoint);
  ASSERT_HIP_OK(hipTexRefSetMaxAnisotropy(ref, 0));
  int aniso = -1;
  ASSERT_HIP_OK(hipTexRefGetMaxAnisotropy(&aniso, ref));
  EXPECT_EQ(aniso, 0);
  ASSERT_HIP_OK(hipTexRefSetMipmapLevelBias(ref, 0.0f));
  float bias = -1.0f;
  ASSERT_HIP_OK(hipTexRefGetMipmapLevelBias(&bias, ref));
  EXPECT_EQ(bias, 0.0f);
  ASSERT_HIP_OK(hipTexRefSetMipmapLevelClamp(ref, 0.0f, 0.0f));
  float lo = -1.0f, hi = -1.0f;
  ASSERT_HIP_OK(hipTexRefGetMipmapLevelClamp(&lo, &hi, ref));
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, 0.0f);
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefSetFilterMode(nullptr, hipFilterModePoint));
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefGetFlags(nullptr, ref));
  const textureReference* found = nullptr;
  ASSERT_HIP_OK(hipGetTextureReference(&found, &g_tex_ref));
  EXPECT_EQ(found, &g_tex_ref);

  // Binding linear memory: the reference gets a texture object over it.
  constexpr int n = 64;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 1.5f * i;
  float* d = nullptr;
  float* out = nullptr;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&d), n * sizeof(float)));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&out), n * sizeof(float)));
  ASSERT_HIP_OK(hipMemcpy(d, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  size_t offset = 1;
  ASSERT_HIP_OK(hipBindTexture(&offset, &g_tex_ref, d, &desc, n * sizeof(float)));
  EXPECT_EQ(offset, 0u);
  hipDeviceptr_t bound = nullptr;
  ASSERT_HIP_OK(hipTexRefGetAddress(&bound, ref));
  EXPECT_EQ(bound, static_cast<void*>(d));
  ASSERT_HIP_OK(hipGetTextureAlignmentOffset(&offset, &g_tex_ref));
  EXPECT_EQ(offset, 0u);
  hipLaunchKernelGGL(fetch_reference, dim3(1), dim3(n), 0, 0, out, n);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<float> back(n, -1.0f);
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, host);
  // A misaligned pointer needs somewhere to report its offset.
  EXPECT_HIP(hipErrorInvalidValue, hipBindTexture(nullptr, &g_tex_ref, d + 1, &desc, 16));
  ASSERT_HIP_OK(hipUnbindTexture(&g_tex_ref));
  EXPECT_EQ(g_tex_ref.textureObject, nullptr);
  EXPECT_HIP(hipErrorInvalidValue, hipUnbindTexture(nullptr));
  ASSERT_HIP_OK(hipFree(d));
  ASSERT_HIP_OK(hipFree(out));
  hipGetLastError();
}

TEST(HipTexture, HIP_TEX_2_BindingPitchedMemoryAndArrays) {
  HIP_CLAUSE("HIP-TEX-2");
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  void* d = nullptr;
  size_t pitch = 0;
  ASSERT_HIP_OK(hipMallocPitch(&d, &pitch, 16 * sizeof(float), 8));
  size_t offset = 1;
  ASSERT_HIP_OK(hipBindTexture2D(&offset, &g_tex_ref, d, &desc, 16, 8, pitch));
  EXPECT_EQ(offset, 0u);
  hipResourceDesc res;
  ASSERT_HIP_OK(hipGetTextureObjectResourceDesc(&res, g_tex_ref.textureObject));
  EXPECT_EQ(res.resType, hipResourceTypePitch2D);
  EXPECT_EQ(res.res.pitch2D.width, 16u);
  EXPECT_EQ(res.res.pitch2D.pitchInBytes, pitch);
  hipArray* array = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&array, &desc, 16, 8, 0));
  ASSERT_HIP_OK(hipBindTextureToArray(&g_tex_ref, array, &desc));
  ASSERT_HIP_OK(hipGetTextureObjectResourceDesc(&res, g_tex_ref.textureObject));
  EXPECT_EQ(res.resType, hipResourceTypeArray);
  EXPECT_EQ(res.res.array.array, array);
  hipDeviceptr_t bound = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefGetAddress(&bound, &g_tex_ref));  // an array has no address
  ASSERT_HIP_OK(hipUnbindTexture(&g_tex_ref));
  ASSERT_HIP_OK(hipFreeArray(array));
  ASSERT_HIP_OK(hipFree(d));
  hipGetLastError();
}

TEST(HipTexture, HIP_TEX_3_SurfaceObjectsNeedAnArray) {
  HIP_CLAUSE("HIP-TEX-3");
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray* array = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&array, &desc, 16, 16, 0));
  hipResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipSurfaceObject_t surface = nullptr;
  ASSERT_HIP_OK(hipCreateSurfaceObject(&surface, &res));
  EXPECT_NE(surface, nullptr);
  ASSERT_HIP_OK(hipDestroySurfaceObject(surface));
  hipSurfaceObject_t none = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipCreateSurfaceObject(nullptr, &res));
  EXPECT_HIP(hipErrorInvalidValue, hipCreateSurfaceObject(&none, nullptr));
  hipResourceDesc linear;
  std::memset(&linear, 0, sizeof linear);
  linear.resType = hipResourceTypeLinear;
  EXPECT_HIP(hipErrorInvalidValue, hipCreateSurfaceObject(&none, &linear));
  EXPECT_EQ(none, nullptr);
  ASSERT_HIP_OK(hipFreeArray(array));
  hipGetLastError();
}

#if defined(__HIP__)
constexpr int kW = 8, kH = 4;
float texel(int x, int y) { return static_cast<float>(x + 10 * y); }

// What a sampler returns at (u, v) for the 8x4 image of texel(): the host's model of
// HIP's addressing (clamp to edge, wrap) and filtering (nearest, bilinear about texel centres).
float expected_sample(float u, float v, bool normalized, bool linear, bool wrap) {
  if (normalized) {
    u *= kW;
    v *= kH;
  }
  auto at = [&](int i, int n) { return wrap ? ((i % n) + n) % n : std::min(std::max(i, 0), n - 1); };
  if (!linear) return texel(at(static_cast<int>(std::floor(u)), kW), at(static_cast<int>(std::floor(v)), kH));
  const float x = u - 0.5f, y = v - 0.5f;
  const int i = static_cast<int>(std::floor(x)), j = static_cast<int>(std::floor(y));
  const float a = x - i, b = y - j;
  return (1 - a) * (1 - b) * texel(at(i, kW), at(j, kH)) + a * (1 - b) * texel(at(i + 1, kW), at(j, kH)) +
         (1 - a) * b * texel(at(i, kW), at(j + 1, kH)) + a * b * texel(at(i + 1, kW), at(j + 1, kH));
}

// Coordinates on texel centres, between them (quarters and halves, exact in the filter's
// fixed point) and outside the image on every side.
std::vector<float2> sample_points(bool normalized) {
  std::vector<float2> at;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) at.push_back(make_float2(x + 0.5f, y + 0.5f));
  for (float u : {0.0f, 0.75f, 1.0f, 3.25f, 7.5f, 8.0f, -2.5f, 9.75f, 13.5f})
    for (float v : {0.0f, 0.5f, 1.25f, 3.75f, -1.5f, 6.5f}) at.push_back(make_float2(u, v));
  if (normalized)
    for (float2& p : at) p = make_float2(p.x / kW, p.y / kH);
  return at;
}

TEST(HipTexture, HIP_TEX_4_KernelsSampleArraysAndWriteSurfaces) {
  HIP_CLAUSE("HIP-TEX-4");
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat);
  hipArray* array = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&array, &desc, kW, kH, 0));
  std::vector<float> host(kW * kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) host[y * kW + x] = texel(x, y);
  ASSERT_HIP_OK(
      hipMemcpy2DToArray(array, 0, 0, host.data(), kW * sizeof(float), kW * sizeof(float), kH, hipMemcpyHostToDevice));
  hipResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  float2* at = nullptr;
  float* out = nullptr;
  constexpr int kMaxPoints = 256;
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&at), kMaxPoints * sizeof(float2)));
  ASSERT_HIP_OK(hipMalloc(reinterpret_cast<void**>(&out), kMaxPoints * sizeof(float)));

  struct Case {
    hipTextureFilterMode filter;
    hipTextureAddressMode address;
    int normalized;
  };
  const Case cases[] = {{hipFilterModePoint, hipAddressModeClamp, 0},
                        {hipFilterModeLinear, hipAddressModeClamp, 0},
                        {hipFilterModePoint, hipAddressModeWrap, 1},
                        {hipFilterModeLinear, hipAddressModeWrap, 1},
                        {hipFilterModeLinear, hipAddressModeClamp, 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "filter " << c.filter << " address " << c.address << " normalized "
                                      << c.normalized);
    hipTextureDesc tex;
    std::memset(&tex, 0, sizeof tex);
    tex.addressMode[0] = tex.addressMode[1] = c.address;
    tex.filterMode = c.filter;
    tex.readMode = hipReadModeElementType;
    tex.normalizedCoords = c.normalized;
    hipTextureObject_t object = nullptr;
    ASSERT_HIP_OK(hipCreateTextureObject(&object, &res, &tex, nullptr));
    const std::vector<float2> points = sample_points(c.normalized != 0);
    const int n = static_cast<int>(points.size());
    ASSERT_LE(n, kMaxPoints);
    ASSERT_HIP_OK(hipMemcpy(at, points.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(sample_2d, dim3(1), dim3(kMaxPoints), 0, 0, object, at, out, n);
    ASSERT_HIP_OK(hipDeviceSynchronize());
    std::vector<float> back(n, -1.0f);
    ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const float want = expected_sample(points[i].x, points[i].y, c.normalized != 0, c.filter == hipFilterModeLinear,
                                         c.address == hipAddressModeWrap);
      EXPECT_NEAR(back[i], want, 1e-3f) << "at (" << points[i].x << ", " << points[i].y << ")";
    }
    ASSERT_HIP_OK(hipDestroyTextureObject(object));
  }

  // A texture reference bound to the array samples it the same way.
  g_tex_2d_ref.filterMode = hipFilterModeLinear;
  g_tex_2d_ref.normalized = 0;
  g_tex_2d_ref.addressMode[0] = g_tex_2d_ref.addressMode[1] = hipAddressModeClamp;
  ASSERT_HIP_OK(hipBindTextureToArray(&g_tex_2d_ref, array, &desc));
  const std::vector<float2> points = sample_points(false);
  const int n = static_cast<int>(points.size());
  ASSERT_HIP_OK(hipMemcpy(at, points.data(), n * sizeof(float2), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(sample_2d_reference, dim3(1), dim3(kMaxPoints), 0, 0, at, out, n);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<float> back(n, -1.0f);
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(back[i], expected_sample(points[i].x, points[i].y, false, true, false), 1e-3f) << i;
  }
  ASSERT_HIP_OK(hipUnbindTexture(&g_tex_2d_ref));

  // Pitched memory as a 2D texture.
  void* pitched = nullptr;
  size_t pitch = 0;
  ASSERT_HIP_OK(hipMallocPitch(&pitched, &pitch, kW * sizeof(float), kH));
  ASSERT_HIP_OK(
      hipMemcpy2D(pitched, pitch, host.data(), kW * sizeof(float), kW * sizeof(float), kH, hipMemcpyHostToDevice));
  hipResourceDesc pitch_res;
  std::memset(&pitch_res, 0, sizeof pitch_res);
  pitch_res.resType = hipResourceTypePitch2D;
  pitch_res.res.pitch2D.devPtr = pitched;
  pitch_res.res.pitch2D.desc = desc;
  pitch_res.res.pitch2D.width = kW;
  pitch_res.res.pitch2D.height = kH;
  pitch_res.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc point;
  std::memset(&point, 0, sizeof point);
  point.addressMode[0] = point.addressMode[1] = hipAddressModeClamp;
  point.filterMode = hipFilterModePoint;
  hipTextureObject_t pitch_object = nullptr;
  ASSERT_HIP_OK(hipCreateTextureObject(&pitch_object, &pitch_res, &point, nullptr));
  hipLaunchKernelGGL(sample_2d, dim3(1), dim3(kMaxPoints), 0, 0, pitch_object, at, out, n);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  ASSERT_HIP_OK(hipMemcpy(back.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(back[i], expected_sample(points[i].x, points[i].y, false, false, false), 1e-3f) << i;
  }
  ASSERT_HIP_OK(hipDestroyTextureObject(pitch_object));
  ASSERT_HIP_OK(hipFree(pitched));

  // A surface over a second array: every element written by its work-item, read back.
  hipArray* target = nullptr;
  ASSERT_HIP_OK(hipMallocArray(&target, &desc, kW, kH, 0));
  hipResourceDesc surface_res;
  std::memset(&surface_res, 0, sizeof surface_res);
  surface_res.resType = hipResourceTypeArray;
  surface_res.res.array.array = target;
  hipSurfaceObject_t surface = nullptr;
  ASSERT_HIP_OK(hipCreateSurfaceObject(&surface, &surface_res));
  hipLaunchKernelGGL(write_surface, dim3(kH), dim3(kW), 0, 0, surface, kW);
  ASSERT_HIP_OK(hipDeviceSynchronize());
  std::vector<float> written(kW * kH, -1.0f);
  ASSERT_HIP_OK(hipMemcpy2DFromArray(written.data(), kW * sizeof(float), target, 0, 0, kW * sizeof(float), kH,
                                     hipMemcpyDeviceToHost));
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) EXPECT_EQ(written[y * kW + x], 100.0f + x + 1000.0f * y) << x << "," << y;
  ASSERT_HIP_OK(hipDestroySurfaceObject(surface));
  ASSERT_HIP_OK(hipFreeArray(target));
  ASSERT_HIP_OK(hipFreeArray(array));
  ASSERT_HIP_OK(hipFree(at));
  ASSERT_HIP_OK(hipFree(out));
  hipGetLastError();
}
#endif  // __HIP__

}  // namespace
}  // namespace hip_suite
#endif  // HIP_SUITE_AMD_API
