// consumer/main.cpp - uses each exported piece once: the KFD model answers an ioctl, the
// AQL model explores a small configuration, and the drop-in HSA runtime finds the model's GPU.
#include <hsa/hsa.h>
#include <linux/kfd_ioctl.h>

#include <cstdio>

#include "common/aql_packet.h"
#include "kfd/kfd_device.h"
#include "models/explore.h"

static_assert(rocref::aql::kPacketBytes == sizeof(hsa_kernel_dispatch_packet_t));

int main() {
  auto& kfd = rocref::kfd::KfdDevice::instance();
  const int fd = kfd.open_kfd();
  kfd_ioctl_get_version_args version{};
  if (fd < 0 || kfd.ioctl(fd, AMDKFD_IOC_GET_VERSION, &version) != 0 || version.major_version != 1) {
    std::fprintf(stderr, "consumer: KFD model GET_VERSION failed\n");
    return 1;
  }
  rocref::model::AqlConfig config;
  config.producers = 1;
  config.packets_per_producer = 1;
  if (rocref::model::explore(config, 16).counterexample) {
    std::fprintf(stderr, "consumer: AQL model reports a violation\n");
    return 1;
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  int gpus = 0;
  hsa_iterate_agents(
      [](hsa_agent_t agent, void* data) {
        hsa_device_type_t type;
        if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
            type == HSA_DEVICE_TYPE_GPU)
          ++*static_cast<int*>(data);
        return HSA_STATUS_SUCCESS;
      },
      &gpus);
  hsa_shut_down();
  std::printf("consumer: kfd %u.%u, gpus %d\n", version.major_version, version.minor_version, gpus);
  return gpus >= 1 ? 0 : 1;
}
