// thunk/process.h - the state of an open thunk: one KFD process context and what it holds.
//
// One instance per library, like libhsakmt's globals. Public hsaKmt* calls lock
// `mutex` for their whole body except blocking waits; helpers named *_locked
// expect it held.
#pragma once

#include <hsakmt.h>
#include <linux/kfd_ioctl.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <vector>

#include "thunk/topology.h"
#include "thunk/transport.h"

namespace rocref::thunk {

inline constexpr uint64_t kPageSize = 4096;
inline constexpr uint64_t kDoorbellPageBytes = 8192;  // 1024 doorbells of 8 bytes (gfx9+)
inline constexpr uint32_t kEventLimit = KFD_SIGNAL_EVENT_LIMIT;  // 4096 slots of 8 bytes
// GPU VA == CPU VA needs a GPUVM aperture reaching the top of the 47-bit user space.
inline constexpr uint64_t kMmapApertureMinLimit = (uint64_t{1} << 47) - 1;
inline constexpr uint64_t kMaxUserVa = uint64_t{1} << 47;  // x86-64 4-level user address space

enum class MemKind { Vram, Gtt, Userptr, Doorbell, MmioRemap };

struct Allocation {
  void* address = nullptr;
  uint64_t size = 0;
  uint64_t handle = 0;
  uint32_t node = 0;
  MemKind kind = MemKind::Vram;
  bool from_register = false;             // made by hsaKmtRegisterMemory*
  bool imported = false;                  // made by hsaKmtRegisterSharedHandle*: Deregister frees it
  uint32_t registrations = 0;             // userptr: RegisterMemory count
  void* user_address = nullptr;           // userptr: the pointer registered (address is its page)
  uint64_t user_size = 0;                 // userptr: the bytes registered (size covers whole pages)
  std::vector<uint32_t> registered_gpus;  // RegisterMemoryToNodes
  std::vector<uint32_t> mapped_gpus;      // gpu_ids it is mapped on
  uint32_t map_count = 0;                 // userptr: nested MapMemoryToGPU
  HsaMemFlags flags{};                    // as allocated (hsaKmtQueryPointerInfo)
  void* user_data = nullptr;              // hsaKmtSetMemoryUserData
  std::vector<uint32_t> node_scratch[2];  // node ids handed out by QueryPointerInfo (registered, mapped)
};

struct GpuNode {
  uint32_t node_id = 0;
  uint32_t gpu_id = 0;
  int render_fd = -1;
  kfd_process_device_apertures apertures{};
  void* mmio_page = nullptr;      // HDP flush registers (MMIO_REMAP), mapped at open
  void* doorbell_page = nullptr;  // mapped at the first queue of this node
  // Scratch backing (SET_SCRATCH_BACKING_VA): a reserved range; buffers appear in it when mapped.
  void* scratch_base = nullptr;
  uint64_t scratch_size = 0;
  std::map<uintptr_t, Allocation> scratch_objects;
};

struct QueueRecord {
  uint32_t queue_id = 0;
  uint32_t node = 0;
  void* eop = nullptr;
  void* ctx_save = nullptr;
  void* pointers = nullptr;  // read/write pointers of non-AQL queues
  uint32_t cu_mask_bits = 0;
};

struct Process {
  std::mutex mutex;
  Transport* transport = nullptr;
  int kfd_fd = -1;
  uint32_t open_count = 0;
  HsaVersionInfo version{};
  Topology topology;                 // read at open
  bool snapshot_acquired = false;    // between Acquire/ReleaseSystemProperties
  std::map<uint32_t, GpuNode> gpus;  // by node id
  std::vector<uint32_t> all_gpu_ids;
  std::map<uintptr_t, Allocation> allocations;  // by start address
  std::map<HSA_QUEUEID, std::unique_ptr<QueueRecord>> queues;
  std::set<HsaEvent*> events;
  uint64_t* events_page = nullptr;
  int32_t xnack = -1;

  bool is_open() const { return open_count > 0; }
  // Node id -> gpu_id (0 for a CPU node); INVALID_NODE_UNIT past the last node.
  HSAKMT_STATUS validate_node(uint32_t node, uint32_t* gpu_id) const;
  const GpuNode* gpu(uint32_t node) const;
  std::optional<uint32_t> node_of_gpu_id(uint32_t gpu_id) const;
  // The allocation containing address (start <= address < start + size).
  Allocation* find_allocation(const void* address);
};

Process& process();

// KFD queue priority for HSA_QUEUE_PRIORITY -3..3, as libhsakmt maps it.
uint32_t kfd_priority(HSA_QUEUE_PRIORITY priority);

}  // namespace rocref::thunk
