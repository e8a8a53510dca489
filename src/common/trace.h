// common/trace.h - layer-by-layer trace of what the stack does.
//
// Every layer reports its steps here (hipMalloc -> pool allocate ->
// hsaKmtAllocMemory -> ALLOC_MEMORY_OF_GPU -> page-table map). Off by default:
// the ROCREF_TRACE macros test one relaxed atomic before building any string.
// Printers (text tree, Chrome/Perfetto JSON) read the recorded events.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocref::trace {

enum class Layer : uint8_t { App, Hip, Clr, Hsa, Thunk, Kfd, Gpu, Sdma, kCount };
std::string_view layer_name(Layer layer) noexcept;

enum class Phase : char { Begin = 'B', End = 'E', Instant = 'i' };

struct Event {
  Layer layer;
  Phase phase;
  std::string name;
  std::string detail;
  uint64_t time_ns;   // steady clock, since the trace was enabled
  uint32_t thread;    // small per-thread number
};

extern std::atomic<bool> g_enabled;
inline bool enabled() noexcept { return g_enabled.load(std::memory_order_relaxed); }

void enable(bool on);
void clear();
std::vector<Event> snapshot();

void record(Layer layer, Phase phase, std::string_view name, std::string detail = {});

// Begin/end pair around a scope; records nothing when tracing is off. Inline: with tracing off a
// span costs its caller a load each way, not two calls.
class Span {
 public:
  Span(Layer layer, std::string_view name, std::string detail = {}) : layer_(layer), name_(name), active_(enabled()) {
    if (active_) record(layer_, Phase::Begin, name_, std::move(detail));
  }
  ~Span() {
    if (active_) record(layer_, Phase::End, name_);
  }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  Layer layer_;
  std::string_view name_;
  bool active_;
};

}  // namespace rocref::trace

#define ROCREF_TRACE_CAT2(a, b) a##b
#define ROCREF_TRACE_CAT(a, b) ROCREF_TRACE_CAT2(a, b)
// ROCREF_TRACE_SPAN(Layer::Hsa, "hsa_queue_create", "size=" + ...): detail built only when on.
#define ROCREF_TRACE_SPAN(layer, name, detail)                                            \
  ::rocref::trace::Span ROCREF_TRACE_CAT(rocref_span_, __LINE__)(                         \
      (layer), (name), ::rocref::trace::enabled() ? std::string(detail) : std::string())
#define ROCREF_TRACE_EVENT(layer, name, detail)                                           \
  do {                                                                                    \
    if (::rocref::trace::enabled())                                                       \
      ::rocref::trace::record((layer), ::rocref::trace::Phase::Instant, (name), (detail)); \
  } while (0)
