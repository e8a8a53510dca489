// tests/conformance/hip/abi/hip_registration_test.cpp - the host side of hipcc-built programs and the module API on a
// gfx code object (HIP-REG-2, HIP-LNC-8, HIP-MOD-2, HIP-SYM-1).
//
// rocref-specific: it calls the registration entry points hipcc's generated
// code calls (not declared by hip_runtime_api.h) with a fat binary built here:
// a clang offload bundle holding the HSA conformance suite's gfx900 code object
// (tests/conformance/hsa/loader_kernels.hip: kernels read_table(int*, char, long)
// and global_offsets(long*), variables table[4] and table_ptr), whose kernels
// then run on the GPU model.
#include <elf.h>
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
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

std::vector<uint8_t> code_object() {
  std::ifstream file(ROCREF_HSA_LOADER_KERNELS, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// read_table's results over `n` work-items: table[i % 4] + scale * i + pad.
bool read_table_results(const int32_t* out, int n, const int32_t (&table)[4], int pad, int scale) {
  for (int i = 0; i < n; ++i) {
    if (out[i] != table[i % 4] + scale * i + pad) return false;
  }
  return true;
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

void read_table_stub(int*, char, long) {}  // what hipcc's host stub for `read_table` would be
int32_t table_shadow[4];                   // the host shadow of the device variable `table`

// covers: HIP-LNC-8, HIP-SYM-1
TEST(HipRegistration, HIP_REG_2_FatBinaryKernelsAndVariables) {
  const std::vector<uint8_t> object = code_object();
  ASSERT_GT(object.size(), sizeof(Elf64_Ehdr)) << ROCREF_HSA_LOADER_KERNELS;
  const std::vector<uint8_t> fat = bundle(object);
  const Wrapper wrapper{0x48495046, 1, fat.data(), nullptr};
  void** modules = __hipRegisterFatBinary(&wrapper);
  ASSERT_NE(modules, nullptr);
  char name[] = "read_table";
  __hipRegisterFunction(modules, reinterpret_cast<const void*>(&read_table_stub), name, name, 0, nullptr, nullptr,
                        nullptr, nullptr, nullptr);
  char var[] = "table";
  __hipRegisterVar(modules, table_shadow, var, var, 0, sizeof table_shadow, 0, 0);
  // The variable starts with the code object's bytes.
  int32_t back[4] = {};
  ASSERT_EQ(hipSuccess, hipMemcpyFromSymbol(back, HIP_SYMBOL(table_shadow), sizeof back, 0, hipMemcpyDeviceToHost));
  EXPECT_EQ(0, std::memcmp(back, kTable, sizeof back));
  // HIP-SYM-1: the symbol is the variable the kernel reads (through its relocated table_ptr).
  const int32_t changed[4] = {1, 2, 3, 4};
  ASSERT_EQ(hipSuccess, hipMemcpyToSymbol(HIP_SYMBOL(table_shadow), changed, sizeof changed, 0, hipMemcpyHostToDevice));
  int32_t* out = nullptr;
  ASSERT_EQ(hipSuccess, hipMalloc(&out, 128 * sizeof(int32_t)));
  char pad = 3;
  long scale = 100;
  void* args[] = {&out, &pad, &scale};
  ASSERT_EQ(hipSuccess,
            hipLaunchKernel(reinterpret_cast<const void*>(&read_table_stub), dim3(2), dim3(64), args, 0, nullptr));
  ASSERT_EQ(hipSuccess, hipDeviceSynchronize());
  int32_t results[128] = {};
  ASSERT_EQ(hipSuccess, hipMemcpy(results, out, sizeof results, hipMemcpyDeviceToHost));
  EXPECT_TRUE(read_table_results(results, 128, changed, 3, 100)) << "results[5] = " << results[5];
  // Checked as any launch: a block above the device's limit.
  hipFuncAttributes attr;
  ASSERT_EQ(hipSuccess, hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(&read_table_stub)));
  EXPECT_EQ(attr.maxThreadsPerBlock, 1024);
  EXPECT_EQ(hipErrorInvalidConfiguration,
            hipLaunchKernel(reinterpret_cast<const void*>(&read_table_stub), dim3(1), dim3(2048), args, 0, nullptr));
  EXPECT_EQ(hipSuccess, hipFree(out));
  __hipUnregisterFatBinary(modules);
  const Wrapper bad{0x12345678, 1, fat.data(), nullptr};
  EXPECT_EQ(nullptr, __hipRegisterFatBinary(&bad));
  hipGetLastError();
}

// covers: HIP-LNC-8
TEST(HipModule, HIP_MOD_2_CodeObjectKernelsAndGlobals) {
  const std::vector<uint8_t> object = code_object();
  ASSERT_GT(object.size(), sizeof(Elf64_Ehdr)) << ROCREF_HSA_LOADER_KERNELS;
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, hipModuleLoadData(&module, object.data()));
  hipFunction_t f = nullptr;
  ASSERT_EQ(hipSuccess, hipModuleGetFunction(&f, module, "read_table"));
  EXPECT_STREQ(hipKernelNameRef(f), "read_table");
  EXPECT_EQ(hipErrorNotFound, hipModuleGetFunction(&f, module, "thrice"));
  hipDeviceptr_t table = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(hipSuccess, hipModuleGetGlobal(&table, &bytes, module, "table"));
  EXPECT_EQ(bytes, sizeof kTable);
  int32_t back[4] = {};
  ASSERT_EQ(hipSuccess, hipMemcpyDtoH(back, table, sizeof back));
  EXPECT_EQ(0, std::memcmp(back, kTable, sizeof back));
  int32_t* out = nullptr;
  ASSERT_EQ(hipSuccess, hipMalloc(&out, 64 * sizeof(int32_t)));
  int32_t results[64] = {};
  // kernelParams: one pointer per argument; dynamic shared memory adds to the kernel's own.
  char pad = 1;
  long scale = 10;
  void* params[] = {&out, &pad, &scale};
  ASSERT_EQ(hipSuccess, hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 1024, nullptr, params, nullptr));
  ASSERT_EQ(hipSuccess, hipDeviceSynchronize());
  ASSERT_EQ(hipSuccess, hipMemcpy(results, out, sizeof results, hipMemcpyDeviceToHost));
  EXPECT_TRUE(read_table_results(results, 64, kTable, 1, 10));
  // `extra`: the explicit arguments packed at their offsets (int* 0, char 8, long 16).
  uint8_t packed[24] = {};
  pad = 2;
  scale = 20;
  std::memcpy(packed, &out, 8);
  std::memcpy(packed + 8, &pad, 1);
  std::memcpy(packed + 16, &scale, 8);
  size_t packed_size = sizeof packed;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, packed, HIP_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   HIP_LAUNCH_PARAM_END};
  ASSERT_EQ(hipSuccess, hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  ASSERT_EQ(hipSuccess, hipDeviceSynchronize());
  ASSERT_EQ(hipSuccess, hipMemcpy(results, out, sizeof results, hipMemcpyDeviceToHost));
  EXPECT_TRUE(read_table_results(results, 64, kTable, 2, 20));
  EXPECT_EQ(hipErrorInvalidValue, hipModuleLaunchKernel(f, 0, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(hipErrorInvalidValue, hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, extra));
  EXPECT_EQ(hipErrorInvalidValue, hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 70000, nullptr, params, nullptr));
  EXPECT_EQ(hipSuccess, hipFree(out));
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
