// tests/unit/hip/peer_mapping_test.cpp - HIP-PEER-2 below the API: hipDeviceEnablePeerAccess maps
// the peer's device memory, made before and after, into the current device's GPU VM, read from the
// KFD model's page tables (the model's kernels run on host addresses, so bytes alone cannot show it).
#include <gtest/gtest.h>
#include <hip/hip_runtime.h>
#include <hsa/hsa_ext_amd.h>

#include <cstdint>

#include "clr/device.h"
#include "gpu/vm/pte.h"
#include "kfd/kfd_device.h"

namespace {

// The KFD model's index of HIP device `device` (its agent's node, less the CPU's node 0).
uint32_t gpu_index(int device) {
  uint32_t node = 0;
  hsa_agent_get_info(rocref::clr::Device::get(device)->gpu(),
                     static_cast<hsa_agent_info_t>(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID), &node);
  return node - 1;
}

bool mapped(const void* p, int device) {
  return (rocref::kfd::KfdDevice::instance().gpuvm_pte(reinterpret_cast<uintptr_t>(p), gpu_index(device)) &
          rocref::gpu::vm::kPteValid) != 0;
}

void* allocate_on(int device) {
  void* p = nullptr;
  EXPECT_EQ(hipSetDevice(device), hipSuccess);
  EXPECT_EQ(hipMalloc(&p, 3 * 4096), hipSuccess);
  return p;
}

TEST(HipPeerMapping, HIP_PEER_2_EnableMapsThePeersMemoryIntoTheCurrentDevice) {
  int count = 0;
  ASSERT_EQ(hipGetDeviceCount(&count), hipSuccess);
  ASSERT_GE(count, 2) << "run with ROCREF_GPUS=2";
  void* before = allocate_on(1);
  EXPECT_TRUE(mapped(before, 1));
  EXPECT_FALSE(mapped(before, 0)) << "device memory is in its own GPU's VM only";
  ASSERT_EQ(hipSetDevice(0), hipSuccess);
  ASSERT_EQ(hipDeviceEnablePeerAccess(1, 0), hipSuccess);
  EXPECT_TRUE(mapped(before, 0)) << "an allocation made before access was enabled";
  void* after = allocate_on(1);
  EXPECT_TRUE(mapped(after, 0)) << "an allocation made after access was enabled";
  void* own = allocate_on(0);
  EXPECT_FALSE(mapped(own, 1)) << "access is one way: device 1 did not enable it";
  ASSERT_EQ(hipSetDevice(0), hipSuccess);
  ASSERT_EQ(hipDeviceDisablePeerAccess(1), hipSuccess);
  void* later = allocate_on(1);
  EXPECT_FALSE(mapped(later, 0)) << "disabled: later allocations stay out";
  for (void* p : {before, after, own, later}) EXPECT_EQ(hipFree(p), hipSuccess);
  EXPECT_EQ(hipSetDevice(0), hipSuccess);
}

}  // namespace
