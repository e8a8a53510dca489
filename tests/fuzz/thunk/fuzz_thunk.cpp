// tests/fuzz/thunk/fuzz_thunk.cpp - libFuzzer harness for the thunk's hsaKmt* API (src/thunk) over
// the in-process KFD model.
//
// Each input is a program between hsaKmtOpenKFD and hsaKmtCloseKFD: topology queries with any
// node, bank, cache and link counts (out-arrays sized as the caller says), memory (alloc with
// any flags, free, register host memory, map to the GPU, query pointers), events (create with
// any type, set, reset, query, wait with zero timeout, destroy; bogus HsaEvent objects too),
// queues (create with any type, percentage, priority, ring and size; update, CU mask,
// destroy) and the miscellaneous calls. Pointers the API writes through are the caller's valid
// memory (a caller's bad out-pointer is the caller's crash, as with libhsakmt); handles, ids,
// sizes, flags and in-pointers are anything. The thunk must answer HSAKMT_STATUS_* codes.
#include <fuzzer/FuzzedDataProvider.h>
#include <hsakmt.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "thunk/hsakmt_ext.h"

namespace {

constexpr uint64_t kPage = 4096;

struct Alloc {
  void* addr;
  uint64_t size;
  bool host;  // host memory registered with hsaKmtRegisterMemory
};

struct Program {
  FuzzedDataProvider& in;
  std::vector<Alloc> allocs;
  std::vector<HsaEvent*> events;
  std::vector<HSA_QUEUEID> queues;
  HsaEvent bogus{};
  uint8_t* host = nullptr;  // 16 pages of host memory for registration

  uint32_t node() { return in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<uint32_t>(0, 2) : in.ConsumeIntegral<uint32_t>(); }
  uint64_t size() {
    return in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<uint64_t>(1, 16) * kPage
                                                : in.ConsumeIntegral<uint64_t>();
  }
  HsaEvent* event() {
    if (!events.empty() && in.ConsumeIntegralInRange<int>(0, 7)) return events[in.ConsumeIntegralInRange<size_t>(0, events.size() - 1)];
    if (in.ConsumeBool()) return nullptr;
    bogus.EventId = in.ConsumeIntegral<uint32_t>();
    return &bogus;  // not an event of this process: INVALID_HANDLE, never a dereference of a stranger
  }
  void* memory() {  // an address the memory calls get
    if (!allocs.empty() && in.ConsumeIntegralInRange<int>(0, 3)) {
      const Alloc& a = allocs[in.ConsumeIntegralInRange<size_t>(0, allocs.size() - 1)];
      return static_cast<uint8_t*>(a.addr) + (in.ConsumeIntegralInRange<int>(0, 7) ? 0 : in.ConsumeIntegral<uint16_t>());
    }
    if (in.ConsumeBool()) return host + in.ConsumeIntegralInRange<uint64_t>(0, 15) * kPage;
    return reinterpret_cast<void*>(in.ConsumeIntegral<uint64_t>());
  }

  void topology() {
    HsaNodeProperties props{};
    const uint32_t n = node();
    const bool ok = hsaKmtGetNodeProperties(n, &props) == HSAKMT_STATUS_SUCCESS;
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: {
        const uint32_t banks = ok && in.ConsumeBool() ? props.NumMemoryBanks : in.ConsumeIntegralInRange<uint32_t>(0, 16);
        std::vector<HsaMemoryProperties> m(std::max(banks, 1u));
        hsaKmtGetNodeMemoryProperties(n, banks, m.data());
        break;
      }
      case 1: {
        const uint32_t caches = ok && in.ConsumeBool() ? props.NumCaches : in.ConsumeIntegralInRange<uint32_t>(0, 64);
        std::vector<HsaCacheProperties> c(std::max(caches, 1u));
        hsaKmtGetNodeCacheProperties(n, in.ConsumeBool() ? props.CComputeIdLo : in.ConsumeIntegral<uint32_t>(), caches, c.data());
        break;
      }
      default: {
        const uint32_t links = ok && in.ConsumeBool() ? props.NumIOLinks : in.ConsumeIntegralInRange<uint32_t>(0, 16);
        std::vector<HsaIoLinkProperties> l(std::max(links, 1u));
        hsaKmtGetNodeIoLinkProperties(n, links, l.data());
        break;
      }
    }
  }

