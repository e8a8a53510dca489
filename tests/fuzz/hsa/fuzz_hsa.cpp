// tests/fuzz/hsa/fuzz_hsa.cpp - libFuzzer harness for the HSA runtime API (src/hsa) over the thunk
// and the in-process KFD model.
//
// hsa_init runs once (a runtime lives for the process). Each input is a program of API calls:
// info queries with any attribute value (AMD's own values pass through hsa.h enum types, hence
// the UBSan enum check is off in this build), status strings, signals (create with consumers
// and attributes, loads, stores and read-modify-writes, zero-timeout waits, wait-any, destroy),
// memory (pool and region allocations of any size and flags, free, copy and fill inside what
// was allocated, allow-access), queues (create with any size, type and segment sizes; barrier
// packets through the ring and its doorbell; indices; CU masks; inactivate; destroy), and the AMD
// calls beside them (extension queries and tables, the loader extension on arbitrary addresses,
// caches, coherency, CU mask reads, priorities, value pointers, signal groups, locks to a pool,
// deallocation callbacks, migration, IPC, image capabilities and sizes). Handles
// given to status-returning calls are live or arbitrary; the fast paths that ROCR also leaves
// unchecked (signal loads and stores, queue index operations) only get live handles. Every call must return
// an hsa_status_t, never crash.
#include <fuzzer/FuzzedDataProvider.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>
#include <hsa/hsa_ven_amd_loader.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

struct Env {
  std::vector<hsa_agent_t> agents;
  hsa_agent_t gpu{0}, cpu{0};
  std::vector<hsa_amd_memory_pool_t> pools;
  std::vector<hsa_region_t> regions;
};
Env g_env;

struct Buffer {
  void* ptr;
  size_t size;
};

// Whether p is VRAM (so a copy into it is a GPU copy, whatever the source).
bool in_vram(void* p) {
  hsa_amd_pointer_info_t info{};
  info.size = sizeof info;
  hsa_device_type_t type{};
  return hsa_amd_pointer_info(p, &info, nullptr, nullptr, nullptr) == HSA_STATUS_SUCCESS &&
         info.type == HSA_EXT_POINTER_TYPE_HSA &&
         hsa_agent_get_info(info.agentOwner, HSA_AGENT_INFO_DEVICE, &type) == HSA_STATUS_SUCCESS &&
         type == HSA_DEVICE_TYPE_GPU;
}

// Copies and fills move at most this much: a bigger one costs time and memory in proportion, as on
// a real machine (a 4 GiB fill ran past 120 s and 1.5 GiB of RSS here), and finds nothing more.
constexpr size_t kMaxMove = size_t{4} << 20;

struct Program {
  FuzzedDataProvider& in;
  std::vector<hsa_signal_t> signals;
  std::vector<Buffer> buffers;
  std::vector<hsa_queue_t*> queues;
  alignas(64) uint8_t out[4096] = {};

  hsa_agent_t agent() {
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return hsa_agent_t{in.ConsumeIntegral<uint64_t>()};
    return in.ConsumeBool() ? g_env.gpu : g_env.cpu;
  }
  hsa_signal_t any_signal() {
    if (!signals.empty() && in.ConsumeIntegralInRange<int>(0, 3)) return signals[in.ConsumeIntegralInRange<size_t>(0, signals.size() - 1)];
    return hsa_signal_t{in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint64_t>()};
  }
  bool live_signal(hsa_signal_t* s) {
    if (signals.empty()) return false;
    *s = signals[in.ConsumeIntegralInRange<size_t>(0, signals.size() - 1)];
    return true;
  }
  hsa_signal_condition_t cond() { return static_cast<hsa_signal_condition_t>(in.ConsumeIntegralInRange<uint32_t>(0, 5)); }

