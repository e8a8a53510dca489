// common/mutant_switch.h - the one switchboard behind every layer's planted bugs.
//
// Each layer keeps its own enum (common/mutant.h, clr/clr_mutant.h, hsa/hsa_mutant.h,
// hip/hip_mutant.h, kfd/kfd_mutant.h, gpu/vm/vm_mutant.h, gpu/sdma/sdma_mutant.h,
// gpu/isa/isa_mutant.h), ending in kCount, so adding a bug is one enum line (plus its name
// where the layer names them). Its test-only library holds one MutantSwitchboard<Enum>; the
// normal libraries compile none of it.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>

namespace rocref {

// One on/off flag per planted bug. Loads are relaxed: a test switches a mutant before it
// starts the threads that read it, and thread creation orders the two.
template <typename E>
class MutantSwitchboard {
 public:
  static constexpr std::size_t kSize = static_cast<std::size_t>(E::kCount);

  bool active(E m) const noexcept {
    const auto i = static_cast<std::size_t>(m);
    return i < kSize && on_[i].load(std::memory_order_relaxed);
  }
  void set(E m, bool on) noexcept {
    const auto i = static_cast<std::size_t>(m);
    if (i < kSize) on_[i].store(on);
  }

 private:
  std::array<std::atomic<bool>, kSize> on_{};
};

// The value whose name (names[value]) is `name`; names lists the values in enum order.
template <typename E, typename Names>
std::optional<E> mutant_named(const Names& names, std::string_view name) noexcept {
  for (std::size_t i = 0; i < std::size(names) && i < MutantSwitchboard<E>::kSize; ++i) {
    if (std::string_view(names[i]) == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

// Switches one mutant on for a scope, through the layer's setter (set_clr_mutant, ...).
template <typename E, void (*Set)(E, bool) noexcept>
class ScopedMutantSwitch {
 public:
  explicit ScopedMutantSwitch(E m) : m_(m) { Set(m_, true); }
  ~ScopedMutantSwitch() { Set(m_, false); }
  ScopedMutantSwitch(const ScopedMutantSwitch&) = delete;
  ScopedMutantSwitch& operator=(const ScopedMutantSwitch&) = delete;

 private:
  E m_;
};

}  // namespace rocref
