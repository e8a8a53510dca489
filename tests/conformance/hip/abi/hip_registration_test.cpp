// tests/conformance/hip/abi/hip_registration_test.cpp - the host side of hipcc-built programs and the module API on a gfx code object (HIP-REG-2, HIP-LNC-8, HIP-MOD-2).
//
// rocref-specific: it calls the registration entry points hipcc's generated
// code calls (not declared by hip_runtime_api.h) with a fat binary built here:
// a clang offload bundle holding a minimal AMDGPU ELF with one kernel
// descriptor ("twice.kd", group segment 256) and one global ("table", 4 ints).
#include <elf.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction, char* deviceFunction, const char* deviceName,
                           unsigned int threadLimit, void* tid, void* bid, dim3* blockDim, dim3* gridDim, int* wSize);
void __hipRegisterVar(void** modules, void* var, char* hostVar, char* deviceVar, int ext, size_t size, int constant,
                      int global);
void __hipUnregisterFatBinary(void** modules);
}

namespace {

constexpr int32_t kTable[4] = {11, 22, 33, 44};

// A relocatable AMDGPU ELF: .data holds the kernel descriptor and the table.
std::vector<uint8_t> code_object() {
  std::vector<uint8_t> data(64 + sizeof kTable, 0);
  const uint32_t group_segment = 256;
  std::memcpy(data.data(), &group_segment, sizeof group_segment);
  std::memcpy(data.data() + 64, kTable, sizeof kTable);
  const std::string strtab = std::string("\0twice.kd\0table\0", 16);
  const std::string shstrtab = std::string("\0.data\0.symtab\0.strtab\0.shstrtab\0", 33);
  Elf64_Sym syms[3] = {};
  syms[1].st_name = 1;  // twice.kd
  syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
  syms[1].st_shndx = 1;
  syms[1].st_value = 0;
  syms[1].st_size = 64;
  syms[2].st_name = 10;  // table
  syms[2].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
  syms[2].st_shndx = 1;
  syms[2].st_value = 64;
  syms[2].st_size = sizeof kTable;
  std::vector<uint8_t> image(sizeof(Elf64_Ehdr));
  auto append = [&image](const void* bytes, size_t n) {
    const size_t at = image.size();
    image.insert(image.end(), static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + n);
    return at;
  };
  const size_t data_at = append(data.data(), data.size());
  const size_t sym_at = append(syms, sizeof syms);
  const size_t str_at = append(strtab.data(), strtab.size());
  const size_t shstr_at = append(shstrtab.data(), shstrtab.size());
  while (image.size() % 8 != 0) image.push_back(0);
  Elf64_Shdr sections[5] = {};
  sections[1] = {1, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, data_at, data.size(), 0, 0, 8, 0};
  sections[2] = {7, SHT_SYMTAB, 0, 0, sym_at, sizeof syms, 3, 1, 8, sizeof(Elf64_Sym)};
  sections[3] = {15, SHT_STRTAB, 0, 0, str_at, strtab.size(), 0, 0, 1, 0};
  sections[4] = {23, SHT_STRTAB, 0, 0, shstr_at, shstrtab.size(), 0, 0, 1, 0};
  const size_t sh_at = append(sections, sizeof sections);
  Elf64_Ehdr h = {};
  std::memcpy(h.e_ident, ELFMAG, SELFMAG);
  h.e_ident[EI_CLASS] = ELFCLASS64;
  h.e_ident[EI_DATA] = ELFDATA2LSB;
  h.e_ident[EI_VERSION] = EV_CURRENT;
  h.e_type = ET_DYN;
  h.e_machine = 224;  // EM_AMDGPU
  h.e_version = EV_CURRENT;
  h.e_shoff = sh_at;
  h.e_ehsize = sizeof(Elf64_Ehdr);
  h.e_shentsize = sizeof(Elf64_Shdr);
  h.e_shnum = 5;
  h.e_shstrndx = 4;
  std::memcpy(image.data(), &h, sizeof h);
  return image;
}

// A clang offload bundle: a host entry (empty) and the gfx900 code object.
std::vector<uint8_t> bundle(const std::vector<uint8_t>& object) {
  const std::string host = "host-x86_64-unknown-linux-gnu";
  const std::string device = "hipv4-amdgcn-amd-amdhsa--gfx900";
  std::vector<uint8_t> b;
  auto put = [&b](const void* p, size_t n) { b.insert(b.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); };
  auto put64 = [&put](uint64_t v) { put(&v, 8); };
  put("__CLANG_OFFLOAD_BUNDLE__", 24);
  put64(2);
  const uint64_t header = 24 + 8 + (24 + host.size()) + (24 + device.size());
  put64(header);
  put64(0);
  put64(host.size());
  put(host.data(), host.size());
  put64(header);
  put64(object.size());
  put64(device.size());
  put(device.data(), device.size());
  put(object.data(), object.size());
  return b;
}

struct Wrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  const void* unused;
};

