// hip/hip_peer.cpp - peer access and peer copies (HIP-PEER-1..3).
//
// Two distinct GPUs are peers when one's agent may be given access to the
// other's device pool (HSA's agent-pool access, as ROCclr finds its P2P
// devices); a device is no peer of itself (hipDeviceCanAccessPeer gives 0,
// enabling access to it is hipErrorInvalidDevice, as hipamd 5.2.3). Enabling
// access maps the peer's device allocations, made so far and later, into the
// current device's VM (clr::Device::allow_peer). Peer copies are
// device-to-device copies; between devices no one GPU reaches they go
// through system memory (hip_memory.cpp).
#include <hsa/hsa_ext_amd.h>

#include <mutex>
#include <set>
#include <utility>

#include "hip/hip_memory_ops.h"
#include "hip/hip_mutant.h"
#include "hip/hip_state.h"

using rocref::hip::result;

namespace {

hipError_t ready() {
  const auto d = rocref::hip::device();
  return d ? hipSuccess : d.error();
}

// hipamd's canAccessPeer: 0 for the device itself, hipErrorInvalidDevice out of range.
hipError_t can_access(int* can, int device, int peer) {
  if (device == peer) {  // checked before the range, as hipamd
    *can = 0;
    return hipSuccess;
  }
  if (!rocref::hip::valid_device(device) || !rocref::hip::valid_device(peer)) return hipErrorInvalidDevice;
  rocref::clr::Device* d = rocref::clr::Device::get(device);
  rocref::clr::Device* p = rocref::clr::Device::get(peer);
  if (d == nullptr || p == nullptr) return hipErrorInvalidDevice;
  hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  if (hsa_amd_agent_memory_pool_get_info(d->gpu(), p->device_pool(), HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access) !=
      HSA_STATUS_SUCCESS) {
    access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  }
  *can = access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED ? 1 : 0;
  return hipSuccess;
}

// The (device, peer) pairs with access enabled: process-wide, as a device's peer list in hipamd.
std::mutex g_mutex;
std::set<std::pair<int, int>> g_enabled;

bool valid_pair(int device, int peer) {
  int can = 0;
  return can_access(&can, device, peer) == hipSuccess && can == 1;
}

}  // namespace

hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId) {
  if (canAccessPeer == nullptr) return result(hipErrorInvalidValue);
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  return result(can_access(canAccessPeer, deviceId, peerDeviceId));
}

hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  if (flags != 0) return result(hipErrorInvalidValue);
  const int current = rocref::hip::current_device();
  if (!valid_pair(current, peerDeviceId)) return result(hipErrorInvalidDevice);
  std::lock_guard lock(g_mutex);
  if (g_enabled.count({current, peerDeviceId}) != 0 &&
      !rocref::hip::hip_mutant_active(rocref::hip::HipMutant::PeerAccessReenabled)) {
    return result(hipErrorPeerAccessAlreadyEnabled);
  }
  // HIP-PEER-2: the peer's memory, existing and future, is mapped into the current device's VM.
  if (!rocref::hip::hip_mutant_active(rocref::hip::HipMutant::EnablePeerAccessSkipsMapping)) {
    rocref::clr::Device* peer = rocref::clr::Device::get(peerDeviceId);
    if (hsa_status_t s = peer->allow_peer(*rocref::clr::Device::get(current)); s != HSA_STATUS_SUCCESS) {
      return result(rocref::hip::from_hsa(s));
    }
  }
  g_enabled.insert({current, peerDeviceId});
  return hipSuccess;
}

hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
  if (hipError_t e = ready(); e != hipSuccess) return result(e);
  const int current = rocref::hip::current_device();
  if (!valid_pair(current, peerDeviceId)) return result(hipErrorInvalidDevice);
  std::lock_guard lock(g_mutex);
  if (g_enabled.erase({current, peerDeviceId}) == 0) return result(hipErrorPeerAccessNotEnabled);
  rocref::clr::Device::get(peerDeviceId)->forbid_peer(*rocref::clr::Device::get(current));
  return hipSuccess;
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
    case hipDevP2PAttrAccessSupported:
    case hipDevP2PAttrHipArrayAccessSupported:  // same ISA on both: as access (hipamd)
      return result(can_access(value, srcDevice, dstDevice));
    case hipDevP2PAttrPerformanceRank:
    case hipDevP2PAttrNativeAtomicSupported:
      // hipamd reads the link's type here; the model's links report none.
      *value = 0;
      return hipSuccess;
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
