// tests/integration_foreign/preload_drm_test.cpp - Debian's libdrm on the model's render node.
//
// libhsakmt and ROCclr name the GPU through libdrm_amdgpu: amdgpu_device_initialize on the render
// node, then amdgpu_get_marketing_name. Runs under `rocref exec` and links no model code
// (KFD-DRM-1, PRE-STAT-2, PRE-FD-2, PRE-FS-5).
#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <xf86drm.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const std::string kNode1 = "/sys/devices/virtual/kfd/kfd/topology/nodes/1/properties";

uint64_t property(const std::string& key) {
  std::ifstream in(kNode1);
  std::string k;
  uint64_t v = 0;
  while (in >> k >> v)
    if (k == key) return v;
  return 0;
}

TEST(ForeignDrm, KFD_DRM_1_LibdrmInitializesTheRenderNodeAndNamesTheGpu) {
  const uint32_t minor = static_cast<uint32_t>(property("drm_render_minor"));
  ASSERT_NE(minor, 0u);
  const int fd = drmOpenRender(static_cast<int>(minor));
  ASSERT_GE(fd, 0) << std::strerror(errno);
  EXPECT_EQ(drmGetNodeTypeFromFd(fd), DRM_NODE_RENDER);
  drmVersionPtr version = drmGetVersion(fd);
  ASSERT_NE(version, nullptr);
  EXPECT_STREQ(version->name, "amdgpu");
  EXPECT_EQ(version->version_major, 3);
  drmFreeVersion(version);

  uint32_t major = 0, minor_version = 0;
  amdgpu_device_handle dev = nullptr;
  ASSERT_EQ(amdgpu_device_initialize(fd, &major, &minor_version, &dev), 0);
  EXPECT_EQ(major, 3u);
  amdgpu_gpu_info info{};
  ASSERT_EQ(amdgpu_query_gpu_info(dev, &info), 0);
  EXPECT_EQ(info.asic_id, property("device_id")) << "DEV_INFO's device id is the topology's";
  EXPECT_EQ(info.family_id, uint32_t(AMDGPU_FAMILY_AI));
  EXPECT_EQ(info.cu_active_number * 4, property("simd_count")) << "four SIMDs per CU";
  EXPECT_EQ(info.num_shader_engines, property("array_count"));
  EXPECT_NE(info.gb_addr_cfg, 0u);
  const char* name = amdgpu_get_marketing_name(dev);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "AMD Radeon Instinct MI25") << "0x6860 revision 0 in libdrm's amdgpu.ids";

  // Queries the model does not answer are amdgpu's errors, not crashes.
  uint32_t regs[2] = {};
  EXPECT_EQ(amdgpu_read_mm_registers(dev, 0x1234, 1, 0xffffffff, 0, regs), -EFAULT) << "a register outside the list";
  drm_amdgpu_info_hw_ip ip{};
  EXPECT_EQ(amdgpu_query_hw_ip_info(dev, AMDGPU_HW_IP_GFX, 0, &ip), -EINVAL);
  EXPECT_EQ(amdgpu_device_deinitialize(dev), 0);
  EXPECT_EQ(close(fd), 0);
}

// KFD-DRM-1: bad arguments get amdgpu's errors and leave the node working.
TEST(ForeignDrm, KFD_DRM_1_BadArgumentsGetAmdgpusErrors) {
  const int fd = drmOpenRender(static_cast<int>(property("drm_render_minor")));
  ASSERT_GE(fd, 0);
  uint32_t out = 0;
  drm_amdgpu_info request{};
  request.return_pointer = reinterpret_cast<uintptr_t>(&out);
  request.query = AMDGPU_INFO_ACCEL_WORKING;
  EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, &request), -1) << "return_size 0";
  EXPECT_EQ(errno, EINVAL);
  request.return_size = sizeof out;
  request.return_pointer = 0;
  EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, &request), -1) << "no return pointer";
  EXPECT_EQ(errno, EINVAL);
  request.return_pointer = 8;  // the first page is never mapped
  EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, &request), -1) << "unwritable return pointer";
  EXPECT_EQ(errno, EFAULT);
  EXPECT_EQ(drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, reinterpret_cast<void*>(8)), -1) << "unreadable argument";
  EXPECT_EQ(errno, EFAULT);
  // VERSION copies at most the caller's length and reports the string's.
  char name[3] = {'x', 'x', 'x'};
  drm_version v{};
  v.name = name;
  v.name_len = 2;
  ASSERT_EQ(drmIoctl(fd, DRM_IOCTL_VERSION, &v), 0);
  EXPECT_EQ(v.name_len, 6u) << "strlen(\"amdgpu\")";
  EXPECT_EQ(std::string(name, 3), "amx");
  request.return_pointer = reinterpret_cast<uintptr_t>(&out);
  ASSERT_EQ(drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, &request), 0) << "the node still answers";
  EXPECT_EQ(out, 1u);
  EXPECT_EQ(close(fd), 0);
}

}  // namespace
