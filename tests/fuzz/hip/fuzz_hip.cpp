// tests/fuzz/hip/fuzz_hip.cpp - libFuzzer harness for the HIP runtime API (src/hip) over the whole
// stack (command layer, HSA runtime, thunk, in-process KFD model, GPU model).
//
// Each input is a program of HIP calls: device queries and selection with any ids, allocations
// of any size and kind, frees of live and arbitrary pointers, copies and fills of any kind
// inside live allocations (the caller's bounds are its contract, as in HIP), streams and
// events created, recorded, waited, queried, synchronized and destroyed (live, destroyed and
// arbitrary handles), kernel launches with any grid, block and dynamic shared memory shape,
// error-name and -string lookups of any code. Everything must come back as a hipError_t.
#include <fuzzer/FuzzedDataProvider.h>
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

__global__ void fill_index(uint32_t* out, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

struct Alloc {
  void* ptr;
  size_t size;
  int kind;  // 0 device, 1 host (hipHostMalloc), 2 managed, 3 plain host memory
};

struct Program {
  FuzzedDataProvider& in;
  std::vector<Alloc> allocs;
  std::vector<hipStream_t> streams;
  std::vector<hipEvent_t> events;
  std::vector<std::vector<uint8_t>> host;  // plain host memory (pageable)

  hipStream_t stream() {
    if (!streams.empty() && in.ConsumeIntegralInRange<int>(0, 3)) return streams[in.ConsumeIntegralInRange<size_t>(0, streams.size() - 1)];
    return nullptr;  // the null stream
  }
  hipEvent_t event_or_stranger(hipEvent_t* stranger) {
    if (!events.empty() && in.ConsumeIntegralInRange<int>(0, 3)) return events[in.ConsumeIntegralInRange<size_t>(0, events.size() - 1)];
    return in.ConsumeBool() ? nullptr : reinterpret_cast<hipEvent_t>(stranger);  // not an event: never dereferenced
  }

  void device() {
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: {
        hipDeviceProp_t prop{};
        hipGetDeviceProperties(&prop, in.ConsumeIntegralInRange<int>(-2, 3));
        int n = 0;
        hipGetDeviceCount(&n);
        break;
      }
      case 1: {
        hipSetDevice(in.ConsumeIntegralInRange<int>(-2, 3));
        int d = -1;
        hipGetDevice(&d);
        hipSetDevice(0);
        break;
      }
      case 2: {
        const auto e = static_cast<hipError_t>(in.ConsumeIntegralInRange<int>(-5, 1100));
        (void)std::strlen(hipGetErrorName(e));
        (void)std::strlen(hipGetErrorString(e));
        hipGetLastError();
        hipPeekAtLastError();
        break;
      }
      default: {
        size_t f = 0, t = 0;
        hipMemGetInfo(&f, &t);
        if (in.ConsumeIntegralInRange<int>(0, 3) == 0) hipDeviceSynchronize();
        break;
      }
    }
  }

  void memory() {
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: {
        const size_t size = in.ConsumeIntegralInRange<int>(0, 7) ? in.ConsumeIntegralInRange<size_t>(0, 1 << 16) : in.ConsumeIntegral<size_t>();
        const int kind = in.ConsumeIntegralInRange<int>(0, 3);
        void* p = nullptr;
        hipError_t e = hipErrorInvalidValue;
        if (kind == 0) e = hipMalloc(&p, size);
        if (kind == 1) e = hipHostMalloc(&p, size, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint32_t>());
        if (kind == 2) e = hipMallocManaged(&p, size, in.ConsumeBool() ? hipMemAttachGlobal : in.ConsumeIntegral<uint32_t>());
        if (kind == 3 && size <= (1 << 16)) {
          host.emplace_back(std::max<size_t>(size, 1));
          p = host.back().data();
          e = hipSuccess;
        }
        if (e == hipSuccess && p) allocs.push_back({p, size, kind});
        break;
      }
      case 1: {
        void* p = nullptr;
        int kind = -1;
        if (!allocs.empty() && in.ConsumeIntegralInRange<int>(0, 3)) {
          const Alloc& a = allocs[in.ConsumeIntegralInRange<size_t>(0, allocs.size() - 1)];
          p = a.ptr;
          kind = a.kind;
        } else {
          p = reinterpret_cast<void*>(in.ConsumeIntegral<uint64_t>());
        }
        if (kind == 3) break;  // not HIP's to free
        const bool as_host = in.ConsumeBool();
        if ((as_host ? hipHostFree(p) : hipFree(p)) == hipSuccess) {
          std::erase_if(allocs, [p](const Alloc& a) { return a.ptr == p; });
        }
        break;
      }
      case 2:
      case 3: {  // copies and fills inside live allocations
        if (allocs.empty()) break;
        const Alloc& d = allocs[in.ConsumeIntegralInRange<size_t>(0, allocs.size() - 1)];
        const Alloc& s = allocs[in.ConsumeIntegralInRange<size_t>(0, allocs.size() - 1)];
        if (d.size == 0 || s.size == 0) break;
        const size_t doff = in.ConsumeIntegralInRange<size_t>(0, d.size - 1);
        auto* dst = static_cast<uint8_t*>(d.ptr) + doff;
        if (in.ConsumeBool()) {
          const size_t soff = in.ConsumeIntegralInRange<size_t>(0, s.size - 1);
          const size_t n = in.ConsumeIntegralInRange<size_t>(0, std::min(d.size - doff, s.size - soff));
          auto* src = static_cast<uint8_t*>(s.ptr) + soff;
          if (dst < src + n && src < dst + n) break;  // overlapping copies are undefined in HIP
          const auto kind = static_cast<hipMemcpyKind>(in.ConsumeIntegralInRange<int>(0, 6));
          if (in.ConsumeBool()) hipMemcpy(dst, src, n, kind);
          else hipMemcpyAsync(dst, src, n, kind, stream());
        } else {
          const size_t n = in.ConsumeIntegralInRange<size_t>(0, d.size - doff);
          const int value = in.ConsumeIntegral<int>();
          switch (in.ConsumeIntegralInRange<int>(0, 2)) {
            case 0: hipMemset(dst, value, n); break;
            case 1: hipMemsetAsync(dst, value, n, stream()); break;
            default: hipMemsetD32(dst, value, n / 4); break;
          }
        }
        break;
      }
      default:
        break;
    }
  }

  void stream_op() {
    static int stranger_storage[16];
    hipEvent_t stranger = nullptr;
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: {
        hipStream_t s = nullptr;
        if (streams.size() < 3 && hipStreamCreateWithFlags(&s, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint32_t>()) == hipSuccess) streams.push_back(s);
        break;
      }
      case 1: {
        if (streams.empty()) break;
        const size_t k = in.ConsumeIntegralInRange<size_t>(0, streams.size() - 1);
        if (hipStreamDestroy(streams[k]) == hipSuccess) streams.erase(streams.begin() + long(k));
        break;
      }
      case 2: {
        hipStream_t s = stream();
        if (in.ConsumeBool()) hipStreamQuery(s);
        else hipStreamSynchronize(s);
        unsigned flags = 0;
        hipStreamGetFlags(s, &flags);
        break;
      }
      case 3: {
        hipEvent_t e = nullptr;
        if (hipEventCreateWithFlags(&e, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint32_t>()) == hipSuccess) events.push_back(e);
        break;
      }
      case 4:
        hipEventRecord(event_or_stranger(reinterpret_cast<hipEvent_t*>(stranger_storage)), stream());
        break;
      case 5: {
        hipEvent_t e = event_or_stranger(reinterpret_cast<hipEvent_t*>(stranger_storage));
        if (in.ConsumeBool()) hipEventQuery(e);
        else hipEventSynchronize(e);
        float ms = 0;
        hipEventElapsedTime(&ms, e, event_or_stranger(reinterpret_cast<hipEvent_t*>(stranger_storage)));
        hipStreamWaitEvent(stream(), e, in.ConsumeBool() ? 0 : in.ConsumeIntegral<uint32_t>());
        break;
      }
      case 6: {
        hipEvent_t e = event_or_stranger(reinterpret_cast<hipEvent_t*>(stranger_storage));
        if (hipEventDestroy(e) == hipSuccess) std::erase(events, e);
        break;
      }
      default: {  // a launch of any shape (a valid one writes inside its device buffer)
        Alloc* out = nullptr;
        for (Alloc& a : allocs) {
          if (a.kind == 0 && a.size >= 4) out = &a;
        }
        const dim3 grid(in.ConsumeIntegralInRange<uint32_t>(0, 8), in.ConsumeIntegralInRange<uint32_t>(0, 2), in.ConsumeIntegralInRange<uint32_t>(0, 2));
        const dim3 block(in.ConsumeIntegralInRange<uint32_t>(0, 1100), in.ConsumeIntegralInRange<uint32_t>(0, 3), in.ConsumeIntegralInRange<uint32_t>(0, 3));
        const size_t shared = in.ConsumeIntegralInRange<int>(0, 7) ? 0 : in.ConsumeIntegral<uint32_t>();
        uint32_t* ptr = out ? static_cast<uint32_t*>(out->ptr) : nullptr;
        const uint32_t n = out ? uint32_t(out->size / 4) : 0;
        hipLaunchKernelGGL(fill_index, grid, block, shared, stream(), ptr, n);
        hipGetLastError();
        break;
      }
    }
    (void)stranger;
  }

  void run() {
    for (int op = 0; op < 24 && in.remaining_bytes() > 0; ++op) {
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: device(); break;
        case 1: memory(); break;
        default: stream_op(); break;
      }
    }
    hipDeviceSynchronize();
    for (hipEvent_t e : events) hipEventDestroy(e);
    for (hipStream_t s : streams) hipStreamDestroy(s);
    for (const Alloc& a : allocs) {
      if (a.kind == 1) hipHostFree(a.ptr);
      else if (a.kind != 3) hipFree(a.ptr);
    }
    hipGetLastError();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Program program{in};
  program.run();
  return 0;
}
