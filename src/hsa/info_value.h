// hsa/info_value.h - how every *_get_info call answers: the attribute's value copied into the
// caller's buffer, whose size the attribute implies (the HSA API passes it as void*).
#pragma once

#include <hsa/hsa.h>

#include <cstring>

namespace rocref::hsa {

template <typename T>
hsa_status_t put_info(void* out, T value) {
  std::memcpy(out, &value, sizeof value);
  return HSA_STATUS_SUCCESS;
}

}  // namespace rocref::hsa