  void memory_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 6)) {
      case 0: {
        HsaMemFlags f{};
        f.Value = in.ConsumeIntegral<uint32_t>();
        if (in.ConsumeBool()) {  // what ROCR asks for most
          f.Value = 0;
          f.ui32.PageSize = HSA_PAGE_SIZE_4KB;
          f.ui32.HostAccess = in.ConsumeBool();
          f.ui32.NonPaged = in.ConsumeBool();
          f.ui32.CoarseGrain = in.ConsumeBool();
          f.ui32.ExecuteAccess = in.ConsumeBool();
          f.ui32.NoSubstitute = in.ConsumeBool();
        }
        void* addr = nullptr;
        const uint64_t s = size();
        if (hsaKmtAllocMemory(node(), s, f, &addr) == HSAKMT_STATUS_SUCCESS) allocs.push_back({addr, s, false});
        break;
      }
      case 1: {  // free (known or arbitrary)
        void* addr = memory();
        const uint64_t s = in.ConsumeBool() ? size() : 0;
        bool host_alloc = false;
        for (const Alloc& a : allocs) host_alloc |= a.addr == addr && a.host;
        if (host_alloc) break;  // registered host memory is deregistered, not freed
        if (hsaKmtFreeMemory(addr, s) == HSAKMT_STATUS_SUCCESS) {
          std::erase_if(allocs, [addr](const Alloc& a) { return a.addr == addr; });
        }
        break;
      }
      case 2: {
        void* addr = host + in.ConsumeIntegralInRange<uint64_t>(0, 15) * kPage + (in.ConsumeIntegralInRange<int>(0, 7) ? 0 : in.ConsumeIntegralInRange<int>(1, 63));
        const uint64_t s = in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<uint64_t>(1, 4) * kPage : in.ConsumeIntegral<uint64_t>();
        HSAKMT_STATUS st;
        if (in.ConsumeBool()) {
          st = hsaKmtRegisterMemory(addr, s);
        } else {
          uint32_t nodes[3] = {1, node(), 0};
          st = hsaKmtRegisterMemoryToNodes(addr, s, in.ConsumeIntegralInRange<uint64_t>(0, 3), nodes);
        }
        if (st == HSAKMT_STATUS_SUCCESS) allocs.push_back({addr, s, true});
        break;
      }
      case 3: {
        void* addr = memory();
        if (hsaKmtDeregisterMemory(addr) == HSAKMT_STATUS_SUCCESS) {
          std::erase_if(allocs, [addr](const Alloc& a) { return a.addr == addr && a.host; });
        }
        break;
      }
      case 4: {
        HSAuint64 alt = 0;
        void* addr = memory();
        const uint64_t s = in.ConsumeBool() ? size() : 0;
        if (in.ConsumeBool()) {
          hsaKmtMapMemoryToGPU(addr, s, &alt);
        } else {
          HSAuint32 nodes[2] = {1, node()};
          HsaMemMapFlags mf{};
          mf.Value = in.ConsumeIntegral<uint32_t>();
          hsaKmtMapMemoryToGPUNodes(addr, s, &alt, mf, in.ConsumeIntegralInRange<uint64_t>(0, 2), nodes);
        }
        break;
      }
      case 5: {
        void* addr = memory();
        hsaKmtUnmapMemoryToGPU(addr);
        break;
      }
      default: {
        HsaPointerInfo info{};
        hsaKmtQueryPointerInfo(memory(), &info);
        int user = 0;
        hsaKmtSetMemoryUserData(memory(), &user);
        HSAuint64 avail = 0;
        hsaKmtAvailableMemory(node(), &avail);
        break;
      }
    }
  }

  void event_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: {
        HsaEventDescriptor d{};
        d.EventType = static_cast<HSA_EVENTTYPE>(in.ConsumeIntegralInRange<int>(0, 12));
        d.NodeId = node();
        HsaEvent* e = nullptr;
        if (hsaKmtCreateEvent(&d, in.ConsumeBool(), in.ConsumeBool(), &e) == HSAKMT_STATUS_SUCCESS) events.push_back(e);
        break;
      }
      case 1: hsaKmtSetEvent(event()); break;
      case 2: hsaKmtResetEvent(event()); break;
      case 3: {
        uint64_t age = in.ConsumeIntegral<uint64_t>();
        if (in.ConsumeBool()) hsaKmtWaitOnEvent(event(), 0);
        else hsaKmtWaitOnEvent_Ext(event(), 0, &age);
        hsaKmtQueryEventState(event());
        break;
      }
      case 4: {
        std::vector<HsaEvent*> list(in.ConsumeIntegralInRange<size_t>(1, 8));
        for (auto& e : list) e = event();
        hsaKmtWaitOnMultipleEvents(list.data(), in.ConsumeIntegralInRange<uint32_t>(0, uint32_t(list.size())), in.ConsumeBool(), 0);
        break;
      }
      default: {
        HsaEvent* e = event();
        if (hsaKmtDestroyEvent(e) == HSAKMT_STATUS_SUCCESS) std::erase(events, e);
        break;
      }
    }
  }

  void queue_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {
        HsaQueueResource res{};
        void* ring = memory();
        const auto type = static_cast<HSA_QUEUE_TYPE>(in.ConsumeIntegralInRange<int>(0, 9));
        const uint64_t s = in.ConsumeIntegralInRange<int>(0, 7) ? uint64_t{64} << in.ConsumeIntegralInRange<int>(0, 8) : in.ConsumeIntegral<uint64_t>();
        const auto prio = static_cast<HSA_QUEUE_PRIORITY>(in.ConsumeIntegralInRange<int>(-4, 4));
        if (hsaKmtCreateQueue(node(), type, in.ConsumeIntegralInRange<uint32_t>(0, 101), prio, ring, s, event(), &res) ==
            HSAKMT_STATUS_SUCCESS) {
          queues.push_back(res.QueueId);
        }
        break;
      }
      case 1: {
        if (queues.empty()) break;
        void* ring = memory();
        hsaKmtUpdateQueue(queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)], in.ConsumeIntegralInRange<uint32_t>(0, 101),
                          static_cast<HSA_QUEUE_PRIORITY>(in.ConsumeIntegralInRange<int>(-4, 4)), ring, size(), event());
        break;
      }
      case 2: {
        const HSA_QUEUEID id = !queues.empty() && in.ConsumeBool() ? queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)] : in.ConsumeIntegral<uint64_t>();
        std::vector<HSAuint32> mask(5, ~0u);
        hsaKmtSetQueueCUMask(id, in.ConsumeIntegralInRange<uint32_t>(0, 160), mask.data());
        break;
      }
      default: {
        if (queues.empty()) break;
        const size_t k = in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1);
        if (hsaKmtDestroyQueue(queues[k]) == HSAKMT_STATUS_SUCCESS) {
          queues.erase(queues.begin() + long(k));
        }
        break;
      }
    }
  }

  void misc() {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: {
        HsaClockCounters c{};
        hsaKmtGetClockCounters(node(), &c);
        HsaVersionInfo v{};
        hsaKmtGetVersion(&v);
        break;
      }
      case 1: {
        uint32_t tile[32] = {}, macro[32] = {};
        HsaGpuTileConfig t{};
        t.TileConfig = tile;
        t.MacroTileConfig = macro;
        t.NumTileConfigs = in.ConsumeIntegralInRange<uint32_t>(0, 32);
        t.NumMacroTileConfigs = in.ConsumeIntegralInRange<uint32_t>(0, 32);
        hsaKmtGetTileConfig(node(), &t);
        break;
      }
      case 2:
        hsaKmtSetTrapHandler(node(), memory(), in.ConsumeIntegral<uint64_t>(), memory(), in.ConsumeIntegral<uint64_t>());
        break;
      case 3:
        hsaKmtSetMemoryPolicy(node(), in.ConsumeIntegralInRange<uint32_t>(0, 3), in.ConsumeIntegralInRange<uint32_t>(0, 3), memory(), size());
        break;
      case 4: {
        HSAint32 mode = 0;
        hsaKmtGetXNACKMode(&mode);
        hsaKmtSetXNACKMode(in.ConsumeIntegralInRange<int>(-1, 2));
        break;
      }
      default: {
        // Granting the GPU access faults in and maps every page of the range (hmm_range_fault,
        // one PTE a page), on a real machine as here: a range of terabytes (ASan's shadow is
        // one) only costs time and memory in proportion, so access is asked for up to 64 MiB;
        // other attributes and GET_ATTR, which walk mappings and not pages, take any size.
        void* const start = memory();
        const uint64_t bytes = size();
        HSA_SVM_ATTRIBUTE attr{bytes <= (uint64_t{64} << 20) ? HSA_SVM_ATTR_ACCESS : HSA_SVM_ATTR_GRANULARITY, 1};
        hsaKmtSVMSetAttr(start, bytes, 1, &attr);
        hsaKmtSVMGetAttr(memory(), size(), 1, &attr);
        break;
      }
    }
  }

  void run() {
    host = static_cast<uint8_t*>(::mmap(nullptr, 16 * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    // The process opened the KFD once (LLVMFuzzerInitialize), as a runtime does; a nested
    // open/close pair per input exercises the reference count without paying a full open.
    const bool opened = in.ConsumeBool();
    if (opened) hsaKmtOpenKFD();
    const bool props = in.ConsumeIntegralInRange<int>(0, 15) != 0;
    HsaSystemProperties sys{};
    if (props) hsaKmtAcquireSystemProperties(&sys);
    for (int op = 0; op < 32 && in.remaining_bytes() > 0; ++op) {
      switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: topology(); break;
        case 1: case 2: memory_op(); break;
        case 3: event_op(); break;
        case 4: queue_op(); break;
        default: misc(); break;
      }
    }
    // Close with what is left live, as a process that exits does; only the thunk's objects
    // the caller owns are released first (queues hold their ring, events their slots).
    for (HSA_QUEUEID q : queues) hsaKmtDestroyQueue(q);
    for (HsaEvent* e : events) hsaKmtDestroyEvent(e);
    for (const Alloc& a : allocs) {
      hsaKmtUnmapMemoryToGPU(a.addr);
      if (a.host) hsaKmtDeregisterMemory(a.addr);
      else hsaKmtFreeMemory(a.addr, a.size);
    }
    if (props) hsaKmtReleaseSystemProperties();
    if (opened) hsaKmtCloseKFD();
    ::munmap(host, 16 * kPage);
  }
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  hsaKmtOpenKFD();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program{in};
  program.run();
  return 0;
}
