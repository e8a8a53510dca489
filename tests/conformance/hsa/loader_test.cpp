// tests/conformance/hsa/loader_test.cpp - the loader API on a hipcc-built gfx900 code object (HSA-LOAD-*).
#include <elf.h>

#include "hsa_fixture.h"
#include "loader_fixture.h"

namespace hsa_conformance {
namespace {

class HsaLoader : public HsaTest {
 protected:
  void SetUp() override {
    HsaTest::SetUp();
    if (HasFatalFailure()) return;
    image_ = read_file(ROCREF_HSA_LOADER_KERNELS);
    ASSERT_GT(image_.size(), sizeof(Elf64_Ehdr)) << ROCREF_HSA_LOADER_KERNELS;
    system_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
    kernarg_ = find_pool(agents_.cpu, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
    ASSERT_NE(system_.handle, 0u);
    ASSERT_NE(kernarg_.handle, 0u);
  }
  // The image with the type of its first dynamic relocation set to `type`; false if it has none.
  bool with_relocation_type(uint32_t type, std::vector<uint8_t>* out) const {
    *out = image_;
    Elf64_Ehdr h;
    std::memcpy(&h, out->data(), sizeof h);
    for (size_t i = 0; i < h.e_shnum; ++i) {
      Elf64_Shdr s;
      std::memcpy(&s, out->data() + h.e_shoff + i * sizeof s, sizeof s);
      if (s.sh_type != SHT_RELA || s.sh_size < sizeof(Elf64_Rela)) continue;
      Elf64_Rela r;
      std::memcpy(&r, out->data() + s.sh_offset, sizeof r);
      r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), type);
      std::memcpy(out->data() + s.sh_offset, &r, sizeof r);
      return true;
    }
    return false;
  }
  std::vector<uint8_t> image_;
  hsa_amd_memory_pool_t system_{0}, kernarg_{0};
};

TEST_F(HsaLoader, HSA_LOAD_1_ReaderAndExecutableArgumentsAreChecked) {
  record_clause("HSA-LOAD-1");
  hsa_code_object_reader_t reader{0};
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_code_object_reader_create_from_memory(nullptr, 16, &reader));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT, hsa_code_object_reader_create_from_memory(image_.data(), 0, &reader));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_code_object_reader_create_from_memory(image_.data(), image_.size(), nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, nullptr));
  LoadedImage loaded(image_, agents_.gpu);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loaded.status);
  hsa_executable_state_t state;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_info(loaded.executable, HSA_EXECUTABLE_INFO_STATE, &state));
  EXPECT_EQ(HSA_EXECUTABLE_STATE_FROZEN, state);
  // A frozen executable takes no more code objects; freezing twice is refused too.
  EXPECT_EQ(HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
            hsa_executable_load_agent_code_object(loaded.executable, agents_.gpu, loaded.reader, nullptr, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, hsa_executable_freeze(loaded.executable, nullptr));
  hsa_executable_symbol_t symbol;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
            hsa_executable_get_symbol_by_name(loaded.executable, "no_such_kernel.kd", &agents_.gpu, &symbol));
}

TEST_F(HsaLoader, HSA_LOAD_3_KernelAndVariableSymbolsDescribeTheLoadedImage) {
  record_clause("HSA-LOAD-3");
  LoadedImage loaded(image_, agents_.gpu);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loaded.status);
  hsa_executable_symbol_t kernel, table;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_get_symbol_by_name(loaded.executable, "read_table.kd", &agents_.gpu, &kernel));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_symbol_by_name(loaded.executable, "table", &agents_.gpu, &table));
  hsa_symbol_kind_t kind;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  EXPECT_EQ(HSA_SYMBOL_KIND_KERNEL, kind);
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_symbol_get_info(table, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
  EXPECT_EQ(HSA_SYMBOL_KIND_VARIABLE, kind);
  uint32_t length = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &length));
  ASSERT_LT(length, 256u);
  char name[256] = {};
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name));
  EXPECT_EQ("read_table.kd", std::string(name, length));
  // Explicit arguments (int*, char, long) end at 24; the hidden ones follow.
  uint32_t kernarg_size = 0, kernarg_align = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                           &kernarg_size));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT,
                                           &kernarg_align));
  EXPECT_GE(kernarg_size, 24u);
  EXPECT_GE(kernarg_align, 8u);
  EXPECT_EQ(0u, kernarg_align & (kernarg_align - 1));
  // The kernel object is a descriptor inside the loaded image, whose kernarg_size (offset 8) it states.
  uint64_t object = 0, address = 0;
  uint32_t size = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(kernel, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(table, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_symbol_get_info(table, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &size));
  EXPECT_EQ(16u, size);
  EXPECT_EQ(0u, object % 64);
  // Copied through a system-pool buffer both agents reach (ROCR's hsa_memory_copy wants one).
  void* host = nullptr;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_allocate(system_, 4096, 0, &host));
  hsa_agent_t both[] = {agents_.gpu, agents_.cpu};
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_amd_agents_allow_access(2, both, nullptr, host));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_memory_copy(host, reinterpret_cast<void*>(object), 64));
  uint32_t descriptor_kernarg = 0;
  std::memcpy(&descriptor_kernarg, static_cast<uint8_t*>(host) + 8, 4);
  EXPECT_EQ(kernarg_size, descriptor_kernarg);
  // The variable holds the image's initial values.
  int32_t values[4] = {};
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_memory_copy(host, reinterpret_cast<void*>(address), sizeof values));
  std::memcpy(values, host, sizeof values);
  EXPECT_EQ(11, values[0]);
  EXPECT_EQ(44, values[3]);
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_amd_memory_pool_free(host));
}

