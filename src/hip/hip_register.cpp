// hip/hip_register.cpp - the entry points hipcc's generated host code calls (HIP-REG-1).
//
// A program built by hipcc registers its fat binary (a clang offload bundle
// with one gfx code object per target) from a static constructor, then each
// kernel's host stub and each __device__ variable. rocref takes the code
// object for its GPU's ISA; stubs become known kernels, launched as gfx9 code
// once the code object is loaded (on first use: the device is not open yet),
// and variables are the variables inside that loaded image.
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "common/code_object_metadata.h"
#include "hip/hip_code_object.h"
#include "hip/hip_function.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"
#include "hip/hip_symbol.h"

namespace {

constexpr uint32_t kFatMagic = 0x48495046;  // "HIPF": __hipFatMAGIC2
constexpr char kDefaultIsa[] = "gfx900";     // the GPU the model presents

struct FatBinaryWrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  const void* unused;
};

// What __hipRegisterFatBinary hands back: the code object for this GPU (or
// none) and the variables registered from it.
struct FatBinary {
  ihipModule_t* module = nullptr;
  std::vector<const void*> variables;
  rocref::hip::CodeObject contents;
};

std::mutex g_mutex;

// Registration runs from static constructors, before main: opening HSA there
// would run the whole stack before the program does, so the ISA is the model's.
std::string device_isa() { return kDefaultIsa; }

FatBinary* fat_binary(void** modules) { return reinterpret_cast<FatBinary*>(modules); }

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void** __hipRegisterFatBinary(const void* data) {
  const auto* wrapper = static_cast<const FatBinaryWrapper*>(data);
  if (wrapper == nullptr || wrapper->magic != kFatMagic || wrapper->version != 1) {
    std::fprintf(stderr, "rocref HIP: __hipRegisterFatBinary: not a HIP fat binary wrapper\n");
    return nullptr;
  }
  auto* fat = new FatBinary();
  auto module = std::make_unique<ihipModule_t>();
  if (rocref::hip::bundle_entry(wrapper->binary, 0, device_isa(), &module->image, &module->target) &&
      rocref::hip::parse_code_object(module->image.data(), module->image.size(), &fat->contents)) {
    // __launch_bounds__ is the metadata's .max_flat_workgroup_size (HIP-LNC-5, HIP-LNC-6).
    std::vector<rocref::code_object::KernelMetadata> metadata;
    (void)rocref::code_object::read_kernel_metadata(module->image.data(), module->image.size(), &metadata);
    for (const rocref::hip::CodeObjectKernel& k : fat->contents.kernels) {
      auto f = std::make_unique<ihipModuleSymbol_t>();
      f->name = k.name;
      f->module = module.get();
      f->static_shared = k.group_segment;
      for (const auto& m : metadata) {
        if (m.name == k.name) f->max_threads = m.max_flat_workgroup_size;
      }
      module->kernels.push_back(std::move(f));
    }
    fat->module = module.release();
    rocref::hip::add_module(fat->module);
  }
  return reinterpret_cast<void**>(fat);
}

__attribute__((visibility("default"))) void __hipRegisterFunction(void** modules, const void* hostFunction,
                                                                  char* deviceFunction, const char* deviceName,
                                                                  unsigned int threadLimit, void* tid, void* bid,
                                                                  dim3* blockDim, dim3* gridDim, int* wSize) {
  (void)deviceFunction, (void)threadLimit, (void)tid, (void)bid, (void)blockDim, (void)gridDim, (void)wSize;
  if (modules == nullptr || hostFunction == nullptr || deviceName == nullptr) return;
  FatBinary* fat = fat_binary(modules);
  ihipModuleSymbol_t* stub = rocref::hip::register_stub(hostFunction, fat->module, deviceName);
  if (fat->module == nullptr) return;
  for (auto& k : fat->module->kernels) {
    if (k->name != deviceName) continue;
    stub->static_shared = k->static_shared;
    stub->max_threads = k->max_threads;
  }
}

__attribute__((visibility("default"))) void __hipRegisterVar(void** modules, void* var, char* hostVar,
                                                             char* deviceVar, int ext, size_t size, int constant,
                                                             int global) {
  (void)hostVar, (void)ext, (void)constant, (void)global;
  if (modules == nullptr || var == nullptr || size == 0) return;
  FatBinary* fat = fat_binary(modules);
  rocref::hip::Symbol symbol{nullptr, size, nullptr, nullptr, {}};
  for (const rocref::hip::CodeObjectGlobal& g : fat->contents.globals) {
    if (deviceVar == nullptr || g.name != deviceVar || g.size < size) continue;
    symbol.module = fat->module;  // HIP-SYM-1: the variable inside the loaded image
    symbol.name = g.name;
    symbol.init = g.init.data();
  }
  rocref::hip::add_symbol(var, symbol);
  std::lock_guard lock(g_mutex);
  fat->variables.push_back(var);
}

__attribute__((visibility("default"))) void __hipRegisterManagedVar(void* hipModule, void** pointer,
                                                                    void* init_value, const char* name, size_t size,
                                                                    unsigned align) {
  (void)hipModule, (void)name, (void)align;
  if (pointer == nullptr || size == 0) return;
  void* memory = nullptr;
  if (hipMallocManaged(&memory, size, hipMemAttachGlobal) != hipSuccess) return;
  if (init_value != nullptr) std::memcpy(memory, init_value, size);
  *pointer = memory;
}

// Texture references: a variable of the program like __hipRegisterVar's, the size of a
// textureReference; binding copies the reference into the code object's variable, which
// hipcc's texture functions read (HIP-TEX-2). Surface references have no runtime calls.
__attribute__((visibility("default"))) void __hipRegisterSurface(void** modules, void* var, char* hostVar,
                                                                 char* deviceVar, int type, int ext) {
  (void)modules, (void)var, (void)hostVar, (void)deviceVar, (void)type, (void)ext;
}

__attribute__((visibility("default"))) void __hipRegisterTexture(void** modules, void* var, char* hostVar,
                                                                 char* deviceVar, int type, int norm, int ext) {
  (void)type, (void)norm;
  __hipRegisterVar(modules, var, hostVar, deviceVar, ext, sizeof(textureReference), 0, 0);
}

__attribute__((visibility("default"))) void __hipUnregisterFatBinary(void** modules) {
  if (modules == nullptr) return;
  FatBinary* fat = fat_binary(modules);
  for (const void* var : fat->variables) rocref::hip::remove_symbol(var);
  if (fat->module != nullptr && rocref::hip::remove_module(fat->module)) delete fat->module;
  delete fat;
}

}  // extern "C"
