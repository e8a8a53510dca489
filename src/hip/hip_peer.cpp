// hip/hip_peer.cpp - peer access and peer copies (HIP-PEER-1).
//
// The KFD model presents one GPU, so no device has a peer: a device is not
// its own peer (hipDeviceCanAccessPeer gives 0, enabling access to itself is
// hipErrorInvalidDevice, as hipamd 5.2.3), and peer copies between device 0
// and itself are device-to-device copies.
#include "hip/hip_memory_ops.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

hipError_t ready() {
  const auto d = rocref::hip::device();
  return d ? hipSuccess : d.error();
}

}  // namespace

hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId) {
  if (canAccessPeer == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(deviceId) || !rocref::hip::valid_device(peerDeviceId)) {
    return result(hipErrorInvalidDevice);
  }
  *canAccessPeer = 0;  // the only other device there could be is the device itself
  return hipSuccess;
}

hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (flags != 0) return result(hipErrorInvalidValue);
  // No peer is accessible: the device itself and unknown ordinals alike.
  return result(hipErrorInvalidDevice);
  (void)peerDeviceId;
}

hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(peerDeviceId) || peerDeviceId == rocref::hip::current_device()) {
    return result(hipErrorInvalidDevice);
  }
  return result(hipErrorPeerAccessNotEnabled);
}

hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId, size_t sizeBytes) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(dstDeviceId) || !rocref::hip::valid_device(srcDeviceId)) {
    return result(hipErrorInvalidDevice);
  }
  return result(rocref::hip::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, nullptr, false));
}

hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice, size_t sizeBytes,
                              hipStream_t stream) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(dstDeviceId) || !rocref::hip::valid_device(srcDevice)) {
    return result(hipErrorInvalidDevice);
  }
  return result(rocref::hip::copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, true));
}

hipError_t hipDeviceGetP2PAttribute(int* value, hipDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  if (value == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(srcDevice) || !rocref::hip::valid_device(dstDevice)) {
    return result(hipErrorInvalidDevice);
  }
  if (srcDevice == dstDevice) return result(hipErrorInvalidDevice);  // hipamd: a device is no peer of itself
  switch (attr) {
    case hipDevP2PAttrPerformanceRank: case hipDevP2PAttrAccessSupported: case hipDevP2PAttrNativeAtomicSupported:
    case hipDevP2PAttrHipArrayAccessSupported: *value = 0; return hipSuccess;
    default: return result(hipErrorInvalidValue);
  }
}

hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t* linktype, uint32_t* hopcount) {
  if (linktype == nullptr || hopcount == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (!rocref::hip::valid_device(device1) || !rocref::hip::valid_device(device2) || device1 == device2) {
    return result(hipErrorInvalidDevice);
  }
  return result(hipErrorInvalidDevice);
}
