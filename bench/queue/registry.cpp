// bench/queue/registry.cpp - the list of implementations, in table order.
#include "bench/queue/impl.h"

namespace rocref::bench {

const std::vector<ImplInfo>& implementations() {
  static const std::vector<ImplInfo> all = [] {
    std::vector<ImplInfo> v;
    add_dpdk_peers(v);
    add_rocref_cores(v);
    add_rocr_mirror(v);
    add_boost_peers(v);
    add_moodycamel_peers(v);
    add_atomic_queue_peers(v);
    add_tbb_peers(v);
    add_ck_peers(v);
    return v;
  }();
  return all;
}

const ImplInfo* find_implementation(const std::string& name) {
  for (const auto& impl : implementations()) {
    if (impl.name == name) return &impl;
  }
  return nullptr;
}

}  // namespace rocref::bench
