// tests/unit/hsa/image_mutant_test.cpp - HSA-IMG-3's planted bug caught: a T# whose PITCH holds the
// row pitch in bytes (ImagePitchInBytes) sends the interpreter's image loads and stores of every
// row after the first elsewhere, so the suite's image kernel no longer computes 2 * src + 1.
#include <gtest/gtest.h>
#include <hsa/hsa_ext_image.h>

#include <vector>

#include "hsa/hsa_mutant.h"
#include "hsa_fixture.h"
#include "image_fixture.h"
#include "loader_fixture.h"

namespace hsa_conformance {
namespace {

using rocref::hsa::HsaMutant;

class HsaImageMutant : public HsaTest {
 protected:
  // Whether two linear 16 x 4 RGBA float images, imported, run through image_twice_plus_one and
  // exported, hold 2 * src + 1.
  bool kernel_sees_the_imported_texels() {
    const std::vector<uint8_t> code = read_file(ROCREF_HSA_LOADER_KERNELS);
    LoadedImage loaded(code, agents_.gpu);
    if (loaded.status != HSA_STATUS_SUCCESS) return false;
    const hsa_amd_memory_pool_t vram = find_pool(agents_.gpu, 0);
    const hsa_amd_memory_pool_t system = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    const hsa_amd_memory_pool_t kernarg = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    constexpr uint32_t kW = 16, kH = 4, kBytes = kW * kH * 16;
    const hsa_ext_image_descriptor_t desc{
        HSA_EXT_IMAGE_GEOMETRY_2D, kW, kH, 0, 0, {HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA}};
    void *a = nullptr, *b = nullptr, *host = nullptr;
    hsa_amd_memory_pool_allocate(vram, kBytes, 0, &a);
    hsa_amd_memory_pool_allocate(vram, kBytes, 0, &b);
    hsa_amd_memory_pool_allocate(system, kBytes, 0, &host);
    hsa_ext_image_t src{0}, dst{0};
    bool ok = hsa_ext_image_create_with_layout(agents_.gpu, &desc, a, HSA_ACCESS_PERMISSION_RW,
                                               HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &src) == HSA_STATUS_SUCCESS &&
              hsa_ext_image_create_with_layout(agents_.gpu, &desc, b, HSA_ACCESS_PERMISSION_RW,
                                               HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, 0, 0, &dst) == HSA_STATUS_SUCCESS;
    auto* texels = static_cast<float*>(host);
    for (uint32_t i = 0; i < kW * kH * 4; ++i) texels[i] = static_cast<float>(i);
    const hsa_ext_image_region_t all{{0, 0, 0}, {kW, kH, 1}};
    ok = ok && hsa_ext_image_import(agents_.gpu, host, 0, 0, src, &all) == HSA_STATUS_SUCCESS;
    ok = ok && run_image_kernel(loaded.executable, agents_.gpu, kernarg, src.handle, dst.handle, kW, kH);
    std::memset(host, 0, kBytes);
    ok = ok && hsa_ext_image_export(agents_.gpu, dst, host, 0, 0, &all) == HSA_STATUS_SUCCESS;
    for (uint32_t i = 0; ok && i < kW * kH * 4; ++i) ok = texels[i] == 2.0f * static_cast<float>(i) + 1.0f;
    if (src.handle != 0) hsa_ext_image_destroy(agents_.gpu, src);
    if (dst.handle != 0) hsa_ext_image_destroy(agents_.gpu, dst);
    hsa_amd_memory_pool_free(a);
    hsa_amd_memory_pool_free(b);
    hsa_amd_memory_pool_free(host);
    return ok;
  }
};

TEST_F(HsaImageMutant, ImagePitchInBytesIsCaught) {
  EXPECT_TRUE(kernel_sees_the_imported_texels());
  bool planted_ok = true;
  {
    rocref::hsa::ScopedHsaMutant planted(HsaMutant::ImagePitchInBytes);
    planted_ok = kernel_sees_the_imported_texels();
  }
  EXPECT_FALSE(planted_ok) << "a T# with its pitch in bytes went unseen";
}

}  // namespace
}  // namespace hsa_conformance
