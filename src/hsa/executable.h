// hsa/executable.h - the code-object loader: readers, executables and their symbols (HSA-LOAD-*).
//
// ROCR's loader role for the gfx9 code objects hipcc writes (ELF64, EM_AMDGPU, ET_DYN, code
// object v3/v4). Loading an agent code object checks the whole image first (headers, segments,
// symbols, dynamic relocations, the target ISA), then places its PT_LOAD segments in one
// allocation of the agent's device-local pool at their relative addresses (PC-relative code,
// `.kd` descriptors and data keep their distances), applies the dynamic relocations and
// records its symbols: a kernel's object is load base + value of `<kernel>.kd`. A refused
// image leaves the executable as it was.
#pragma once

#include <hsa/hsa.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rocref::hsa {

class Agent;
class Runtime;

// hsa_code_object_reader_t: the caller's bytes, copied (ROCR keeps a pointer; a copy outlives nothing).
struct CodeObjectReader {
  std::vector<uint8_t> bytes;
  std::string uri;  // ROCR's "memory://PID#offset=0x<caller's address>&size=N"
};

struct ExecutableSymbol {
  std::string name;  // the ELF name: "<kernel>.kd" for kernels, the variable's name otherwise
  hsa_symbol_kind_t kind = HSA_SYMBOL_KIND_VARIABLE;
  Agent* agent = nullptr;  // null: a program variable the application defined
  uint64_t address = 0;    // kernel object, or the variable's address
  uint64_t size = 0;     // variables: st_size
  // Kernels: from the metadata note (kernarg) and the descriptor (segments).
  uint32_t kernarg_size = 0;
  uint32_t kernarg_align = 16;
  uint32_t group_segment_size = 0;
  uint32_t private_segment_size = 0;
  bool dynamic_call_stack = false;
};

class Executable;

// hsa_loaded_code_object_t: one agent code object placed by a load (HSA-EXT-2). ROCR keeps
// a host copy of every placed segment for hsa_ven_amd_loader_query_host_address; so do we.
struct LoadedCodeObject {
  Executable* owner = nullptr;
  Agent* agent = nullptr;
  std::vector<uint8_t> elf;        // the image as loaded (code_object_storage_base/size)
  uint64_t storage_offset = 0;     // file offset of the first PT_LOAD
  uint64_t load_base = 0;          // device address of image address 0
  uint64_t load_size = 0;          // the span of the PT_LOAD segments
  std::vector<uint8_t> host_copy;  // the relocated segment bytes, as placed
  std::string uri;
};

class Executable {
 public:
  explicit Executable(hsa_profile_t profile) : profile_(profile) {}
  ~Executable();
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  hsa_profile_t profile() const { return profile_; }
  bool frozen() const;
  // hsa_executable_load_agent_code_object: INVALID_CODE_OBJECT for a malformed image or an
  // unknown relocation, INCOMPATIBLE_ARGUMENTS for another ISA, VARIABLE_UNDEFINED for an
  // unresolved symbol, FROZEN_EXECUTABLE after freeze.
  hsa_status_t load(Runtime& runtime, Agent& agent, const CodeObjectReader& reader, LoadedCodeObject** loaded);
  hsa_status_t freeze();
  // hsa_executable_(agent_)global_variable_define, _readonly_variable_define: an external
  // variable, for one agent or (agent null) the program, that later loads resolve their
  // undefined relocations against (FROZEN_EXECUTABLE, VARIABLE_ALREADY_DEFINED).
  hsa_status_t define_variable(const std::string& name, Agent* agent, uint64_t address);
  // By ELF name: for `agent`, or (agent null) among program variables only, as ROCR; nullptr when absent.
  const ExecutableSymbol* find(const std::string& name, const Agent* agent) const;
  std::vector<const ExecutableSymbol*> symbols() const;
  bool owns(const ExecutableSymbol* symbol) const;

  // The loader extension (hsa_ven_amd_loader_*): placed code objects, in load order.
  std::vector<const LoadedCodeObject*> loaded_code_objects() const;
  bool owns(const LoadedCodeObject* object) const;
  // The host copy's address of a device address inside a placed segment, or 0.
  uint64_t host_address(uint64_t device_address) const;

 private:
  struct Segment {
    void* allocation = nullptr;  // what Runtime::free takes back
  };
  hsa_profile_t profile_;
  mutable std::mutex mutex_;
  bool frozen_ = false;
  Runtime* runtime_ = nullptr;
  std::vector<Segment> segments_;
  std::vector<std::vector<ExecutableSymbol>> loaded_;  // one list per load, so symbol pointers stay put
  std::vector<std::unique_ptr<ExecutableSymbol>> defined_;  // agent variables the program defined
  std::vector<std::unique_ptr<LoadedCodeObject>> code_objects_;
};

// The gfx name ("gfx900") of an ELF's e_flags machine, empty when unknown.
std::string isa_of_elf_flags(uint32_t e_flags);

}  // namespace rocref::hsa