TEST_F(HsaLoader, HSA_LOAD_2_LoadedKernelRunsThroughItsRelocatedPointer) {
  record_clause("HSA-LOAD-2");
  LoadedImage loaded(image_, agents_.gpu);
  ASSERT_EQ(HSA_STATUS_SUCCESS, loaded.status);
  std::vector<int32_t> out;
  ASSERT_TRUE(run_read_table(loaded.executable, agents_.gpu, agents_.cpu, system_, kernarg_, 64, 1, 1000, &out));
  const int32_t table[4] = {11, 22, 33, 44};
  for (int i = 0; i < 64; ++i) EXPECT_EQ(table[i % 4] + 1000 * i + 1, out[i]) << "work-item " << i;
}

TEST_F(HsaLoader, HSA_LOAD_4_BadImagesAreRefusedAndChangeNothing) {
  record_clause("HSA-LOAD-4");
  hsa_executable_t executable{0};
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &executable));
  auto load = [&](const std::vector<uint8_t>& bytes) {
    hsa_code_object_reader_t reader{0};
    hsa_status_t s = hsa_code_object_reader_create_from_memory(bytes.data(), bytes.size(), &reader);
    if (s != HSA_STATUS_SUCCESS) return s;
    s = hsa_executable_load_agent_code_object(executable, agents_.gpu, reader, nullptr, nullptr);
    hsa_code_object_reader_destroy(reader);
    return s;
  };
  std::vector<uint8_t> x86 = image_;
  const uint16_t machine = EM_X86_64;
  std::memcpy(x86.data() + offsetof(Elf64_Ehdr, e_machine), &machine, sizeof machine);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, load(x86));
  std::vector<uint8_t> unknown_relocation;
  ASSERT_TRUE(with_relocation_type(99, &unknown_relocation)) << "the image has no dynamic relocation";
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, load(unknown_relocation));
  // Nothing of the refused images is in the executable.
  hsa_executable_symbol_t symbol;
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
            hsa_executable_get_symbol_by_name(executable, "read_table.kd", &agents_.gpu, &symbol));
  // The executable still takes the good image afterwards.
  EXPECT_EQ(HSA_STATUS_SUCCESS, load(image_));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_symbol_by_name(executable, "read_table.kd", &agents_.gpu, &symbol));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_executable_destroy(executable));
}

// Variables the program defines: for one agent, or (agent-less) for the program, which only an
// agent-less lookup finds; each name once per agent, and none after freeze.
TEST_F(HsaLoader, HSA_LOAD_5_DefinedVariablesAreSymbolsOfTheExecutable) {
  record_clause("HSA-LOAD-5");
  hsa_executable_t executable;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &executable));
  static int agent_variable = 1, program_variable = 2;
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_agent_global_variable_define(executable, agents_.gpu, "agent_variable", &agent_variable));
  EXPECT_EQ(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED,
            hsa_executable_agent_global_variable_define(executable, agents_.gpu, "agent_variable", &program_variable));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_global_variable_define(executable, "program_variable", &program_variable));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_ARGUMENT,
            hsa_executable_agent_global_variable_define(executable, agents_.gpu, nullptr, &agent_variable));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_EXECUTABLE,
            hsa_executable_agent_global_variable_define(hsa_executable_t{0}, agents_.gpu, "x", &agent_variable));
  hsa_executable_symbol_t symbol;
  uint64_t address = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_symbol_by_name(executable, "agent_variable", &agents_.gpu, &symbol));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
  EXPECT_EQ(reinterpret_cast<uint64_t>(&agent_variable), address);
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
            hsa_executable_get_symbol_by_name(executable, "agent_variable", nullptr, &symbol));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_symbol_by_name(executable, "program_variable", nullptr, &symbol));
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &address));
  EXPECT_EQ(reinterpret_cast<uint64_t>(&program_variable), address);
  // The deprecated lookup: "module::name", the agent only for agent symbols.
  ASSERT_EQ(HSA_STATUS_SUCCESS,
            hsa_executable_get_symbol(executable, nullptr, "program_variable", agents_.gpu, 0, &symbol));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_get_symbol(executable, "", "agent_variable", agents_.gpu, 0, &symbol));
  EXPECT_EQ(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
            hsa_executable_get_symbol(executable, "module", "agent_variable", agents_.gpu, 0, &symbol));
  // Each iteration sees its own kind.
  int agent_symbols = 0, program_symbols = 0;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_iterate_agent_symbols(
                                    executable, agents_.gpu,
                                    [](hsa_executable_t, hsa_agent_t, hsa_executable_symbol_t, void* data) {
                                      ++*static_cast<int*>(data);
                                      return HSA_STATUS_SUCCESS;
                                    },
                                    &agent_symbols));
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_iterate_program_symbols(
                                    executable,
                                    [](hsa_executable_t, hsa_executable_symbol_t, void* data) {
                                      ++*static_cast<int*>(data);
                                      return HSA_STATUS_SUCCESS;
                                    },
                                    &program_symbols));
  EXPECT_EQ(1, agent_symbols);
  EXPECT_EQ(1, program_symbols);
  uint32_t result = 7;
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_validate(executable, &result));
  EXPECT_EQ(0u, result);
  ASSERT_EQ(HSA_STATUS_SUCCESS, hsa_executable_freeze(executable, nullptr));
  EXPECT_EQ(HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
            hsa_executable_agent_global_variable_define(executable, agents_.gpu, "late", &agent_variable));
  EXPECT_EQ(HSA_STATUS_SUCCESS, hsa_executable_destroy(executable));
}

}  // namespace
}  // namespace hsa_conformance
