// bench/shared/shared_launch_bench.cpp - launch -> completion through rocref's HSA runtime, KFD in
// this process or in the shared model's daemon (ROCREF_KFD_SOCKET), whichever the environment picks.
//
// A launch is an AQL barrier-AND packet (no kernel: the cost measured is the submission path,
// the doorbell, the packet processor and the completion signal) on one queue of the GPU agent.
#include <benchmark/benchmark.h>
#include <hsa/hsa.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace {

struct Agent {
  hsa_agent_t gpu{};
  hsa_queue_t* queue = nullptr;
  hsa_signal_t signal{};
  bool ok = false;
  Agent() {
    if (hsa_init() != HSA_STATUS_SUCCESS) return;
    hsa_iterate_agents(
        [](hsa_agent_t a, void* data) {
          hsa_device_type_t type;
          hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &type);
          if (type == HSA_DEVICE_TYPE_GPU) {
            static_cast<Agent*>(data)->gpu = a;
            return HSA_STATUS_INFO_BREAK;
          }
          return HSA_STATUS_SUCCESS;
        },
        this);
    ok = gpu.handle != 0 &&
         hsa_queue_create(gpu, 1024, HSA_QUEUE_TYPE_SINGLE, nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue) ==
             HSA_STATUS_SUCCESS &&
         hsa_signal_create(0, 0, nullptr, &signal) == HSA_STATUS_SUCCESS;
  }
  // Publishes `n` barrier packets, the last one with the completion signal, then waits for it.
  void launch(uint32_t n) {
    hsa_signal_store_relaxed(signal, 1);
    const uint64_t first = hsa_queue_add_write_index_relaxed(queue, n);
    while (first + n - hsa_queue_load_read_index_scacquire(queue) > queue->size) {
    }
    for (uint32_t i = 0; i < n; ++i) {
      auto* slot = static_cast<hsa_barrier_and_packet_t*>(queue->base_address) + ((first + i) % queue->size);
      std::memset(reinterpret_cast<uint8_t*>(slot) + 4, 0, sizeof *slot - 4);
      if (i + 1 == n) slot->completion_signal = signal;
      const uint16_t header = HSA_PACKET_TYPE_BARRIER_AND |
                              (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_ACQUIRE_FENCE_SCOPE) |
                              (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_RELEASE_FENCE_SCOPE);
      __atomic_store_n(reinterpret_cast<uint16_t*>(slot), header, __ATOMIC_RELEASE);
    }
    hsa_signal_store_screlease(queue->doorbell_signal, static_cast<hsa_signal_value_t>(first + n - 1));
    hsa_signal_wait_scacquire(signal, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX, HSA_WAIT_STATE_ACTIVE);
  }
};

Agent& agent() {
  static Agent a;
  return a;
}

const char* mode() { return std::getenv("ROCREF_KFD_SOCKET") ? "shared" : "in-process"; }

void hsa_launch_latency(benchmark::State& state) {
  Agent& a = agent();
  if (!a.ok) {
    state.SkipWithError("no GPU agent");
    return;
  }
  for (auto _ : state) a.launch(1);
  state.SetLabel(mode());
}
BENCHMARK(hsa_launch_latency)->UseRealTime();

void hsa_launch_batched(benchmark::State& state) {
  Agent& a = agent();
  if (!a.ok) {
    state.SkipWithError("no GPU agent");
    return;
  }
  const auto n = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) a.launch(n);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);  // launches/s
  state.SetLabel(mode());
}
BENCHMARK(hsa_launch_batched)->Arg(64)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
