// hip/hip_module.cpp - the module API over gfx code objects (HIP-MOD-1).
//
// hipModuleLoad* accepts an AMDGPU ELF code object or a clang offload bundle
// holding one for the device's ISA; its kernels become hipFunction_t handles
// and its globals get device copies made at load. A module kernel launch is
// checked as hipamd checks it, then fails with hipErrorNoBinaryForGpu until
// the GPU model executes gfx9 code (HIP-LNC-8).
#include <fstream>
#include <iterator>
#include <memory>

#include "hip/hip_code_object.h"
#include "hip/hip_function.h"
#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

hipError_t load(hipModule_t* module, const uint8_t* image, size_t size) {
  if (module == nullptr || image == nullptr) return hipErrorInvalidValue;
  const auto dev = rocref::hip::device();
  if (!dev) return dev.error();
  rocref::clr::Device* d = *dev;
  auto m = std::make_unique<ihipModule_t>();
  if (rocref::hip::is_bundle(image, size)) {
    if (!rocref::hip::bundle_entry(image, size, d->info().isa_name, &m->image, &m->target)) return hipErrorNoBinaryForGpu;
  } else if (rocref::hip::is_elf(image, size)) {
    const size_t elf = size != 0 ? size : rocref::hip::elf_size(image);
    if (elf == 0) return hipErrorInvalidImage;
    m->image.assign(image, image + elf);
    m->target = d->info().isa_name;
  } else {
    return hipErrorInvalidKernelFile;  // neither a code object nor a bundle, as hipamd 5.2.3 answers
  }
  rocref::hip::CodeObject contents;
  if (!rocref::hip::parse_code_object(m->image.data(), m->image.size(), &contents)) return hipErrorInvalidImage;
  for (const rocref::hip::CodeObjectKernel& k : contents.kernels) {
    auto f = std::make_unique<ihipModuleSymbol_t>();
    f->name = k.name;
    f->module = m.get();
    f->static_shared = k.group_segment;
    m->kernels.push_back(std::move(f));
  }
  for (const rocref::hip::CodeObjectGlobal& g : contents.globals) {
    ihipModule_t::Global global{g.name, nullptr, g.size};
    if (g.size != 0) {
      if (hipError_t e = rocref::hip::allocate(&global.device, g.size, rocref::clr::MemoryKind::Device, 0,
                                               "hipModuleLoad");
          e != hipSuccess) {
        for (auto& made : m->globals) (void)rocref::hip::release(made.device, false, "hipModuleUnload");
        return e;
      }
      if (hipError_t e = rocref::hip::copy(global.device, g.init.data(), g.size, hipMemcpyHostToDevice, nullptr, false);
          e != hipSuccess) {
        (void)rocref::hip::release(global.device, false, "hipModuleUnload");
        for (auto& made : m->globals) (void)rocref::hip::release(made.device, false, "hipModuleUnload");
        return e;
      }
    }
    m->globals.push_back(global);
  }
  *module = m.release();
  rocref::hip::add_module(*module);
  return hipSuccess;
}

}  // namespace

hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return result(load(module, static_cast<const uint8_t*>(image), 0));
}

hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int numOptions, hipJitOption* options,
                               void** optionValues) {
  if (numOptions != 0 && (options == nullptr || optionValues == nullptr)) return result(hipErrorInvalidValue);
  return result(load(module, static_cast<const uint8_t*>(image), 0));  // JIT options: nothing is compiled
}

hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  if (module == nullptr || fname == nullptr) return result(hipErrorInvalidValue);
  std::ifstream file(fname, std::ios::binary);
  if (!file) return result(hipErrorFileNotFound);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.empty()) return result(hipErrorInvalidImage);
  return result(load(module, bytes.data(), bytes.size()));
}

hipError_t hipModuleUnload(hipModule_t module) {
  if (module == nullptr || !rocref::hip::remove_module(module)) return result(hipErrorInvalidResourceHandle);
  for (auto& g : module->globals) {
    if (g.device != nullptr) (void)rocref::hip::release(g.device, false, "hipModuleUnload");
  }
  delete module;
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) {
  if (function == nullptr || kname == nullptr) return result(hipErrorInvalidValue);
  if (module == nullptr || !rocref::hip::known_module(module)) return result(hipErrorInvalidResourceHandle);
  for (auto& k : module->kernels) {
    if (k->name == kname) {
      *function = k.get();
      return hipSuccess;
    }
  }
  return result(hipErrorNotFound);
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod, const char* name) {
  if (name == nullptr || (dptr == nullptr && bytes == nullptr)) return result(hipErrorInvalidValue);
  if (hmod == nullptr || !rocref::hip::known_module(hmod)) return result(hipErrorInvalidResourceHandle);
  for (auto& g : hmod->globals) {
    if (g.name != name) continue;
    if (dptr != nullptr) *dptr = g.device;
    if (bytes != nullptr) *bytes = g.size;
    return hipSuccess;
  }
  return result(hipErrorNotFound);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream, void** kernelParams, void** extra) {
  if (!rocref::hip::known_function(f)) return result(hipErrorInvalidResourceHandle);
  if (kernelParams != nullptr && extra != nullptr) return result(hipErrorInvalidValue);
  if (rocref::hip::resolve_stream(stream) == nullptr) return result(hipErrorInvalidHandle);
  if (gridDimX == 0 || gridDimY == 0 || gridDimZ == 0 || blockDimX == 0 || blockDimY == 0 || blockDimZ == 0) {
    return result(hipErrorInvalidValue);
  }
  const uint64_t threads = uint64_t{blockDimX} * blockDimY * blockDimZ;
  if (threads > rocref::hip::max_threads_per_block(*f)) return result(hipErrorInvalidValue);
  return result(rocref::hip::launch_function(*f, dim3(gridDimX, gridDimY, gridDimZ), dim3(blockDimX, blockDimY, blockDimZ),
                                             kernelParams, sharedMemBytes, stream));
}
