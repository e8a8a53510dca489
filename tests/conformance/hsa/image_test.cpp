// tests/conformance/hsa/image_test.cpp - the image extension (hsa/hsa_ext_image.h, HSA-IMG-*).
//
// Images live in the GPU's memory pool, host buffers in the fine-grained system pool (memory a
// GPU may read, as ROCR's blit kernels need); a gfx900 kernel from the suite's code object
// reads and writes two linear images through their handles.
#include <hsa/hsa_ext_image.h>

#include <cmath>
#include <vector>

#include "hsa_fixture.h"
#include "image_fixture.h"
#include "loader_fixture.h"

namespace hsa_conformance {
namespace {

constexpr hsa_ext_image_format_t kRgbaFloat{HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};
constexpr hsa_ext_image_format_t kRgbaUnorm8{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA};

bool has_bit(const uint8_t* mask, unsigned bit) { return (mask[bit / 8] >> (bit % 8)) & 1; }

class HsaImage : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    vram_ = find_pool(agents_.gpu, 0);
    system_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    kernarg_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    ASSERT_NE(vram_.handle, 0u);
    ASSERT_NE(system_.handle, 0u);
  }
  void TearDown() override {
    for (void* p : allocations_) hsa_amd_memory_pool_free(p);
    HsaTest::TearDown();
  }
  // `bytes` of `pool` at an `alignment` multiple, visible to both agents.
  void* allocate(hsa_amd_memory_pool_t pool, size_t bytes, size_t alignment = 256) {
    void* p = nullptr;
    if (hsa_amd_memory_pool_allocate(pool, bytes + alignment, 0, &p) != HSA_STATUS_SUCCESS) return nullptr;
    hsa_agent_t both[] = {agents_.gpu, agents_.cpu};
    hsa_amd_agents_allow_access(2, both, nullptr, p);
    allocations_.push_back(p);
    const uintptr_t a = (reinterpret_cast<uintptr_t>(p) + alignment - 1) / alignment * alignment;
    return reinterpret_cast<void*>(a);
  }
  // An image of `desc` in VRAM: opaque (row_pitch < 0) or linear with that row pitch.
  hsa_ext_image_t image(const hsa_ext_image_descriptor_t& desc, long row_pitch = -1) {
    hsa_ext_image_data_info_t info{};
    hsa_status_t s =
        row_pitch < 0 ? hsa_ext_image_data_get_info(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW, &info)
                      : hsa_ext_image_data_get_info_with_layout(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                                HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_pitch, 0, &info);
    EXPECT_EQ(s, HSA_STATUS_SUCCESS);
    void* data = allocate(vram_, info.size, info.alignment);
    hsa_ext_image_t handle{0};
    s = row_pitch < 0 ? hsa_ext_image_create(agents_.gpu, &desc, data, HSA_ACCESS_PERMISSION_RW, &handle)
                      : hsa_ext_image_create_with_layout(agents_.gpu, &desc, data, HSA_ACCESS_PERMISSION_RW,
                                                         HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row_pitch, 0, &handle);
    EXPECT_EQ(s, HSA_STATUS_SUCCESS);
    return handle;
  }
  hsa_amd_memory_pool_t vram_{0}, system_{0}, kernarg_{0};
  std::vector<void*> allocations_;
};

