# cmake/Layers.cmake: the layering of src/, enforced by include paths.
#
# No target of src/ has src/ or the repository root on its include path. A layer's targets see
# include roots of the build tree instead, each a folder holding one link (<layer> -> src/<layer>),
# so `#include "hsa/runtime.h"` from a layer not allowed src/hsa finds no such file.
# ROCREF_LAYER_<layer> lists the roots a layer's targets carry (PUBLIC: what its sources and
# headers include); the layers a folder reaches only from its sources come through a PRIVATE
# link instead (the thunk's in-process transport: rocref_kfd). Each folder README's
# "May include" names these layers: check_layer_includes (tests/check/layering) shows the
# roots refuse the rest, check_readmes (tests/check/readmes) that the READMEs name them.
# tests/, proofs/ and bench/ keep ROCREF_INCLUDE_DIRS (src/ and the repository root).
set(ROCREF_LAYER_common  common)
set(ROCREF_LAYER_gpu     gpu common)
set(ROCREF_LAYER_kfd     kfd gpu common)
set(ROCREF_LAYER_thunk   thunk common)
set(ROCREF_LAYER_hsa     hsa common)
set(ROCREF_LAYER_clr     clr common)
set(ROCREF_LAYER_hip     hip clr common)
set(ROCREF_LAYER_preload preload)
set(ROCREF_LAYER_cli     cli common gpu kfd thunk hsa clr hip)
set(ROCREF_LAYER_models  models)

set(ROCREF_LAYER_ROOT_DIR ${CMAKE_BINARY_DIR}/layer-roots)

# rocref_layer_roots(OUT layer): the include roots of `layer`'s targets.
function(rocref_layer_roots out layer)
  if(NOT DEFINED ROCREF_LAYER_${layer})
    message(FATAL_ERROR "cmake/Layers.cmake: no rule for layer '${layer}'")
  endif()
  set(roots "")
  foreach(seen ${ROCREF_LAYER_${layer}})
    set(source ${CMAKE_SOURCE_DIR}/src/${seen})
    if(seen STREQUAL "models")
      set(source ${CMAKE_SOURCE_DIR}/models)
    endif()
    set(root ${ROCREF_LAYER_ROOT_DIR}/${seen})
    if(NOT EXISTS ${root}/${seen})
      file(MAKE_DIRECTORY ${root})
      file(CREATE_LINK ${source} ${root}/${seen} SYMBOLIC)
    endif()
    list(APPEND roots ${root})
  endforeach()
  set(${out} ${roots} PARENT_SCOPE)
endfunction()
