// kfd/kfd_abi.h - the parts of amdkfd's user ABI that live outside linux/kfd_ioctl.h.
//
// mmap offsets (kfd_priv.h: type in bits 63..62, gpu_id in bits 61..46),
// buffer handles (MAKE_HANDLE: gpu_id << 32 | idr id), event id ranges
// (kfd_events.c) and the ioctl request field split of <asm-generic/ioctl.h>.
#pragma once

#include <linux/kfd_ioctl.h>

#include <cstdint>

namespace rocref::kfd {

inline constexpr unsigned kMmapTypeShift = 62;
inline constexpr uint64_t kMmapTypeMask = uint64_t{3} << kMmapTypeShift;
inline constexpr uint64_t kMmapTypeDoorbell = uint64_t{3} << kMmapTypeShift;
inline constexpr uint64_t kMmapTypeEvents = uint64_t{2} << kMmapTypeShift;
inline constexpr uint64_t kMmapTypeReserved = uint64_t{1} << kMmapTypeShift;
inline constexpr uint64_t kMmapTypeMmio = uint64_t{0} << kMmapTypeShift;
inline constexpr unsigned kMmapGpuIdShift = 46;
inline constexpr uint64_t kMmapGpuIdMask = uint64_t{0xffff} << kMmapGpuIdShift;

constexpr uint64_t mmap_gpu_id(uint32_t gpu_id) noexcept { return (uint64_t{gpu_id} << kMmapGpuIdShift) & kMmapGpuIdMask; }
constexpr uint32_t mmap_get_gpu_id(uint64_t off) noexcept { return static_cast<uint32_t>((off & kMmapGpuIdMask) >> kMmapGpuIdShift); }

constexpr uint64_t make_handle(uint32_t gpu_id, uint32_t idr) noexcept { return (uint64_t{gpu_id} << 32) | idr; }
constexpr uint32_t handle_gpu_id(uint64_t h) noexcept { return static_cast<uint32_t>(h >> 32); }
constexpr uint32_t handle_idr(uint64_t h) noexcept { return static_cast<uint32_t>(h & 0xffffffffu); }

// Doorbells (SOC15): one 8 KiB page per process, 1024 doorbells of 8 bytes.
inline constexpr uint64_t kDoorbellProcessSlice = 8192;
inline constexpr uint32_t kDoorbellsPerProcess = 1024;
inline constexpr uint64_t kEventPageSize = KFD_SIGNAL_EVENT_LIMIT * 8;  // 32 KiB of 64-bit slots
inline constexpr uint64_t kUnsignaledEventSlot = ~uint64_t{0};
inline constexpr uint32_t kFirstNonSignalEventId = 0x80000000u;
inline constexpr uint32_t kEventTimeoutInfinite = 0xffffffffu;

// <asm-generic/ioctl.h>: nr bits 0..7, type 8..15, size 16..29, dir 30..31 (1 = write, 2 = read).
constexpr unsigned ioc_nr(unsigned long req) noexcept { return req & 0xff; }
constexpr unsigned ioc_size(unsigned long req) noexcept { return (req >> 16) & 0x3fff; }
constexpr unsigned ioc_dir(unsigned long req) noexcept { return (req >> 30) & 3; }
inline constexpr unsigned kIocWrite = 1;  // user -> kernel (IOC_IN)
inline constexpr unsigned kIocRead = 2;   // kernel -> user (IOC_OUT)

// Event age (KFD 1.14): the first 64 bits of kfd_event_data's union for signal events.
// 1.11 user space zero-fills it (calloc), which means "no age tracking".
struct EventAgeData {
  uint64_t last_event_age;
};

static_assert(sizeof(kfd_ioctl_create_queue_args) == 88, "CREATE_QUEUE layout");
static_assert(offsetof(kfd_ioctl_create_queue_args, queue_id) == 52, "CREATE_QUEUE layout");
static_assert(sizeof(kfd_ioctl_alloc_memory_of_gpu_args) == 40, "ALLOC layout");
static_assert(sizeof(kfd_event_data) == 48 && offsetof(kfd_event_data, event_id) == 40, "event data layout");
static_assert(sizeof(kfd_ioctl_wait_events_args) == 24, "WAIT_EVENTS layout");
static_assert(sizeof(kfd_process_device_apertures) == 56, "apertures layout");

}  // namespace rocref::kfd
