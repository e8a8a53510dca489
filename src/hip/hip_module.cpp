// hip/hip_module.cpp - the module API over gfx code objects (HIP-MOD-1).
//
// hipModuleLoad* accepts an AMDGPU ELF code object or a clang offload bundle
// holding one for the device's ISA, and loads it through the command layer
// (clr/program.h): its kernels become hipFunction_t handles, its globals are
// the variables inside the loaded image. A module kernel launch is checked as
// hipamd checks it, then dispatched as gfx9 code (HIP-LNC-8).
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
  rocref::clr::Program* program = nullptr;
  if (hipError_t e = rocref::hip::module_program(m.get(), &program); e != hipSuccess) return e;
  for (const rocref::hip::CodeObjectKernel& k : contents.kernels) {
    auto f = std::make_unique<ihipModuleSymbol_t>();
    f->name = k.name;
    f->module = m.get();
    f->static_shared = k.group_segment;
    if (const rocref::clr::KernelInfo* info = program->kernel(k.name); info != nullptr) {
      f->max_threads = info->max_flat_workgroup_size;
    }
    m->kernels.push_back(std::move(f));
  }
  for (const rocref::hip::CodeObjectGlobal& g : contents.globals) {
    ihipModule_t::Global global{g.name, nullptr, g.size};
    if (!program->variable(g.name, &global.device, &global.size)) continue;  // not exported by the image
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
  delete module;  // its program: the executable and the image's memory
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
  // `extra`: HIP_LAUNCH_PARAM_BUFFER_POINTER, the explicit arguments at their offsets,
  // HIP_LAUNCH_PARAM_BUFFER_SIZE, a pointer to its size, HIP_LAUNCH_PARAM_END.
  const void* packed = nullptr;
  size_t packed_size = 0;
  if (extra != nullptr) {
    for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
        packed = extra[i + 1];
      } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1] != nullptr) {
        packed_size = *static_cast<const size_t*>(extra[i + 1]);
      } else {
        return result(hipErrorInvalidValue);
      }
    }
    if (packed == nullptr) return result(hipErrorInvalidValue);
  }
  return result(rocref::hip::launch_function(*f, dim3(gridDimX, gridDimY, gridDimZ),
                                             dim3(blockDimX, blockDimY, blockDimZ), kernelParams, sharedMemBytes,
                                             stream, packed, packed_size));
}
