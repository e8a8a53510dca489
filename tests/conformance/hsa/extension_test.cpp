// tests/conformance/hsa/extension_test.cpp - extension queries and tables (HSA-EXT-1) and the AMD
// loader extension on a hipcc-built gfx900 code object (HSA-EXT-2).
#include <elf.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <algorithm>
#include <string>

#include "hsa_fixture.h"
#include "loader_fixture.h"

namespace hsa_conformance {
namespace {

bool bit(const uint8_t* bits, unsigned n) { return (bits[n / 8] >> (n % 8)) & 1u; }

using ExtensionTest = HsaTest;

TEST_F(ExtensionTest, HSA_EXT_1_SupportQueriesAnswerAsRocr) {
  record_clause("HSA-EXT-1");
  bool result = false;
  // Any extension of the standard and AMD ranges at version 1.0; counters and events never.
  for (uint16_t e : {HSA_EXTENSION_FINALIZER, HSA_EXTENSION_IMAGES, HSA_EXTENSION_AMD_PROFILER,
                     HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_AQLPROFILE}) {
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_extension_supported(e, 1, 0, &result)) << e;
    EXPECT_TRUE(result) << e;
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_extension_supported(e, 1, 1, &result)) << e;
    EXPECT_FALSE(result) << e;
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_extension_supported(e, 2, 0, &result)) << e;
    EXPECT_FALSE(result) << e;
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_extension_supported(e, agents_.gpu, 1, 0, &result)) << e;
    EXPECT_TRUE(result) << e;
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_extension_supported(e, agents_.cpu, 1, 0, &result)) << e;
    EXPECT_FALSE(result) << e;
  }
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_extension_supported(HSA_EXTENSION_PERFORMANCE_COUNTERS, 1, 0, &result));
  EXPECT_FALSE(result);
  // Outside both ranges: refused, and the answer untouched.
  result = true;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_system_extension_supported(HSA_EXTENSION_STD_LAST + 1, 1, 0, &result));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_system_extension_supported(HSA_AMD_LAST_EXTENSION + 1, 1, 0, &result));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_agent_extension_supported(HSA_AMD_LAST_EXTENSION + 1, agents_.gpu, 1, 0, &result));
  EXPECT_TRUE(result);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, nullptr));
  // Major versions: images, finalizer, loader and aqlprofile at 1; the others not (no range check).
  uint16_t minor = 77;
  for (uint16_t e :
       {HSA_EXTENSION_IMAGES, HSA_EXTENSION_FINALIZER, HSA_EXTENSION_AMD_LOADER, HSA_EXTENSION_AMD_AQLPROFILE}) {
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_major_extension_supported(e, 1, &minor, &result)) << e;
    EXPECT_TRUE(result) << e;
    EXPECT_EQ(0, minor) << e;
  }
  minor = 77;
  for (uint16_t e : {uint16_t{HSA_EXTENSION_PERFORMANCE_COUNTERS}, uint16_t{HSA_EXTENSION_AMD_PROFILER},
                     uint16_t{HSA_AMD_LAST_EXTENSION + 1}}) {
    ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_major_extension_supported(e, 1, &minor, &result)) << e;
    EXPECT_FALSE(result) << e;
  }
  EXPECT_EQ(77, minor);
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_agent_major_extension_supported(HSA_EXTENSION_AMD_PROFILER, agents_.gpu, 1, &minor, &result));
  EXPECT_TRUE(result);
  EXPECT_EQ(0, minor);
  // Names.
  const char* name = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_extension_get_name(HSA_EXTENSION_AMD_LOADER, &name));
  EXPECT_STREQ("HSA_EXTENSION_AMD_LOADER", name);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_extension_get_name(HSA_AMD_LAST_EXTENSION + 1, &name));
  EXPECT_STREQ("HSA_EXTENSION_INVALID", name);
}

TEST_F(ExtensionTest, HSA_EXT_1_BitmasksNameTheProfilerAndNothingForTheCpu) {
  record_clause("HSA-EXT-1");
  uint8_t system[128], gpu[128], cpu[128];
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, system));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_get_info(agents_.gpu, HSA_AGENT_INFO_EXTENSIONS, gpu));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_agent_get_info(agents_.cpu, HSA_AGENT_INFO_EXTENSIONS, cpu));
  EXPECT_TRUE(bit(system, HSA_EXTENSION_AMD_PROFILER));
  EXPECT_FALSE(bit(system, HSA_EXTENSION_FINALIZER));
  EXPECT_FALSE(bit(system, HSA_EXTENSION_AMD_LOADER));
  EXPECT_EQ(0, std::memcmp(system, gpu, sizeof gpu));
  for (uint8_t byte : cpu) EXPECT_EQ(0, byte);
  // The image table is there exactly when the bit says so.
  hsa_ext_images_1_pfn_t images{};
  EXPECT_EQ(bit(system, HSA_EXTENSION_IMAGES) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR,
            hsa_system_get_major_extension_table(HSA_EXTENSION_IMAGES, 1, sizeof images, &images));
}

