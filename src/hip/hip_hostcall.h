// hip/hip_hostcall.h - the hostcall buffer of code-object kernels and its host listener (HIP-PRINTF-1).
//
// HIP 5.2.3's device libraries implement printf over hostcall: a kernel whose metadata has a
// hidden_hostcall_buffer argument gets, in that kernarg slot, the address of a buffer in
// fine-grained system memory. A wave takes a packet from the buffer's free stack, fills the
// payload of its active lanes, pushes the packet on the ready stack, adds 1 to the doorbell
// signal and spins until the host clears the packet's ready flag. The listener thread here
// serves the ready packets (ROCclr 5.2.3 device/rocm/rochostcall.cpp describes the layout;
// the message and printf services are in hip_hostcall_printf.cpp).
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rocref::clr {
class Device;
struct KernelInfo;
}  // namespace rocref::clr

namespace rocref::hip {

// The services a packet's header names (ROCclr devhcmessages.hpp ServiceID).
enum HostcallService : uint32_t { kServiceFunctionCall = 1, kServicePrintf = 2 };

// Puts the device's hostcall buffer (made, and its listener started, on first use) into the
// kernel's hidden_hostcall_buffer slot of `kernargs`; nothing when the kernel has none.
hipError_t fill_hostcall_buffer(clr::Device& device, const clr::KernelInfo& kernel, std::vector<uint8_t>* kernargs);

// Message assembly over packets (ROCclr MessageHandler): one lane's 8-word payload slot; on the
// message's last packet, the service runs and its result goes to slot[0]. False for an unknown
// message id.
class HostcallMessages {
 public:
  bool handle(uint32_t service, uint64_t* slot);

 private:
  struct Message {
    std::vector<uint64_t> words;
    bool live = false;
  };
  std::vector<Message> messages_;
  std::vector<uint64_t> free_;
};

// The printf service: words[0] is the version (0), then the format string padded to 8 bytes,
// then one word per argument (a %s argument: its bytes padded to 8). Returns the text printf
// prints, or false for a message whose version is not 0.
bool format_printf_message(const uint64_t* words, size_t count, std::string* out);

}  // namespace rocref::hip