TEST_F(HsaImage, HSA_IMG_1_GpuHasTheImageExtensionAndGfx9MaxDimensions) {
  record_clause("HSA-IMG-1");
  uint8_t mask[128];
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_EXTENSIONS, mask), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(has_bit(mask, HSA_EXTENSION_IMAGES));
  ASSERT_EQ(hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, mask), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(has_bit(mask, HSA_EXTENSION_IMAGES));
  uint32_t dim[3] = {};
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS),
                               dim),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(dim[0], 16384u);
  EXPECT_EQ(dim[1], 16384u);
  EXPECT_EQ(dim[2], 8192u);
  uint32_t layers = 0, width = 0;
  ASSERT_EQ(hsa_amd_image_get_info_max_dim(agents_.gpu,
                                           static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS),
                                           &layers),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(layers, 8192u);
  ASSERT_EQ(hsa_amd_image_get_info_max_dim(agents_.gpu,
                                           static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS),
                                           &width),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(width, 16384u);
  uint32_t cpu_dim[2] = {1, 1};
  ASSERT_EQ(hsa_amd_image_get_info_max_dim(agents_.cpu,
                                           static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS),
                                           cpu_dim),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cpu_dim[0], 0u);
  EXPECT_EQ(cpu_dim[1], 0u);
  EXPECT_EQ(hsa_amd_image_get_info_max_dim(agents_.gpu, HSA_AGENT_INFO_NAME, &width),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_amd_image_get_info_max_dim(hsa_agent_t{0},
                                           static_cast<hsa_agent_info_t>(HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS),
                                           &width),
            HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(HsaImage, HSA_IMG_2_CapabilityByFormatAndGeometry) {
  record_clause("HSA-IMG-2");
  const uint32_t rw =
      HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY | HSA_EXT_IMAGE_CAPABILITY_READ_WRITE;
  uint32_t cap = 99;
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &kRgbaUnorm8, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, rw);
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_3D, &kRgbaFloat, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, rw);
  const hsa_ext_image_format_t depth{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_DEPTH};
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &depth, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, uint32_t{HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY});
  // Depth geometries take depth orders only; BGRA has 8-bit types only; a CPU has no images.
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &kRgbaFloat, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, 0u);
  const hsa_ext_image_format_t bgra16{HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA};
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_2D, &bgra16, &cap), HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, 0u);
  ASSERT_EQ(hsa_ext_image_get_capability(agents_.cpu, HSA_EXT_IMAGE_GEOMETRY_2D, &kRgbaUnorm8, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, 0u);
  ASSERT_EQ(hsa_ext_image_get_capability_with_layout(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_1D, &kRgbaFloat,
                                                     HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, &cap),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(cap, rw);
  EXPECT_EQ(hsa_ext_image_get_capability_with_layout(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_1D, &kRgbaFloat,
                                                     HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, &cap),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_get_capability(agents_.gpu, static_cast<hsa_ext_image_geometry_t>(8), &kRgbaFloat, &cap),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_get_capability(agents_.gpu, HSA_EXT_IMAGE_GEOMETRY_2D, nullptr, &cap),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_get_capability(hsa_agent_t{0}, HSA_EXT_IMAGE_GEOMETRY_2D, &kRgbaFloat, &cap),
            HSA_STATUS_ERROR_INVALID_AGENT);
}

TEST_F(HsaImage, HSA_IMG_4_DataInfoSizesAndPitchRules) {
  record_clause("HSA-IMG-4");
  hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, 64, 8, 0, 0, kRgbaUnorm8};
  hsa_ext_image_data_info_t info{};
  // Linear: rows of 64 texels (256 bytes, addrlib's gfx9 pitch alignment).
  ASSERT_EQ(hsa_ext_image_data_get_info_with_layout(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &info),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 256u * 8);
  EXPECT_EQ(info.alignment, 256u);
  ASSERT_EQ(hsa_ext_image_data_get_info_with_layout(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 512, 0, &info),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 512u * 8);
  hsa_ext_image_descriptor_t volume{HSA_EXT_IMAGE_GEOMETRY_3D, 64, 4, 3, 0, kRgbaUnorm8};
  EXPECT_EQ(static_cast<uint32_t>(
                hsa_ext_image_data_get_info_with_layout(agents_.gpu, &volume, HSA_ACCESS_PERMISSION_RW,
                                                        HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256, 2048, &info)),
            uint32_t{HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED});
  ASSERT_EQ(hsa_ext_image_data_get_info_with_layout(agents_.gpu, &volume, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 256, 1024, &info),
            HSA_STATUS_SUCCESS);
  EXPECT_EQ(info.size, 256u * 4 * 3);
  // Opaque: at least the texels, at a power-of-two alignment.
  ASSERT_EQ(hsa_ext_image_data_get_info(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RO, &info), HSA_STATUS_SUCCESS);
  EXPECT_GE(info.size, 64u * 8 * 4);
  EXPECT_EQ(info.alignment & (info.alignment - 1), 0u);
  EXPECT_GE(info.alignment, 256u);
  desc.width = 16385;
  EXPECT_EQ(static_cast<uint32_t>(hsa_ext_image_data_get_info(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RO, &info)),
            uint32_t{HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED});
  desc.width = 64;
  desc.depth = 2;  // a 2D image has no depth
  EXPECT_EQ(static_cast<uint32_t>(hsa_ext_image_data_get_info(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RO, &info)),
            uint32_t{HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED});
  desc.depth = 0;
  desc.format = {HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGB};
  EXPECT_EQ(static_cast<uint32_t>(hsa_ext_image_data_get_info(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RO, &info)),
            uint32_t{HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED});
  EXPECT_EQ(hsa_ext_image_data_get_info(agents_.gpu, &desc, static_cast<hsa_access_permission_t>(0), &info),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_data_get_info(agents_.gpu, nullptr, HSA_ACCESS_PERMISSION_RO, &info),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

// A row pitch that is no multiple of 256 bytes, or a default pitch (width x texel size) that is
// none: addrlib refuses it (Debian's ROCR, built with asserts, aborts in addrlib instead).
TEST_F(HsaImage, HSA_IMG_4_UnalignedRowPitchIsRefused) {
  record_clause("HSA-IMG-4");
  hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, 64, 8, 0, 0, kRgbaUnorm8};
  hsa_ext_image_data_info_t info{};
  EXPECT_EQ(hsa_ext_image_data_get_info_with_layout(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 300, 0, &info),
            HSA_STATUS_ERROR);
  desc.width = 10;
  EXPECT_EQ(hsa_ext_image_data_get_info_with_layout(agents_.gpu, &desc, HSA_ACCESS_PERMISSION_RW,
                                                    HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &info),
            HSA_STATUS_ERROR);
}

TEST_F(HsaImage, HSA_IMG_3_KernelReadsAndWritesImagesThroughTheirHandles) {
  record_clause("HSA-IMG-3");
  const std::vector<uint8_t> code = read_file(ROCREF_HSA_LOADER_KERNELS);
  ASSERT_FALSE(code.empty());
  LoadedImage loaded(code, agents_.gpu);
  ASSERT_EQ(loaded.status, HSA_STATUS_SUCCESS);
  constexpr uint32_t kW = 16, kH = 4;  // 16 RGBA float texels: one 256-byte row
  const hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, kW, kH, 0, 0, kRgbaFloat};
  const hsa_ext_image_t src = image(desc, 0), dst = image(desc, 0);
  ASSERT_NE(src.handle, 0u);
  ASSERT_NE(dst.handle, 0u);
  auto* host = static_cast<float*>(allocate(system_, kW * kH * 16));
  for (uint32_t i = 0; i < kW * kH * 4; ++i) host[i] = static_cast<float>(i);
  const hsa_ext_image_region_t all{{0, 0, 0}, {kW, kH, 1}};
  ASSERT_EQ(hsa_ext_image_import(agents_.gpu, host, 0, 0, src, &all), HSA_STATUS_SUCCESS);
  ASSERT_TRUE(run_image_kernel(loaded.executable, agents_.gpu, kernarg_, src.handle, dst.handle, kW, kH));
  auto* out = static_cast<float*>(allocate(system_, kW * kH * 16));
  std::memset(out, 0, kW * kH * 16);
  ASSERT_EQ(hsa_ext_image_export(agents_.gpu, dst, out, 0, 0, &all), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < kW * kH * 4; ++i) ASSERT_EQ(out[i], 2.0f * static_cast<float>(i) + 1.0f) << "float " << i;
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, src), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, dst), HSA_STATUS_SUCCESS);
}

