// thunk/hsakmt_ext.h - hsaKmt calls added after libhsakmt 5.2.3 that this thunk also exports.
//
// Signatures as in later ROCT-Thunk-Interface releases, so a runtime built
// against newer headers finds them. event_age (one per event) carries KFD event
// ages in and out: a wait returns at once when an event's age moved past the age
// the caller saw, which closes the check-then-sleep lost wake-up (EVT-AGE-1).
#pragma once

#include <hsakmt.h>

#include <cstdint>

#pragma GCC visibility push(default)
extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtAvailableMemory(HSAuint32 Node, HSAuint64* AvailableBytes);
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent_Ext(HsaEvent* Event, HSAuint32 Milliseconds, uint64_t* event_age);
HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents_Ext(HsaEvent* Events[], HSAuint32 NumEvents, bool WaitOnAll,
                                                       HSAuint32 Milliseconds, uint64_t* event_age);
}
#pragma GCC visibility pop
