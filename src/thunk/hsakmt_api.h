// thunk/hsakmt_api.h - hsakmt.h with its declarations exported from the shared library.
//
// The library builds with hidden visibility; the hsaKmt* declarations (and so
// their definitions) get default visibility here. Include this first in every
// file that defines an hsaKmt* function, before anything that includes hsakmt.h.
#pragma once

#pragma GCC visibility push(default)
#include <hsakmt.h>
#pragma GCC visibility pop