  void info() {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: hsa_agent_get_info(agent(), static_cast<hsa_agent_info_t>(in.ConsumeIntegralInRange<uint32_t>(0, 0xA020)), out); break;
      case 1: hsa_system_get_info(static_cast<hsa_system_info_t>(in.ConsumeIntegralInRange<uint32_t>(0, 0x210)), out); break;
      case 2: {
        const char* text = nullptr;
        hsa_status_string(static_cast<hsa_status_t>(in.ConsumeIntegral<uint32_t>()), &text);
        if (text) (void)std::strlen(text);
        break;
      }
      case 3:
        if (!g_env.pools.empty()) {
          const auto pool = in.ConsumeIntegralInRange<int>(0, 7) ? g_env.pools[in.ConsumeIntegralInRange<size_t>(0, g_env.pools.size() - 1)]
                                                                 : hsa_amd_memory_pool_t{in.ConsumeIntegral<uint64_t>()};
          hsa_amd_memory_pool_get_info(pool, static_cast<hsa_amd_memory_pool_info_t>(in.ConsumeIntegralInRange<uint32_t>(0, 20)), out);
          hsa_amd_agent_memory_pool_get_info(agent(), pool, static_cast<hsa_amd_agent_memory_pool_info_t>(in.ConsumeIntegralInRange<uint32_t>(0, 5)), out);
        }
        break;
      case 4:
        if (!g_env.regions.empty()) {
          const auto region = in.ConsumeIntegralInRange<int>(0, 7) ? g_env.regions[in.ConsumeIntegralInRange<size_t>(0, g_env.regions.size() - 1)]
                                                                   : hsa_region_t{in.ConsumeIntegral<uint64_t>()};
          hsa_region_get_info(region, static_cast<hsa_region_info_t>(in.ConsumeIntegralInRange<uint32_t>(0, 0xA010)), out);
        }
        break;
      default: {
        hsa_isa_t isa{};
        hsa_agent_get_info(agent(), HSA_AGENT_INFO_ISA, &isa);
        break;
      }
    }
  }

  void signal_op() {
    hsa_signal_t s{};
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: {
        std::vector<hsa_agent_t> consumers(in.ConsumeIntegralInRange<size_t>(0, 3));
        for (auto& c : consumers) c = agent();
        const uint32_t n = in.ConsumeBool() ? uint32_t(consumers.size()) : in.ConsumeIntegralInRange<uint32_t>(0, 3);
        const hsa_agent_t* list = n == 0 ? nullptr : (n <= consumers.size() ? consumers.data() : nullptr);
        hsa_status_t st;
        if (in.ConsumeBool()) st = hsa_signal_create(in.ConsumeIntegral<int64_t>(), list ? n : 0, list, &s);
        else st = hsa_amd_signal_create(in.ConsumeIntegral<int64_t>(), list ? n : 0, list, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint64_t>(), &s);
        if (st == HSA_STATUS_SUCCESS) signals.push_back(s);
        break;
      }
      case 1: {
        s = any_signal();
        if (hsa_signal_destroy(s) == HSA_STATUS_SUCCESS) std::erase_if(signals, [s](hsa_signal_t x) { return x.handle == s.handle; });
        break;
      }
      case 2:  // loads are an unchecked fast path in ROCR too: live handles only
        if (live_signal(&s)) {
          (void)hsa_signal_load_scacquire(s);
          (void)hsa_signal_load_relaxed(s);
        }
        break;
      case 3:
        if (live_signal(&s)) {
          const int64_t v = in.ConsumeIntegral<int64_t>();
          switch (in.ConsumeIntegralInRange<int>(0, 7)) {
            case 0: hsa_signal_store_screlease(s, v); break;
            case 1: hsa_signal_add_relaxed(s, v); break;
            case 2: hsa_signal_subtract_screlease(s, v); break;
            case 3: hsa_signal_and_relaxed(s, v); break;
            case 4: hsa_signal_or_scacq_screl(s, v); break;
            case 5: (void)hsa_signal_exchange_relaxed(s, v); break;
            case 6: (void)hsa_signal_cas_screlease(s, in.ConsumeIntegral<int64_t>(), v); break;
            default: hsa_signal_silent_store_relaxed(s, v); break;
          }
        }
        break;
      case 4:
        if (live_signal(&s)) {
          (void)hsa_signal_wait_scacquire(s, cond(), in.ConsumeIntegral<int64_t>(), 0, in.ConsumeBool() ? HSA_WAIT_STATE_BLOCKED : HSA_WAIT_STATE_ACTIVE);
        }
        break;
      case 5: {
        const uint32_t n = in.ConsumeIntegralInRange<uint32_t>(0, 4);
        std::vector<hsa_signal_t> list(std::max(n, 1u));
        std::vector<hsa_signal_condition_t> conds(list.size());
        std::vector<hsa_signal_value_t> values(list.size());
        bool all_live = true;
        for (size_t i = 0; i < list.size(); ++i) {
          all_live &= live_signal(&list[i]);
          conds[i] = cond();
          values[i] = in.ConsumeIntegral<int64_t>();
        }
        // A wait that cannot be satisfied would wait for the timeout hint; 0 makes it a poll.
        if (all_live) (void)hsa_amd_signal_wait_any(n, list.data(), conds.data(), values.data(), 0, HSA_WAIT_STATE_ACTIVE, nullptr);
        break;
      }
      case 6: {
        s = any_signal();
        hsa_amd_signal_async_handler(s, cond(), in.ConsumeIntegral<int64_t>(), in.ConsumeBool() ? nullptr : +[](hsa_signal_value_t, void*) { return false; }, nullptr);
        break;
      }
      default: {
        uint64_t start = 0;
        hsa_amd_profiling_dispatch_time_t t{};
        hsa_amd_profiling_get_dispatch_time(agent(), any_signal(), &t);
        (void)start;
        break;
      }
    }
  }

  void memory_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {
        void* p = nullptr;
        const size_t size = in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<size_t>(0, 1 << 16) : in.ConsumeIntegral<size_t>();
        hsa_status_t st = HSA_STATUS_ERROR;
        if (in.ConsumeBool() && !g_env.pools.empty()) {
          const auto pool = in.ConsumeIntegralInRange<int>(0, 7) ? g_env.pools[in.ConsumeIntegralInRange<size_t>(0, g_env.pools.size() - 1)]
                                                                 : hsa_amd_memory_pool_t{in.ConsumeIntegral<uint64_t>()};
          st = hsa_amd_memory_pool_allocate(pool, size, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint32_t>(), &p);
        } else if (!g_env.regions.empty()) {
          const auto region = in.ConsumeIntegralInRange<int>(0, 7) ? g_env.regions[in.ConsumeIntegralInRange<size_t>(0, g_env.regions.size() - 1)]
                                                                   : hsa_region_t{in.ConsumeIntegral<uint64_t>()};
          st = hsa_memory_allocate(region, size, &p);
        }
        if (st == HSA_STATUS_SUCCESS) buffers.push_back({p, size});
        break;
      }
      case 1: {
        void* p = !buffers.empty() && in.ConsumeIntegralInRange<int>(0, 3) ? buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)].ptr
                                                                            : reinterpret_cast<void*>(in.ConsumeIntegral<uint64_t>());
        if ((in.ConsumeBool() ? hsa_memory_free(p) : hsa_amd_memory_pool_free(p)) == HSA_STATUS_SUCCESS) {
          std::erase_if(buffers, [p](const Buffer& b) { return b.ptr == p; });
        }
        break;
      }
      case 2:
      case 3: {  // copy or fill inside live buffers (their bounds are the caller's contract)
        if (buffers.empty()) break;
        const Buffer& d = buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)];
        const Buffer& s = buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)];
        if (d.size == 0 || s.size == 0) break;
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0 && in_vram(d.ptr)) {
          // HSA-MEM-4: a source anywhere is staged or refused (the lock's error), never a crash.
          hsa_memory_copy(d.ptr, reinterpret_cast<const void*>(in.ConsumeIntegral<uint64_t>()),
                          in.ConsumeIntegralInRange<size_t>(0, std::min(d.size, kMaxMove)));
          break;
        }
        const size_t doff = in.ConsumeIntegralInRange<size_t>(0, d.size - 1);
        if (in.ConsumeBool()) {
          const size_t soff = in.ConsumeIntegralInRange<size_t>(0, s.size - 1);
          const size_t n = in.ConsumeIntegralInRange<size_t>(0, std::min({d.size - doff, s.size - soff, kMaxMove}));
          auto* dst = static_cast<uint8_t*>(d.ptr) + doff;
          auto* src = static_cast<uint8_t*>(s.ptr) + soff;
          if (dst < src + n && src < dst + n) break;  // hsa.h: "must not overlap" (the caller's contract)
          hsa_memory_copy(dst, src, n);
        } else {
          const size_t aligned = (doff + 3) & ~size_t{3};
          const size_t room = aligned < d.size ? std::min(d.size - aligned, kMaxMove) / 4 : 0;
          hsa_amd_memory_fill(static_cast<uint8_t*>(d.ptr) + (in.ConsumeIntegralInRange<int>(0, 7) ? aligned : doff), in.ConsumeIntegral<uint32_t>(),
                              in.ConsumeIntegralInRange<size_t>(0, room));
        }
        break;
      }
      case 4: {
        std::vector<hsa_agent_t> list(in.ConsumeIntegralInRange<size_t>(1, 3));
        for (auto& a : list) a = agent();
        void* p = !buffers.empty() && in.ConsumeBool() ? buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)].ptr
                                                       : reinterpret_cast<void*>(in.ConsumeIntegral<uint64_t>());
        hsa_amd_agents_allow_access(in.ConsumeIntegralInRange<uint32_t>(0, uint32_t(list.size())), list.data(), nullptr, p);
        break;
      }
      default:
        break;
    }
  }

  void queue_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {
        hsa_queue_t* q = nullptr;
        const uint32_t size = in.ConsumeIntegralInRange<int>(0, 7) ? 1u << in.ConsumeIntegralInRange<int>(0, 13) : in.ConsumeIntegral<uint32_t>();
        const auto type = static_cast<hsa_queue_type32_t>(in.ConsumeIntegralInRange<uint32_t>(0, 3));
        if (queues.size() < 4 &&
            hsa_queue_create(agent(), size, type, nullptr, nullptr, in.ConsumeBool() ? UINT32_MAX : in.ConsumeIntegral<uint32_t>(),
                             in.ConsumeBool() ? UINT32_MAX : in.ConsumeIntegral<uint32_t>(), &q) == HSA_STATUS_SUCCESS) {
          queues.push_back(q);
        }
        break;
      }
      case 1: {  // a barrier packet, published as ROCR's clients do
        if (queues.empty()) break;
        hsa_queue_t* q = queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)];
        const uint64_t id = hsa_queue_add_write_index_scacq_screl(q, 1);
        if (id - hsa_queue_load_read_index_scacquire(q) >= q->size) {
          hsa_queue_store_write_index_screlease(q, id);  // ring full: give the slot back (no one else writes)
          break;
        }
        auto* slot = static_cast<hsa_barrier_and_packet_t*>(q->base_address) + (id % q->size);
        hsa_barrier_and_packet_t b{};
        for (auto& d : b.dep_signal) d = in.ConsumeIntegralInRange<int>(0, 3) ? hsa_signal_t{0} : any_signal();
        b.completion_signal = in.ConsumeBool() ? any_signal() : hsa_signal_t{0};
        std::memcpy(reinterpret_cast<uint8_t*>(slot) + 4, reinterpret_cast<uint8_t*>(&b) + 4, 60);
        const uint16_t header = in.ConsumeIntegralInRange<int>(0, 7)
                                    ? uint16_t(HSA_PACKET_TYPE_BARRIER_AND | (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                                               (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE))
                                    : in.ConsumeIntegral<uint16_t>();
        std::atomic_ref<uint16_t>(reinterpret_cast<uint16_t*>(slot)[0]).store(header, std::memory_order_release);
        hsa_signal_store_screlease(q->doorbell_signal, int64_t(id));
        break;
      }
      case 2: {
        if (queues.empty()) break;
        hsa_queue_t* q = queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)];
        std::vector<uint32_t> mask(4, ~0u);
        hsa_amd_queue_cu_set_mask(q, in.ConsumeIntegralInRange<uint32_t>(0, 128), mask.data());
        hsa_amd_profiling_set_profiler_enabled(q, in.ConsumeBool());
        (void)hsa_queue_load_write_index_relaxed(q);
        break;
      }
      case 3: {
        if (queues.empty()) break;
        hsa_queue_inactivate(queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)]);
        break;
      }
      default: {
        if (queues.empty()) break;
        const size_t k = in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1);
        if (hsa_queue_destroy(queues[k]) == HSA_STATUS_SUCCESS) queues.erase(queues.begin() + long(k));
        break;
      }
    }
  }

  hsa_amd_memory_pool_t any_pool() {
    if (!g_env.pools.empty() && in.ConsumeIntegralInRange<int>(0, 7))
      return g_env.pools[in.ConsumeIntegralInRange<size_t>(0, g_env.pools.size() - 1)];
    return hsa_amd_memory_pool_t{in.ConsumeIntegral<uint64_t>()};
  }
  void* any_address() {
    if (!buffers.empty() && in.ConsumeBool()) {
      const Buffer& b = buffers[in.ConsumeIntegralInRange<size_t>(0, buffers.size() - 1)];
      return static_cast<char*>(b.ptr) + in.ConsumeIntegralInRange<size_t>(0, b.size);
    }
    return reinterpret_cast<void*>(in.ConsumeIntegral<uintptr_t>());
  }
  static void noop_deallocation(void*, void*) {}

  void extension_op() {
    const auto ext = static_cast<uint16_t>(in.ConsumeBool() ? in.ConsumeIntegralInRange<uint16_t>(0, 6)
                                                            : in.ConsumeIntegralInRange<uint16_t>(0x1fe, 0x205));
    const auto major = in.ConsumeIntegralInRange<uint16_t>(0, 2);
    bool result = false;
    uint16_t minor = 0;
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
        hsa_system_extension_supported(ext, major, in.ConsumeIntegralInRange<uint16_t>(0, 2), &result);
        hsa_agent_extension_supported(ext, agent(), major, 0, &result);
        hsa_system_major_extension_supported(ext, major, &minor, &result);
        hsa_agent_major_extension_supported(ext, agent(), major, &minor, &result);
        break;
      case 1:
        hsa_system_get_major_extension_table(ext, major, in.ConsumeIntegralInRange<size_t>(0, sizeof out), out);
        break;
      case 2: {
        const char* name = nullptr;
        hsa_extension_get_name(ext, &name);
        if (name) (void)std::strlen(name);
        hsa_system_get_extension_table(ext, major, in.ConsumeIntegralInRange<uint16_t>(0, 4), out);
        break;
      }
      default: {  // the loader extension on any address and handle
        hsa_ven_amd_loader_1_03_pfn_t loader{};
        if (hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof loader, &loader) !=
            HSA_STATUS_SUCCESS)
          break;
        const void* host = nullptr;
        hsa_executable_t executable{};
        loader.hsa_ven_amd_loader_query_host_address(any_address(), &host);
        loader.hsa_ven_amd_loader_query_executable(any_address(), &executable);
        size_t count = 0;
        loader.hsa_ven_amd_loader_query_segment_descriptors(nullptr, &count);
        loader.hsa_ven_amd_loader_loaded_code_object_get_info(hsa_loaded_code_object_t{in.ConsumeIntegral<uint64_t>()},
                                                              static_cast<hsa_ven_amd_loader_loaded_code_object_info_t>(
                                                                  in.ConsumeIntegralInRange<int>(0, 13)),
                                                              out);
        loader.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
            hsa_executable_t{in.ConsumeIntegral<uint64_t>()},
            [](hsa_executable_t, hsa_loaded_code_object_t, void*) { return HSA_STATUS_SUCCESS; }, nullptr);
        break;
      }
    }
  }

  void amd_op() {
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
      case 0: {
        hsa_agent_iterate_caches(
            agent(),
            [](hsa_cache_t c, void* data) {
              auto* out = static_cast<uint8_t*>(data);
              for (uint32_t a = 0; a < 5; ++a) hsa_cache_get_info(c, static_cast<hsa_cache_info_t>(a), out);
              return HSA_STATUS_SUCCESS;
            },
            out);
        hsa_cache_get_info(hsa_cache_t{in.ConsumeIntegral<uint64_t>()}, HSA_CACHE_INFO_LEVEL, out);
        break;
      }
      case 1: {
        hsa_amd_coherency_type_t type{};
        hsa_amd_coherency_get_type(agent(), &type);
        hsa_amd_coherency_set_type(agent(),
                                   static_cast<hsa_amd_coherency_type_t>(in.ConsumeIntegralInRange<int>(-1, 2)));
        break;
      }
      case 2:
        if (!queues.empty()) {
          hsa_queue_t* q = queues[in.ConsumeIntegralInRange<size_t>(0, queues.size() - 1)];
          hsa_amd_queue_cu_get_mask(q, in.ConsumeIntegralInRange<uint32_t>(0, 8 * sizeof out),
                                    reinterpret_cast<uint32_t*>(out));
          hsa_amd_queue_set_priority(q, static_cast<hsa_amd_queue_priority_t>(in.ConsumeIntegralInRange<int>(-1, 3)));
        }
        break;
      case 3: {
        volatile hsa_signal_value_t* value = nullptr;
        hsa_amd_signal_value_pointer(any_signal(), &value);
        break;
      }
      case 4: {  // groups of live or arbitrary signals; no waits (they have no timeout)
        hsa_signal_t members[3] = {any_signal(), any_signal(), any_signal()};
        hsa_signal_group_t group{};
        if (hsa_signal_group_create(in.ConsumeIntegralInRange<uint32_t>(0, 3), members, 0, nullptr, &group) ==
            HSA_STATUS_SUCCESS)
          hsa_signal_group_destroy(group);
        hsa_signal_group_destroy(hsa_signal_group_t{in.ConsumeIntegral<uint64_t>()});
        break;
      }
      case 5: {  // a lock of this program's own page under any pool
        void* agent_ptr = nullptr;
        if (hsa_amd_memory_lock_to_pool(out, in.ConsumeIntegralInRange<size_t>(0, sizeof out), nullptr, 0, any_pool(),
                                        in.ConsumeIntegralInRange<uint32_t>(0, 1), &agent_ptr) == HSA_STATUS_SUCCESS)
          hsa_amd_memory_unlock(out);
        break;
      }
      case 6: {
        void* p = any_address();
        if (hsa_amd_register_deallocation_callback(p, noop_deallocation, nullptr) == HSA_STATUS_SUCCESS &&
            in.ConsumeBool())
          hsa_amd_deregister_deallocation_callback(p, noop_deallocation);
        hsa_amd_memory_migrate(p, any_pool(), in.ConsumeIntegralInRange<uint32_t>(0, 1));
        bool result = false;
        hsa_amd_memory_pool_can_migrate(any_pool(), any_pool(), &result);
        break;
      }
      case 7: {
        hsa_amd_ipc_memory_t handle{};
        hsa_amd_ipc_memory_create(any_address(), in.ConsumeIntegralInRange<size_t>(0, 1 << 20), &handle);
        hsa_memory_register(any_address(), in.ConsumeIntegralInRange<size_t>(0, 4096));
        hsa_memory_assign_agent(any_address(), agent(),
                                static_cast<hsa_access_permission_t>(in.ConsumeIntegralInRange<int>(0, 4)));
        break;
      }
      default: {  // image capabilities and sizes of any geometry, format and extent
        hsa_ext_image_format_t format{static_cast<hsa_ext_image_channel_type_t>(in.ConsumeIntegralInRange<int>(0, 20)),
                                      static_cast<hsa_ext_image_channel_order_t>(
                                          in.ConsumeIntegralInRange<int>(0, 20))};
        uint32_t mask = 0;
        const auto geometry = static_cast<hsa_ext_image_geometry_t>(in.ConsumeIntegralInRange<int>(0, 8));
        hsa_ext_image_get_capability(agent(), geometry, &format, &mask);
        hsa_ext_image_descriptor_t descriptor{geometry,
                                              in.ConsumeIntegral<uint32_t>() % 20000,
                                              in.ConsumeIntegral<uint32_t>() % 20000,
                                              in.ConsumeIntegral<uint32_t>() % 9000,
                                              in.ConsumeIntegral<uint32_t>() % 9000,
                                              format};
        hsa_ext_image_data_info_t info{};
        hsa_ext_image_data_get_info(agent(), &descriptor,
                                    static_cast<hsa_access_permission_t>(in.ConsumeIntegralInRange<int>(0, 4)), &info);
        break;
      }
    }
  }

  void run() {
    for (int op = 0; op < 32 && in.remaining_bytes() > 0; ++op) {
      switch (in.ConsumeIntegralInRange<int>(0, 6)) {
        case 0: info(); break;
        case 1: signal_op(); break;
        case 2: memory_op(); break;
        case 3: extension_op(); break;
        case 4: amd_op(); break;
        default: queue_op(); break;
      }
    }
    for (hsa_queue_t* q : queues) hsa_queue_destroy(q);
    for (hsa_signal_t s : signals) hsa_signal_destroy(s);
    for (const Buffer& b : buffers) hsa_memory_free(b.ptr);
  }
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  hsa_init();
  hsa_iterate_agents(
      [](hsa_agent_t a, void*) {
        g_env.agents.push_back(a);
        hsa_device_type_t type{};
        hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type);
        (type == HSA_DEVICE_TYPE_GPU ? g_env.gpu : g_env.cpu) = a;
        hsa_amd_agent_iterate_memory_pools(
            a, [](hsa_amd_memory_pool_t p, void*) { g_env.pools.push_back(p); return HSA_STATUS_SUCCESS; }, nullptr);
        hsa_agent_iterate_regions(
            a, [](hsa_region_t r, void*) { g_env.regions.push_back(r); return HSA_STATUS_SUCCESS; }, nullptr);
        return HSA_STATUS_SUCCESS;
      },
      nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program{in};
  program.run();
  return 0;
}
