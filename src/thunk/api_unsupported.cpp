// thunk/api_unsupported.cpp - hsaKmt calls ROCR links that need what the KFD model lacks.
//
// Graphics interop (a dma-buf of another driver) is beyond this model. It answers
// NOT_SUPPORTED after the usual checks, which ROCR reports as an error of the
// feature and otherwise carries on. (IPC sharing: api_ipc.cpp.)
#include "thunk/hsakmt_api.h"  // first: exports the hsaKmt* declarations

#include "thunk/api_guard.h"

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterGraphicsHandleToNodes(HSAuint64 GraphicsResourceHandle,
                                                            HsaGraphicsResourceInfo* GraphicsResourceInfo,
                                                            HSAuint64 NumberOfNodes, HSAuint32* NodeArray) {
  (void)GraphicsResourceHandle;
  (void)NumberOfNodes;
  (void)NodeArray;
  ROCREF_THUNK_LOCK_OPEN(p);
  if (!GraphicsResourceInfo) return HSAKMT_STATUS_INVALID_PARAMETER;
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

}  // extern "C"
