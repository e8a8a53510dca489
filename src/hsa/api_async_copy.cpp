// hsa/api_async_copy.cpp - C entry points: the rect copy and the timing of asynchronous copies.
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <vector>

#include "hsa/agent.h"
#include "hsa/async_copy.h"
#include "hsa/copy_rect.h"
#include "hsa/hsa_mutant.h"
#include "hsa/runtime.h"
#include "hsa/signal_object.h"

using rocref::hsa::Agent;
using rocref::hsa::AsyncCopy;
using rocref::hsa::CopyRect;
using rocref::hsa::hsa_mutant_active;
using rocref::hsa::HsaMutant;
using rocref::hsa::Runtime;
using rocref::hsa::runtime;
using rocref::hsa::SignalObject;

extern "C" {

// HSA-MEM-8: ROCR 5.2.3's checks in its order (hsa_ext_amd.cpp, GpuAgent::DmaCopyRect,
// BlitSdma::SubmitCopyRectCommand); the copy runs on the copy thread of HSA-MEM-7.
hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset,
                                                    const hsa_pitched_ptr_t* src, const hsa_dim3_t* src_offset,
                                                    const hsa_dim3_t* range, hsa_agent_t copy_agent,
                                                    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals,
                                                    const hsa_signal_t* dep_signals, hsa_signal_t completion_signal) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (dst == nullptr || src == nullptr || dst_offset == nullptr || src_offset == nullptr || range == nullptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == nullptr)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  // Only host-to-host is refused: ROCR picks its engine by `dir` and never checks it further.
  if (dir == hsaHostToHost) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  Agent* gpu = rt->find_agent(copy_agent);
  if (gpu == nullptr || !gpu->is_gpu()) return HSA_STATUS_ERROR_INVALID_AGENT;
  AsyncCopy copy;
  copy.dependencies.resize(num_dep_signals);
  for (uint32_t i = 0; i < num_dep_signals; ++i) {
    if (hsa_status_t s = rt->checked_signal(dep_signals[i], &copy.dependencies[i]); s != HSA_STATUS_SUCCESS) return s;
  }
  if (hsa_status_t s = rt->checked_signal(completion_signal, &copy.completion); s != HSA_STATUS_SUCCESS) return s;
  // An empty range returns at once; the signal keeps its value (ROCR does).
  if (range->x == 0 || range->y == 0 || range->z == 0) return HSA_STATUS_SUCCESS;
  // ROCR's rect copies need an SDMA engine, which it gives GFX9 and later only.
  if (gpu->properties().EngineId.ui32.Major < 9) return HSA_STATUS_ERROR_INVALID_AGENT;
  copy.rect = CopyRect{*dst, *dst_offset, *src, *src_offset, *range};
  if (!rocref::hsa::copy_rect_expressible(*copy.rect)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (hsa_mutant_active(HsaMutant::AsyncCopyRectSourceRowsAtDestinationPitch)) copy.rect->src.pitch = dst->pitch;
  copy.gpu = gpu;
  if (rt->async_copy_profiling()) {
    copy.profiled = true;
    copy.completion->set_async_copy_agent(gpu);
  }
  return rt->async_copies().submit(std::move(copy));
}

// HSA-PROF-2: every GPU agent's switch at once; always succeeds on an open runtime.
hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  rt->set_async_copy_profiling(enable);
  return HSA_STATUS_SUCCESS;
}

// HSA-PROF-2: the times the last profiled copy into this signal recorded, as system time.
hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                                           hsa_amd_profiling_async_copy_time_t* time) {
  Runtime* rt = runtime();
  if (rt == nullptr) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (time == nullptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  SignalObject* object = nullptr;
  if (hsa_status_t s = rt->checked_signal(signal, &object); s != HSA_STATUS_SUCCESS) return s;
  const Agent* gpu = object->async_copy_agent();
  if (gpu == nullptr) return HSA_STATUS_ERROR;  // no profiled copy ever completed this signal
  const uint64_t start = std::atomic_ref<uint64_t>(object->amd.start_ts).load(std::memory_order_acquire);
  const uint64_t end = std::atomic_ref<uint64_t>(object->amd.end_ts).load(std::memory_order_acquire);
  rt->timestamps_from_gpu_ticks(*gpu, start, end, &time->start, &time->end);
  return HSA_STATUS_SUCCESS;
}

}  // extern "C"
