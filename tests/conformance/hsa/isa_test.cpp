// tests/conformance/hsa/isa_test.cpp - instruction set architectures and wavefronts (HSA-ISA-1..3).
//
// The values are ROCR 5.2.3's, measured on its gfx900 agent; the suite runs against it too.
#include <cstring>
#include <string>
#include <vector>

#include "hsa_fixture.h"

namespace hsa_conformance {
namespace {

using HsaIsa = HsaTest;

std::vector<hsa_isa_t> isas_of(hsa_agent_t agent) {
  std::vector<hsa_isa_t> out;
  EXPECT_EQ(hsa_agent_iterate_isas(
                agent,
                [](hsa_isa_t isa, void* data) {
                  static_cast<std::vector<hsa_isa_t>*>(data)->push_back(isa);
                  return HSA_STATUS_SUCCESS;
                },
                &out),
            HSA_STATUS_SUCCESS);
  return out;
}

std::string name_of(hsa_isa_t isa) {
  uint32_t length = 0;
  EXPECT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length), HSA_STATUS_SUCCESS);
  std::string name(length, 'Z');
  EXPECT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name.data()), HSA_STATUS_SUCCESS);
  EXPECT_EQ(name.back(), '\0') << "the length counts the terminating NUL";
  name.pop_back();
  return name;
}

