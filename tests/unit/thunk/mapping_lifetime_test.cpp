// tests/unit/thunk/mapping_lifetime_test.cpp - nothing the thunk or the KFD model maps outlives
// hsaKmtCloseKFD (THUNK-OPEN-1).
//
// Each round opens the KFD, makes one kind of resource (or all of them) and closes the KFD with it
// live or freed; the number of mappings of the process (/proc/self/maps lines) must be back to its
// value before the first round, in number and in bytes. Opening once first lets the model's
// device-wide pools (VRAM, GTT, MMIO arenas) and its engine threads come up: they live as long as
// the process, by design.
#include <gtest/gtest.h>
#include <hsakmt.h>
#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <ostream>
#include <string>

namespace {

constexpr uint64_t kPage = 4096;

// The process's mappings: how many, and how many bytes. A leaked reservation next to another of
// the same kind merges with it, so the count alone can miss it; the bytes cannot. The heap and
// the stack are the C library's and grow on their own.
struct Mappings {
  size_t count = 0;
  uint64_t bytes = 0;
  std::string text;  // the lines, for the failure message
  bool operator==(const Mappings& o) const { return count == o.count && bytes == o.bytes; }
};

Mappings mappings() {
  std::ifstream maps("/proc/self/maps");
  Mappings m;
  for (std::string line; std::getline(maps, line);) {
    ++m.count;
    m.text += line + "\n";
    if (line.find("[heap]") != std::string::npos || line.find("[stack]") != std::string::npos) continue;
    const uint64_t start = std::stoull(line.substr(0, line.find('-')), nullptr, 16);
    const uint64_t end = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
    m.bytes += end - start;
  }
  return m;
}

std::ostream& operator<<(std::ostream& out, const Mappings& m) {
  return out << m.count << " mappings, " << m.bytes << " bytes:\n" << m.text;
}

uint32_t gpu_node() {
  HsaSystemProperties sys{};
  if (hsaKmtAcquireSystemProperties(&sys) != HSAKMT_STATUS_SUCCESS) return 0;
  for (uint32_t n = 0; n < sys.NumNodes; ++n) {
    HsaNodeProperties props{};
    if (hsaKmtGetNodeProperties(n, &props) == HSAKMT_STATUS_SUCCESS && props.NumFComputeCores != 0) return n;
  }
  return 0;
}

HsaMemFlags flags(bool non_paged, bool host_access) {
  HsaMemFlags f{};
  f.ui32.NonPaged = non_paged ? 1 : 0;
  f.ui32.HostAccess = host_access ? 1 : 0;
  f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
  return f;
}

enum Use : unsigned {
  kVram = 1u << 0,      // VRAM, host-visible and not, mapped to the GPU
  kGtt = 1u << 1,       // non-paged system memory
  kPaged = 1u << 2,     // paged system memory (a USERPTR buffer under anonymous memory)
  kRegister = 1u << 3,  // caller memory registered and mapped
  kEvent = 1u << 4,     // an event (the events page)
  kQueue = 1u << 5,     // an AQL and an SDMA queue (doorbell page)
  kScratch = 1u << 6,   // scratch backing
  kFree = 1u << 7,      // free everything before closing (else close with it live)
  kAll = (1u << 7) - 1,
};

// One round: open, use, close. ASSERTs end the round early; the close still runs.
void round(unsigned use, uint8_t* caller) {
  ASSERT_EQ(hsaKmtOpenKFD(), HSAKMT_STATUS_SUCCESS);
  struct Closer {
    ~Closer() {
      hsaKmtReleaseSystemProperties();
      hsaKmtCloseKFD();
    }
  } closer;
  const uint32_t node = gpu_node();
  ASSERT_NE(node, 0u);
  const bool free_all = use & kFree;
  auto alloc = [&](uint32_t on, uint64_t size, HsaMemFlags f, bool map) {
    void* mem = nullptr;
    ASSERT_EQ(hsaKmtAllocMemory(on, size, f, &mem), HSAKMT_STATUS_SUCCESS);
    HSAuint64 va = 0;
    if (map) {
      ASSERT_EQ(hsaKmtMapMemoryToGPU(mem, size, &va), HSAKMT_STATUS_SUCCESS);
    }
    if (!free_all) return;
    if (map) {
      ASSERT_EQ(hsaKmtUnmapMemoryToGPU(mem), HSAKMT_STATUS_SUCCESS);
    }
    ASSERT_EQ(hsaKmtFreeMemory(mem, size), HSAKMT_STATUS_SUCCESS);
  };
  if (use & kVram) {
    alloc(node, 16 * kPage, flags(true, true), true);
    alloc(node, 16 * kPage, flags(true, false), true);
  }
  if (use & kGtt) alloc(0, 8 * kPage, flags(true, true), true);
  if (use & kPaged) alloc(0, 8 * kPage, flags(false, true), true);
  if (use & kRegister) {
    ASSERT_EQ(hsaKmtRegisterMemory(caller, 4 * kPage), HSAKMT_STATUS_SUCCESS);
    HSAuint64 va = 0;
    ASSERT_EQ(hsaKmtMapMemoryToGPU(caller, 4 * kPage, &va), HSAKMT_STATUS_SUCCESS);
    if (free_all) {
      ASSERT_EQ(hsaKmtUnmapMemoryToGPU(caller), HSAKMT_STATUS_SUCCESS);
      ASSERT_EQ(hsaKmtDeregisterMemory(caller), HSAKMT_STATUS_SUCCESS);
    }
  }
  if (use & kEvent) {
    HsaEventDescriptor d{};
    d.EventType = HSA_EVENTTYPE_SIGNAL;
    d.NodeId = node;
    d.SyncVar.SyncVar.UserData = nullptr;
    HsaEvent* e = nullptr;
    ASSERT_EQ(hsaKmtCreateEvent(&d, true, false, &e), HSAKMT_STATUS_SUCCESS);
    ASSERT_EQ(hsaKmtSetEvent(e), HSAKMT_STATUS_SUCCESS);
    if (free_all) {
      ASSERT_EQ(hsaKmtDestroyEvent(e), HSAKMT_STATUS_SUCCESS);
    }
  }
  if (use & kQueue) {
    // The ring and the queue's pointers in caller memory registered for the GPU, as ROCR does.
    uint8_t* ring = caller + 4 * kPage;
    ASSERT_EQ(hsaKmtRegisterMemory(ring, 4 * kPage), HSAKMT_STATUS_SUCCESS);
    HSAuint64 va = 0;
    ASSERT_EQ(hsaKmtMapMemoryToGPU(ring, 4 * kPage, &va), HSAKMT_STATUS_SUCCESS);
    // AQL: a one-page ring, then amd_queue_t's fields the driver reads (base @8, size in packets
    // @24; write and read dispatch ids @56 and @128 are the queue's pointers). SDMA: the third page.
    uint8_t* desc = ring + kPage;
    const uint64_t base = reinterpret_cast<uintptr_t>(ring);
    const uint32_t packets = kPage / 64;
    std::memcpy(desc + 8, &base, sizeof base);
    std::memcpy(desc + 24, &packets, sizeof packets);
    HsaQueueResource aql{};
    aql.QueueRptrValue = reinterpret_cast<uintptr_t>(desc + 128);
    aql.QueueWptrValue = reinterpret_cast<uintptr_t>(desc + 56);
    ASSERT_EQ(hsaKmtCreateQueue(node, HSA_QUEUE_COMPUTE_AQL, 100, HSA_QUEUE_PRIORITY_NORMAL, ring, kPage, nullptr,
                                &aql),
              HSAKMT_STATUS_SUCCESS);
    HsaQueueResource sdma{};
    ASSERT_EQ(hsaKmtCreateQueue(node, HSA_QUEUE_SDMA, 100, HSA_QUEUE_PRIORITY_NORMAL, ring + 2 * kPage, kPage, nullptr,
                                &sdma),
              HSAKMT_STATUS_SUCCESS);
    if (free_all) {
      ASSERT_EQ(hsaKmtDestroyQueue(aql.QueueId), HSAKMT_STATUS_SUCCESS);
      ASSERT_EQ(hsaKmtDestroyQueue(sdma.QueueId), HSAKMT_STATUS_SUCCESS);
    }
    if (free_all) {
      ASSERT_EQ(hsaKmtUnmapMemoryToGPU(ring), HSAKMT_STATUS_SUCCESS);
      ASSERT_EQ(hsaKmtDeregisterMemory(ring), HSAKMT_STATUS_SUCCESS);
    }
  }
  if (use & kScratch) {
    HsaMemFlags f = flags(true, false);
    f.ui32.Scratch = 1;
    void* scratch = nullptr;
    ASSERT_EQ(hsaKmtAllocMemory(node, 64 * kPage, f, &scratch), HSAKMT_STATUS_SUCCESS);
    HSAuint64 va = 0;
    ASSERT_EQ(hsaKmtMapMemoryToGPU(scratch, 16 * kPage, &va), HSAKMT_STATUS_SUCCESS);
    if (free_all) {
      ASSERT_EQ(hsaKmtFreeMemory(scratch, 64 * kPage), HSAKMT_STATUS_SUCCESS);
    }
  }
}

TEST(ThunkMappings, THUNK_OPEN_1_CloseLeavesNoMappingBehind) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizers replace malloc with an allocator that maps memory as it grows: its mappings
  // are not the thunk's and cannot be kept out of the count. The plain build runs this test.
  GTEST_SKIP() << "mapping counts include the sanitizer allocator's own mappings";
#endif
  // The C library's own mappings stay out of the count: every thread allocates from the main
  // arena (else a thread that first contends makes a 64 MiB arena of two mappings) and nothing
  // is malloc'ed through mmap, so all of malloc lives in [heap].
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_MAX, 0);
  // Caller memory for registrations and rings, mapped before the count is taken.
  auto* caller =
      static_cast<uint8_t*>(::mmap(nullptr, 8 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(caller, MAP_FAILED);
  std::memset(caller, 0, 8 * kPage);
  // The device, its pools and threads come up once. And a registration moves the caller's private
  // pages into a memfd mapped at the same address (kfd/userptr_pin.h): that mapping is the
  // caller's from then on, so the first registration of each range happens before the count.
  round(kAll | kFree, caller);
  ASSERT_FALSE(HasFatalFailure());
  const Mappings before = mappings();
  const struct {
    const char* name;
    unsigned use;
  } kinds[] = {{"nothing", 0},          {"vram", kVram},
               {"gtt", kGtt},           {"paged", kPaged},
               {"register", kRegister}, {"event", kEvent},
               {"queue", kQueue},       {"scratch", kScratch},
               {"all, live", kAll},     {"all, freed", kAll | kFree}};
  for (const auto& kind : kinds) {
    for (int i = 0; i < 3; ++i) {
      round(kind.use, caller);
      ASSERT_FALSE(HasFatalFailure()) << kind.name;
    }
    const Mappings after = mappings();
    EXPECT_EQ(after, before) << "mappings left behind by rounds of: " << kind.name;
  }
  ::munmap(caller, 8 * kPage);
}

}  // namespace