TEST_F(ExtensionTest, HSA_EXT_1_TablesAtTheirVersions) {
  record_clause("HSA-EXT-1");
  hsa_ven_amd_loader_1_03_pfn_t loader{};
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader));
  EXPECT_NE(nullptr, loader.hsa_ven_amd_loader_query_host_address);
  EXPECT_NE(nullptr, loader.hsa_ven_amd_loader_iterate_executables);
  // A shorter table gets its prefix only.
  hsa_ven_amd_loader_1_03_pfn_t prefix{};
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_system_get_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, &prefix));
  EXPECT_NE(nullptr, prefix.hsa_ven_amd_loader_query_host_address);
  EXPECT_EQ(nullptr, prefix.hsa_ven_amd_loader_loaded_code_object_get_info);
  EXPECT_EQ(HSA_STATUS_ERROR,
            hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 2, sizeof loader, &loader));
  // ROCR 5.2.3 has no finalizer: its placeholder table is at major 0, and its calls are not initialized.
  hsa_ext_finalizer_1_00_pfn_t finalizer{};
  EXPECT_EQ(HSA_STATUS_ERROR,
            hsa_system_get_major_extension_table(HSA_EXTENSION_FINALIZER, 1, sizeof finalizer, &finalizer));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_system_get_major_extension_table(HSA_EXTENSION_FINALIZER, 0, sizeof finalizer, &finalizer));
  ASSERT_NE(nullptr, finalizer.hsa_ext_program_destroy);
  EXPECT_EQ(HSA_STATUS_ERROR_NOT_INITIALIZED, finalizer.hsa_ext_program_destroy(hsa_ext_program_t{1}));
  // No profiler table, no aqlprofile library, nothing for counters.
  uint8_t table[256];
  EXPECT_EQ(HSA_STATUS_ERROR, hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_PROFILER, 1, sizeof table, table));
  EXPECT_EQ(HSA_STATUS_ERROR,
            hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1, sizeof table, table));
  EXPECT_EQ(HSA_STATUS_ERROR,
            hsa_system_get_major_extension_table(HSA_EXTENSION_PERFORMANCE_COUNTERS, 1, sizeof table, table));
  // Arguments: no table, no length.
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, 0, &loader));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_system_get_extension_table(HSA_EXTENSION_AMD_PROFILER, 1, 0, table));  // no such table: length 0
}

class LoaderExtension : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    image_ = read_file(ROCREF_HSA_LOADER_KERNELS);
    ASSERT_GT(image_.size(), sizeof(Elf64_Ehdr)) << ROCREF_HSA_LOADER_KERNELS;
    ASSERT_EQ(HSA_STATUS_SUCCESS,
              hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader_, &loader_));
  }
  uint64_t variable(hsa_executable_t executable, const char* name) {
    hsa_executable_symbol_t symbol;
    uint64_t address = 0;
    if (hsa_executable_get_symbol_by_name(executable, name, &agents_.gpu, &symbol) == HSA_STATUS_SUCCESS)
      hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address);
    return address;
  }
  std::vector<uint8_t> image_;
  hsa_ven_amd_loader_1_03_pfn_t loader_{};
};

// The host copy of a placed image holds its relocated bytes: table_ptr there is table's device address.
TEST_F(LoaderExtension, HSA_EXT_2_HostAddressHoldsTheRelocatedImage) {
  record_clause("HSA-EXT-2");
  LoadedImage loaded(image_, agents_.gpu);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loaded.status);
  const uint64_t table = variable(loaded.executable, "table");
  const uint64_t table_ptr = variable(loaded.executable, "table_ptr");
  ASSERT_NE(0u, table);
  ASSERT_NE(0u, table_ptr);
  const void* host = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            loader_.hsa_ven_amd_loader_query_host_address(reinterpret_cast<void*>(table_ptr), &host));
  uint64_t pointer = 0;
  std::memcpy(&pointer, host, sizeof pointer);
  EXPECT_EQ(table, pointer);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_query_host_address(reinterpret_cast<void*>(table), &host));
  int32_t values[4];
  std::memcpy(values, host, sizeof values);
  EXPECT_EQ(11, values[0]);
  EXPECT_EQ(44, values[3]);
  hsa_executable_t owner{0};
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_query_executable(reinterpret_cast<void*>(table), &owner));
  EXPECT_EQ(loaded.executable.handle, owner.handle);
  // Addresses outside every image, and missing arguments.
  int local = 0;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, loader_.hsa_ven_amd_loader_query_host_address(&local, &host));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, loader_.hsa_ven_amd_loader_query_host_address(nullptr, &host));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            loader_.hsa_ven_amd_loader_query_host_address(reinterpret_cast<void*>(table), nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, loader_.hsa_ven_amd_loader_query_executable(&local, &owner));
}

