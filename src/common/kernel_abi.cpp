// common/kernel_abi.cpp - kernel table and the current work-item (see kernel_abi.h).
#include "common/kernel_abi.h"

#include <dlfcn.h>

#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>

namespace rocref::kernel_abi {
namespace {

thread_local const WorkItemContext* t_current = nullptr;
const WorkItemContext kNoWorkItem{};
thread_local BarrierHook t_barrier = nullptr;

// This copy's state and operations. Only the process's first table is used.
struct KernelTable {
  std::mutex mutex;
  std::deque<RegisteredKernel> kernels;  // id = index + 1; deque keeps references stable
  std::map<uint64_t, RegisteredKernel> fixed;  // ids >= kFixedKernelIdBase; map nodes are stable too
  const WorkItemContext* (*current)() noexcept = []() noexcept { return t_current; };
  void (*set_current)(const WorkItemContext*) noexcept = [](const WorkItemContext* c) noexcept { t_current = c; };
  BarrierHook (*barrier)() noexcept = []() noexcept { return t_barrier; };
  void (*set_barrier)(BarrierHook) noexcept = [](BarrierHook hook) noexcept { t_barrier = hook; };
};

}  // namespace
}  // namespace rocref::kernel_abi

// Exported (the shared libraries' version scripts list it): the dynamic linker
// returns the first one loaded, the interposer's when it is preloaded.
extern "C" __attribute__((visibility("default"))) void* rocref_kernel_table_v1() {
  static rocref::kernel_abi::KernelTable table;
  return &table;
}

namespace rocref::kernel_abi {
namespace {

KernelTable& table() noexcept {
  static KernelTable* const chosen = [] {
    auto* first = reinterpret_cast<void* (*)()>(dlsym(RTLD_DEFAULT, "rocref_kernel_table_v1"));
    return static_cast<KernelTable*>(first != nullptr ? first() : rocref_kernel_table_v1());
  }();
  return *chosen;
}

}  // namespace

const WorkItemContext& current() noexcept {
  const WorkItemContext* c = table().current();
  return c ? *c : kNoWorkItem;
}
void set_current(const WorkItemContext* context) noexcept { table().set_current(context); }

void* device_pointer(uint64_t va, uint64_t size, bool write) noexcept {
  const DeviceMemory& memory = current().memory;
  return memory.translate != nullptr ? memory.translate(memory.context, va, size, write) : nullptr;
}

void set_barrier_hook(BarrierHook hook) noexcept { table().set_barrier(hook); }
void work_group_barrier() {
  BarrierHook hook = table().barrier();
  if (hook == nullptr) throw std::logic_error("work-group barrier outside a work-group executor");
  hook();
}

uint64_t register_kernel(std::string name, KernelEntry entry) {
  KernelTable& t = table();
  std::lock_guard lock(t.mutex);
  t.kernels.push_back(RegisteredKernel{std::move(name), entry});
  return t.kernels.size();
}

uint64_t register_fixed_kernel(uint64_t id, std::string name, KernelEntry entry) {
  KernelTable& t = table();
  std::lock_guard lock(t.mutex);
  t.fixed.try_emplace(id, RegisteredKernel{std::move(name), entry});
  return id;
}

const RegisteredKernel* find_kernel(uint64_t id) noexcept {
  KernelTable& t = table();
  std::lock_guard lock(t.mutex);
  if (id >= kFixedKernelIdBase) {
    auto it = t.fixed.find(id);
    return it == t.fixed.end() ? nullptr : &it->second;
  }
  if (id == 0 || id > t.kernels.size()) return nullptr;
  return &t.kernels[id - 1];
}

}  // namespace rocref::kernel_abi