TEST_F(HsaImage, HSA_IMG_6_ImportCopyClearExportRoundTrip) {
  record_clause("HSA-IMG-6");
  constexpr uint32_t kW = 8, kH = 4;
  const hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, kW, kH, 0, 0, kRgbaUnorm8};
  const hsa_ext_image_t a = image(desc), b = image(desc);
  ASSERT_NE(a.handle, 0u);
  auto* host = static_cast<uint8_t*>(allocate(system_, kW * kH * 4));
  for (uint32_t i = 0; i < kW * kH * 4; ++i) host[i] = static_cast<uint8_t>(i + 1);
  const hsa_ext_image_region_t all{{0, 0, 0}, {kW, kH, 1}};
  ASSERT_EQ(hsa_ext_image_import(agents_.gpu, host, 0, 0, a, &all), HSA_STATUS_SUCCESS);
  const hsa_dim3_t origin{0, 0, 0}, range{kW, kH, 1};
  ASSERT_EQ(hsa_ext_image_copy(agents_.gpu, a, &origin, b, &origin, &range), HSA_STATUS_SUCCESS);
  // Clear the texel (2, 1) to opaque white.
  const float white[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  const hsa_ext_image_region_t one{{2, 1, 0}, {1, 1, 1}};
  ASSERT_EQ(hsa_ext_image_clear(agents_.gpu, b, white, &one), HSA_STATUS_SUCCESS);
  auto* out = static_cast<uint8_t*>(allocate(system_, kW * kH * 4));
  ASSERT_EQ(hsa_ext_image_export(agents_.gpu, b, out, 0, 0, &all), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < kW * kH * 4; ++i) {
    const bool cleared = i / 4 == 1 * kW + 2;
    EXPECT_EQ(out[i], cleared ? 255 : static_cast<uint8_t>(i + 1)) << "byte " << i;
  }
  // A region partly outside the image: the texels inside move, the rest read as zeros.
  const hsa_ext_image_region_t edge{{kW - 2, 0, 0}, {4, 1, 1}};
  std::memset(out, 0xee, 16);
  ASSERT_EQ(hsa_ext_image_export(agents_.gpu, a, out, 0, 0, &edge), HSA_STATUS_SUCCESS);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], i < 8 ? static_cast<uint8_t>((kW - 2) * 4 + i + 1) : 0) << i;
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, a), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, b), HSA_STATUS_SUCCESS);
}