// HSA-ISA-1: a GPU agent has one ISA, the one HSA_AGENT_INFO_ISA names; a CPU agent has none.
// Full names resolve to the same handle; short or unknown names do not resolve.
TEST_F(HsaIsa, HSA_ISA_1_AgentsListTheirIsaAndNamesResolveToIt) {
  record_clause("HSA-ISA-1");
  const std::vector<hsa_isa_t> gpu = isas_of(agents_.gpu);
  ASSERT_EQ(gpu.size(), 1u);
  hsa_isa_t from_agent{};
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_ISA, &from_agent), HSA_STATUS_SUCCESS);
  EXPECT_EQ(from_agent.handle, gpu[0].handle);
  char agent_name[64] = {};
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_NAME, agent_name), HSA_STATUS_SUCCESS);
  const std::string name = name_of(gpu[0]);
  EXPECT_EQ(name.rfind("amdgcn-amd-amdhsa--" + std::string(agent_name), 0), 0u) << name;
  hsa_isa_t resolved{};
  ASSERT_EQ(hsa_isa_from_name(name.c_str(), &resolved), HSA_STATUS_SUCCESS);
  EXPECT_EQ(resolved.handle, gpu[0].handle) << "one ISA, one handle";
  EXPECT_TRUE(isas_of(agents_.cpu).empty());
  hsa_isa_t none{};
  ASSERT_EQ(hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_ISA, &none), HSA_STATUS_SUCCESS);
  EXPECT_EQ(none.handle, 0u);

  EXPECT_EQ(hsa_isa_from_name(agent_name, &resolved), HSA_STATUS_ERROR_INVALID_ISA_NAME) << "not a full name";
  EXPECT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx9999", &resolved), HSA_STATUS_ERROR_INVALID_ISA_NAME);
  EXPECT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:xnack-:sramecc+", &resolved),
            HSA_STATUS_ERROR_INVALID_ISA_NAME)
      << "features in their order only";
  EXPECT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", &resolved), HSA_STATUS_SUCCESS)
      << "every supported processor resolves, present or not";
  EXPECT_EQ(hsa_isa_from_name(nullptr, &resolved), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_isa_from_name(name.c_str(), nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_agent_iterate_isas(agents_.gpu, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_agent_iterate_isas(
                agents_.gpu, [](hsa_isa_t, void*) { return HSA_STATUS_INFO_BREAK; }, nullptr),
            HSA_STATUS_INFO_BREAK);
}

// HSA-ISA-2: the attributes of the GPU's ISA; the deprecated call with index 0 agrees.
TEST_F(HsaIsa, HSA_ISA_2_AttributesAndWavefronts) {
  record_clause("HSA-ISA-2");
  const hsa_isa_t isa = isas_of(agents_.gpu).at(0);
  bool two[2] = {true, true};
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_MACHINE_MODELS, two), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(two[HSA_MACHINE_MODEL_SMALL]);
  EXPECT_TRUE(two[HSA_MACHINE_MODEL_LARGE]);
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_PROFILES, two), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(two[HSA_PROFILE_BASE]);
  EXPECT_FALSE(two[HSA_PROFILE_FULL]);
  bool three[3] = {true, true, false};
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, three), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(three[HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR]);
  EXPECT_FALSE(three[HSA_DEFAULT_FLOAT_ROUNDING_MODE_ZERO]);
  bool f16 = false;
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FAST_F16_OPERATION, &f16), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(f16);
  uint16_t wg_dim[3] = {};
  uint32_t wg_size = 0, fbarriers = 0, conventions = 0;
  hsa_dim3_t grid_dim{};
  uint64_t grid_size = 0;
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_DIM, wg_dim), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_WORKGROUP_MAX_SIZE, &wg_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_DIM, &grid_dim), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_GRID_MAX_SIZE, &grid_size), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_FBARRIER_MAX_SIZE, &fbarriers), HSA_STATUS_SUCCESS);
  EXPECT_EQ(wg_dim[0], 1024);
  EXPECT_EQ(wg_dim[2], 1024);
  EXPECT_EQ(wg_size, 1024u);
  EXPECT_EQ(grid_dim.x, UINT32_MAX);
  EXPECT_EQ(grid_size, UINT64_MAX);
  EXPECT_EQ(fbarriers, 32u);
  ASSERT_EQ(hsa_isa_get_info(isa, HSA_ISA_INFO_CALL_CONVENTION_COUNT, 0, &conventions), HSA_STATUS_SUCCESS);
  EXPECT_EQ(conventions, 1u);
  uint32_t wave = 0;
  ASSERT_EQ(hsa_isa_get_info(isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, 0, &wave), HSA_STATUS_SUCCESS);
  uint32_t agent_wave = 0;
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_WAVEFRONT_SIZE, &agent_wave), HSA_STATUS_SUCCESS);
  EXPECT_EQ(wave, agent_wave);
  EXPECT_EQ(hsa_isa_get_info(isa, HSA_ISA_INFO_NAME_LENGTH, 1, &wave), HSA_STATUS_ERROR_INVALID_INDEX);
  EXPECT_EQ(hsa_isa_get_info_alt(isa, static_cast<hsa_isa_info_t>(10), &wave), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  std::vector<hsa_wavefront_t> waves;
  ASSERT_EQ(hsa_isa_iterate_wavefronts(
                isa,
                [](hsa_wavefront_t w, void* data) {
                  static_cast<std::vector<hsa_wavefront_t>*>(data)->push_back(w);
                  return HSA_STATUS_SUCCESS;
                },
                &waves),
            HSA_STATUS_SUCCESS);
  ASSERT_EQ(waves.size(), 1u);
  uint32_t size = 0;
  ASSERT_EQ(hsa_wavefront_get_info(waves[0], HSA_WAVEFRONT_INFO_SIZE, &size), HSA_STATUS_SUCCESS);
  EXPECT_EQ(size, agent_wave);
  EXPECT_EQ(hsa_wavefront_get_info(waves[0], static_cast<hsa_wavefront_info_t>(5), &size),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(hsa_isa_iterate_wavefronts(isa, nullptr, nullptr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}

// HSA-ISA-3: exception policies (none), the round method (single), and compatibility: an ISA
// that leaves XNACK unspecified runs on the agent's.
TEST_F(HsaIsa, HSA_ISA_3_PoliciesRoundingAndCompatibility) {
  record_clause("HSA-ISA-3");
  const hsa_isa_t isa = isas_of(agents_.gpu).at(0);
  uint16_t mask = 0xffff;
  ASSERT_EQ(hsa_isa_get_exception_policies(isa, HSA_PROFILE_BASE, &mask), HSA_STATUS_SUCCESS);
  EXPECT_EQ(mask, 0u);
  EXPECT_EQ(hsa_isa_get_exception_policies(isa, static_cast<hsa_profile_t>(7), &mask),
            HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_round_method_t method{};
  ASSERT_EQ(hsa_isa_get_round_method(isa, HSA_FP_TYPE_32, HSA_FLUSH_MODE_FTZ, &method), HSA_STATUS_SUCCESS);
  EXPECT_EQ(method, HSA_ROUND_METHOD_SINGLE);
  bool compatible = false;
  ASSERT_EQ(hsa_isa_compatible(isa, isa, &compatible), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(compatible);
  char agent_name[64] = {};
  ASSERT_EQ(hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_NAME, agent_name), HSA_STATUS_SUCCESS);
  hsa_isa_t any_xnack{}, other{};
  ASSERT_EQ(hsa_isa_from_name(("amdgcn-amd-amdhsa--" + std::string(agent_name)).c_str(), &any_xnack),
            HSA_STATUS_SUCCESS);
  EXPECT_NE(any_xnack.handle, isa.handle);
  ASSERT_EQ(hsa_isa_compatible(any_xnack, isa, &compatible), HSA_STATUS_SUCCESS);
  EXPECT_TRUE(compatible) << "code that does not fix XNACK runs in either mode";
  ASSERT_EQ(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1030", &other), HSA_STATUS_SUCCESS);
  ASSERT_EQ(hsa_isa_compatible(other, isa, &compatible), HSA_STATUS_SUCCESS);
  EXPECT_FALSE(compatible) << "another processor";
}

}  // namespace
}  // namespace hsa_conformance
