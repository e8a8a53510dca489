// common/expected.h - Expected<T, E>: a value or the error that stopped it, in the signature.
//
// The layers' internal calls that can fail return this instead of writing the
// error through an out-parameter (std::expected is C++23; this build is C++20).
// Only what the layers use: construction from a value or from unexpected(e),
// has_value / operator bool, value, error, value_or. Reading the side that is
// not there is a programming error (std::bad_variant_access).
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace rocref {

template <class E>
struct Unexpected {
  E error;
};

// The error side: `return unexpected(HSA_STATUS_ERROR_OUT_OF_RESOURCES);`
template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
  return {std::forward<E>(e)};
}

template <class T, class E>
class [[nodiscard]] Expected {
  static_assert(!std::is_same_v<std::decay_t<T>, std::decay_t<E>>, "value and error need distinct types");

 public:
  template <class U = T, std::enable_if_t<std::is_constructible_v<T, U&&>, int> = 0>
  Expected(U&& value) : v_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT: implicit, as std::expected
  template <class G>
  Expected(Unexpected<G> e) : v_(std::in_place_index<1>, std::move(e.error)) {}  // NOLINT

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  E& error() & { return std::get<1>(v_); }
  const E& error() const& { return std::get<1>(v_); }

  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  T value_or(U&& fallback) && {
    return has_value() ? std::move(value()) : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, E> v_;
};

}  // namespace rocref
