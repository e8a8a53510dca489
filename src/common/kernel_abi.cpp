// common/kernel_abi.cpp - kernel table and the current work-item (see kernel_abi.h).
#include "common/kernel_abi.h"

#include <deque>
#include <mutex>
#include <stdexcept>

namespace rocref::kernel_abi {
namespace {

thread_local const WorkItemContext* t_current = nullptr;
const WorkItemContext kNoWorkItem{};
thread_local BarrierHook t_barrier = nullptr;

std::mutex g_kernels_mutex;
std::deque<RegisteredKernel> g_kernels;  // id = index + 1; deque keeps references stable

}  // namespace

const WorkItemContext& current() noexcept { return t_current ? *t_current : kNoWorkItem; }
void set_current(const WorkItemContext* context) noexcept { t_current = context; }

void set_barrier_hook(BarrierHook hook) noexcept { t_barrier = hook; }
void work_group_barrier() {
  if (t_barrier == nullptr) throw std::logic_error("work-group barrier outside a work-group executor");
  t_barrier();
}

uint64_t register_kernel(std::string name, KernelEntry entry) {
  std::lock_guard lock(g_kernels_mutex);
  g_kernels.push_back(RegisteredKernel{std::move(name), entry});
  return g_kernels.size();
}

const RegisteredKernel* find_kernel(uint64_t id) noexcept {
  std::lock_guard lock(g_kernels_mutex);
  if (id == 0 || id > g_kernels.size()) return nullptr;
  return &g_kernels[id - 1];
}

}  // namespace rocref::kernel_abi