TEST_F(HsaImage, HSA_IMG_5_CreateAndCopyArgumentChecks) {
  record_clause("HSA-IMG-5");
  const hsa_ext_image_descriptor_t desc{HSA_EXT_IMAGE_GEOMETRY_2D, 64, 2, 0, 0, kRgbaUnorm8};
  void* data = allocate(vram_, 64 * 1024 * 4, 64 * 1024);
  hsa_ext_image_t handle{7};
  EXPECT_EQ(hsa_ext_image_create(hsa_agent_t{0}, &desc, data, HSA_ACCESS_PERMISSION_RW, &handle),
            HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_ext_image_create(agents_.gpu, &desc, nullptr, HSA_ACCESS_PERMISSION_RW, &handle),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_create(agents_.gpu, &desc, static_cast<char*>(data) + 4, HSA_ACCESS_PERMISSION_RW, &handle),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_create_with_layout(agents_.gpu, &desc, data, HSA_ACCESS_PERMISSION_RW,
                                             HSA_EXT_IMAGE_DATA_LAYOUT_OPAQUE, 0, 0, &handle),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(static_cast<uint32_t>(hsa_ext_image_create(agents_.cpu, &desc, data, HSA_ACCESS_PERMISSION_RW, &handle)),
            uint32_t{HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED});
  ASSERT_EQ(hsa_ext_image_create(agents_.gpu, &desc, data, HSA_ACCESS_PERMISSION_RW, &handle), HSA_STATUS_SUCCESS);
  // A copy between formats is refused.
  const hsa_ext_image_descriptor_t other{HSA_EXT_IMAGE_GEOMETRY_2D, 64, 2, 0, 0, kRgbaFloat};
  const hsa_ext_image_t f = image(other);
  const hsa_dim3_t origin{0, 0, 0}, range{1, 1, 1};
  EXPECT_EQ(hsa_ext_image_copy(agents_.gpu, handle, &origin, f, &origin, &range), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_copy(agents_.gpu, handle, nullptr, f, &origin, &range), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  const hsa_ext_image_region_t all{{0, 0, 0}, {1, 1, 1}};
  EXPECT_EQ(hsa_ext_image_import(agents_.gpu, nullptr, 0, 0, handle, &all), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_import(agents_.gpu, data, 0, 0, hsa_ext_image_t{0}, &all), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_clear(agents_.gpu, handle, nullptr, &all), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_ext_image_destroy(hsa_agent_t{0}, handle), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, handle), HSA_STATUS_SUCCESS);
  EXPECT_EQ(hsa_ext_image_destroy(agents_.gpu, f), HSA_STATUS_SUCCESS);
}

TEST_F(HsaImage, HSA_IMG_7_SamplersOnGpuAgentsOnly) {
  record_clause("HSA-IMG-7");
  const hsa_ext_sampler_descriptor_t desc{HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED,
                                          HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                                          HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE};
  hsa_ext_sampler_t sampler{0};
  EXPECT_EQ(hsa_ext_sampler_create(agents_.cpu, &desc, &sampler), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_ext_sampler_create(hsa_agent_t{0}, &desc, &sampler), HSA_STATUS_ERROR_INVALID_AGENT);
  EXPECT_EQ(hsa_ext_sampler_create(agents_.gpu, nullptr, &sampler), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(hsa_ext_sampler_create(agents_.gpu, &desc, &sampler), HSA_STATUS_SUCCESS);
  EXPECT_NE(sampler.handle, 0u);
  EXPECT_EQ(sampler.handle % 16, 0u);  // an S# a kernel loads with s_load_dwordx4
  EXPECT_EQ(hsa_ext_sampler_destroy(agents_.gpu, sampler), HSA_STATUS_SUCCESS);
}

}  // namespace
}  // namespace hsa_conformance
