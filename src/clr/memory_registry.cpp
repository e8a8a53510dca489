// clr/memory_registry.cpp - address -> allocation lookups (see memory_registry.h).
#include "clr/memory_registry.h"

namespace rocref::clr {

MemoryRegistry& MemoryRegistry::instance() {
  static MemoryRegistry registry;
  return registry;
}

void MemoryRegistry::add(const Allocation& allocation) {
  std::lock_guard lock(mutex_);
  by_base_[reinterpret_cast<uintptr_t>(allocation.base)] = allocation;
}

std::optional<Allocation> MemoryRegistry::remove(const void* base) {
  std::lock_guard lock(mutex_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return std::nullopt;
  Allocation found = it->second;
  by_base_.erase(it);
  return found;
}

std::optional<Allocation> MemoryRegistry::find(const void* address, size_t size) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  auto it = by_base_.upper_bound(a);
  if (it == by_base_.begin()) return std::nullopt;
  --it;
  const uintptr_t base = it->first;
  const size_t span = size == 0 ? 1 : size;
  if (a - base >= it->second.size || span > it->second.size - (a - base)) return std::nullopt;
  return it->second;
}

bool MemoryRegistry::overlaps(const void* address, size_t size) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const size_t span = size == 0 ? 1 : size;
  std::lock_guard lock(mutex_);
  auto it = by_base_.lower_bound(a);
  if (it != by_base_.end() && it->first - a < span) return true;
  if (it == by_base_.begin()) return false;
  --it;
  return a - it->first < it->second.size;
}

std::vector<Allocation> MemoryRegistry::all() const {
  std::lock_guard lock(mutex_);
  std::vector<Allocation> out;
  out.reserve(by_base_.size());
  for (const auto& [base, allocation] : by_base_) out.push_back(allocation);
  return out;
}

}  // namespace rocref::clr