TEST_F(LoaderExtension, HSA_EXT_2_LoadedCodeObjectsAndSegmentsDescribeTheLoad) {
  record_clause("HSA-EXT-2");
  LoadedImage loaded(image_, agents_.gpu);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loaded.status);
  std::vector<hsa_loaded_code_object_t> objects;
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
                                    loaded.executable,
                                    [](hsa_executable_t, hsa_loaded_code_object_t object, void* data) {
                                      static_cast<std::vector<hsa_loaded_code_object_t>*>(data)->push_back(object);
                                      return HSA_STATUS_SUCCESS;
                                    },
                                    &objects));
  ASSERT_EQ(1u, objects.size());
  const hsa_loaded_code_object_t object = objects[0];
  hsa_executable_t executable{0};
  hsa_agent_t agent{0};
  uint32_t kind = 0, storage = 0, uri_length = 0;
  uint64_t base = 0, size = 0, memory_size = 0;
  int64_t delta = 0;
  auto info = [&](hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value) {
    return loader_.hsa_ven_amd_loader_loaded_code_object_get_info(object, attribute, value);
  };
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE, &executable));
  EXPECT_EQ(loaded.executable.handle, executable.handle);
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind));
  EXPECT_EQ(uint32_t{HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT}, kind);
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &agent));
  EXPECT_EQ(agents_.gpu.handle, agent.handle);
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE, &storage));
  EXPECT_EQ(uint32_t{HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY}, storage);
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE, &memory_size));
  EXPECT_EQ(image_.size(), memory_size);
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &base));
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &size));
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta));
  EXPECT_EQ(static_cast<int64_t>(base), delta);  // hipcc's first PT_LOAD is at address 0
  const uint64_t table = variable(loaded.executable, "table");
  EXPECT_LE(base, table);
  EXPECT_LT(table, base + size);
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &uri_length));
  std::string uri(uri_length, '\0');
  ASSERT_EQ(HSA_STATUS_SUCCESS, info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri.data()));
  EXPECT_EQ(0u, uri.rfind("memory://", 0)) << uri;
  EXPECT_NE(std::string::npos, uri.find("&size=" + std::to_string(image_.size()))) << uri;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            info(HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE, &storage));
  // Segment descriptors: the count first, then exactly that many; ours is among them.
  size_t count = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_query_segment_descriptors(nullptr, &count));
  ASSERT_GE(count, 1u);
  std::vector<hsa_ven_amd_loader_segment_descriptor_t> segments(count + 1);
  size_t wrong = count + 1;
  EXPECT_EQ(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
            loader_.hsa_ven_amd_loader_query_segment_descriptors(segments.data(), &wrong));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, loader_.hsa_ven_amd_loader_query_segment_descriptors(nullptr, &wrong));
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_query_segment_descriptors(segments.data(), &count));
  bool found = false;
  for (size_t i = 0; i < count; ++i) {
    if (segments[i].executable.handle != loaded.executable.handle) continue;
    found = true;
    EXPECT_EQ(agents_.gpu.handle, segments[i].agent.handle);
    EXPECT_EQ(base, reinterpret_cast<uint64_t>(segments[i].segment_base));
    EXPECT_EQ(size, segments[i].segment_size);
    EXPECT_EQ(image_.size(), segments[i].code_object_storage_size);
  }
  EXPECT_TRUE(found);
  // The executable is among those the loader iterates.
  std::vector<uint64_t> executables;
  ASSERT_EQ(HSA_STATUS_SUCCESS, loader_.hsa_ven_amd_loader_iterate_executables(
                                    [](hsa_executable_t e, void* data) {
                                      static_cast<std::vector<uint64_t>*>(data)->push_back(e.handle);
                                      return HSA_STATUS_SUCCESS;
                                    },
                                    &executables));
  EXPECT_NE(executables.end(), std::find(executables.begin(), executables.end(), loaded.executable.handle));
}

}  // namespace
}  // namespace hsa_conformance
