// common/memory_order.h - the HSA API's memory orders, mapped onto C++ ones.
//
// hsa.h names them relaxed, scacquire, screlease and scacq_screl (the older
// acquire/release/acq_rel spellings are the same orders). The HSA functions
// carry the order in their names; the core takes it as a value.
#pragma once

#include <atomic>

namespace rocref {

enum class MemoryOrder { Relaxed, Acquire, Release, AcqRel };

// A load cannot release and a store cannot acquire: C++ forbids those orders,
// so they collapse to the strongest order the operation can carry.
constexpr std::memory_order load_order(MemoryOrder order) noexcept {
  return order == MemoryOrder::Relaxed || order == MemoryOrder::Release
             ? std::memory_order_relaxed
             : std::memory_order_acquire;
}

constexpr std::memory_order store_order(MemoryOrder order) noexcept {
  return order == MemoryOrder::Relaxed || order == MemoryOrder::Acquire
             ? std::memory_order_relaxed
             : std::memory_order_release;
}

constexpr std::memory_order rmw_order(MemoryOrder order) noexcept {
  switch (order) {
    case MemoryOrder::Relaxed: return std::memory_order_relaxed;
    case MemoryOrder::Acquire: return std::memory_order_acquire;
    case MemoryOrder::Release: return std::memory_order_release;
    case MemoryOrder::AcqRel: return std::memory_order_acq_rel;
  }
  return std::memory_order_seq_cst;
}

// std::atomic_ref over a field that the real ABI declares volatile.
template <typename T>
std::atomic_ref<T> atomic_field(volatile T& field) noexcept {
  return std::atomic_ref<T>(const_cast<T&>(field));
}

}  // namespace rocref
