// preload/model_open.h - opening a model device: a model descriptor behind a real memfd.
#pragma once

#include "preload/path_map.h"

namespace rocref::preload {

// For PathKind::Kfd or Render: the real descriptor standing for a new model descriptor,
// or -1 with errno set to what the model answered (PRE-OPEN-1).
int open_model_device(const ResolvedPath& where, int flags) noexcept;

}  // namespace rocref::preload