void twice_stub(int*) {}  // what hipcc's host stub for `twice` would be
int32_t table_shadow[4];   // the host shadow of the device variable `table`

// covers: HIP-LNC-8
TEST(HipRegistration, HIP_REG_2_FatBinaryKernelsAndVariables) {
  const std::vector<uint8_t> fat = bundle(code_object());
  const Wrapper wrapper{0x48495046, 1, fat.data(), nullptr};
  void** modules = __hipRegisterFatBinary(&wrapper);
  ASSERT_NE(modules, nullptr);
  char name[] = "twice";
  __hipRegisterFunction(modules, reinterpret_cast<const void*>(&twice_stub), name, name, 0, nullptr, nullptr,
                        nullptr, nullptr, nullptr);
  char var[] = "table";
  __hipRegisterVar(modules, table_shadow, var, var, 0, sizeof table_shadow, 0, 0);
  // The variable's device copy starts with the code object's bytes.
  int32_t back[4] = {};
  ASSERT_EQ(hipSuccess, hipMemcpyFromSymbol(back, HIP_SYMBOL(table_shadow), sizeof back, 0, hipMemcpyDeviceToHost));
  EXPECT_EQ(0, std::memcmp(back, kTable, sizeof back));
  // HIP-LNC-8: the stub names gfx code the model cannot execute.
  hipFuncAttributes attr;
  ASSERT_EQ(hipSuccess, hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(&twice_stub)));
  EXPECT_EQ(attr.sharedSizeBytes, 256u);
  int* arg = nullptr;
  void* args[] = {&arg};
  EXPECT_EQ(hipErrorNoBinaryForGpu,
            hipLaunchKernel(reinterpret_cast<const void*>(&twice_stub), dim3(1), dim3(64), args, 0, nullptr));
  __hipUnregisterFatBinary(modules);
  const Wrapper bad{0x12345678, 1, fat.data(), nullptr};
  EXPECT_EQ(nullptr, __hipRegisterFatBinary(&bad));
  hipGetLastError();
}

// covers: HIP-LNC-8
TEST(HipModule, HIP_MOD_2_CodeObjectKernelsAndGlobals) {
  const std::vector<uint8_t> object = code_object();
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, hipModuleLoadData(&module, object.data()));
  hipFunction_t f = nullptr;
  ASSERT_EQ(hipSuccess, hipModuleGetFunction(&f, module, "twice"));
  EXPECT_STREQ(hipKernelNameRef(f), "twice");
  EXPECT_EQ(hipErrorNotFound, hipModuleGetFunction(&f, module, "thrice"));
  hipDeviceptr_t table = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(hipSuccess, hipModuleGetGlobal(&table, &bytes, module, "table"));
  EXPECT_EQ(bytes, sizeof kTable);
  int32_t back[4] = {};
  ASSERT_EQ(hipSuccess, hipMemcpyDtoH(back, table, sizeof back));
  EXPECT_EQ(0, std::memcmp(back, kTable, sizeof back));
  int value = 0;
  ASSERT_EQ(hipSuccess, hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  EXPECT_EQ(value, 256);
  EXPECT_EQ(hipErrorNoBinaryForGpu, hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr));
  EXPECT_EQ(hipErrorInvalidValue, hipModuleLaunchKernel(f, 0, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr));
  // The bundle form selects the gfx900 entry.
  const std::vector<uint8_t> fat = bundle(object);
  hipModule_t from_bundle = nullptr;
  ASSERT_EQ(hipSuccess, hipModuleLoadData(&from_bundle, fat.data()));
  ASSERT_EQ(hipSuccess, hipModuleUnload(from_bundle));
  ASSERT_EQ(hipSuccess, hipModuleUnload(module));
  EXPECT_EQ(hipErrorInvalidResourceHandle, hipModuleUnload(module));
  // An ELF for another machine is no code object.
  std::vector<uint8_t> x86 = object;
  const uint16_t machine = EM_X86_64;
  std::memcpy(x86.data() + offsetof(Elf64_Ehdr, e_machine), &machine, sizeof machine);
  EXPECT_EQ(hipErrorInvalidImage, hipModuleLoadData(&module, x86.data()));
  hipGetLastError();
}

}  // namespace
