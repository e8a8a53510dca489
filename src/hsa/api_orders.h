// hsa/api_orders.h - the memory-order suffixes hsa.h gives read-modify-write calls.
//
// hsa.h declares each queue and signal read-modify-write once per order, under
// the 1.2 names (scacq_screl, scacquire, screlease) and the older ones
// (acq_rel, acquire, release). ROCREF_HSA_RMW_ORDERS(MACRO) expands
// MACRO(suffix, rocref::MemoryOrder) for each of them.
#pragma once

#include "common/memory_order.h"

#define ROCREF_HSA_RMW_ORDERS(MACRO)              \
  MACRO(scacq_screl, ::rocref::MemoryOrder::AcqRel) \
  MACRO(acq_rel, ::rocref::MemoryOrder::AcqRel)     \
  MACRO(scacquire, ::rocref::MemoryOrder::Acquire)  \
  MACRO(acquire, ::rocref::MemoryOrder::Acquire)    \
  MACRO(relaxed, ::rocref::MemoryOrder::Relaxed)    \
  MACRO(screlease, ::rocref::MemoryOrder::Release)  \
  MACRO(release, ::rocref::MemoryOrder::Release)
