// common/trace.cpp - the in-memory trace recorder (see trace.h).
#include "common/trace.h"

#include <chrono>
#include <cstdio>
#include <mutex>

#include "common/log.h"
#include "common/trace_checks.h"
#include "common/trace_file.h"

namespace rocref::trace {

// On while recording (enable) or while ROCREF_TRACE_API prints every event as it happens.
std::atomic<bool> g_enabled{log::api_trace()};

namespace {
// Never destroyed: the runtime's own threads (the HSA async handler, the GPU model's
// engines) may still close a span opened while tracing was on as the process exits.
std::mutex& g_mutex = *new std::mutex;
std::vector<Event>& g_events = *new std::vector<Event>;
std::chrono::steady_clock::time_point g_origin = std::chrono::steady_clock::now();
std::atomic<uint32_t> g_next_thread{0};
thread_local uint32_t t_thread = g_next_thread.fetch_add(1, std::memory_order_relaxed);
bool g_recording = false;  // under g_mutex

// ROCREF_TRACE_API's line: "> name detail" on entry, "< name" on return, "- name detail" for a step.
void print_event(const Event& e) {
  std::string message = std::to_string(e.time_ns / 1000) + " us " + static_cast<char>(e.phase == Phase::Begin ? '>'
                                                                                  : e.phase == Phase::End ? '<'
                                                                                                           : '-') +
                        " " + e.name;
  if (!e.detail.empty()) message += "  " + e.detail;
  log::write_line("api", std::string(layer_name(e.layer)).c_str(), message.c_str());
}
}  // namespace

std::string_view layer_name(Layer layer) noexcept {
  static constexpr std::string_view kNames[] = {"app", "hip", "clr", "hsa", "thunk", "kfd", "gpu", "sdma"};
  const auto i = static_cast<size_t>(layer);
  return i < std::size(kNames) ? kNames[i] : "?";
}

void enable(bool on) {
  std::lock_guard lock(g_mutex);
  if (on && !g_recording) g_origin = std::chrono::steady_clock::now();
  g_recording = on;
  g_enabled.store(on || log::api_trace(), std::memory_order_relaxed);
}

void clear() {
  std::lock_guard lock(g_mutex);
  g_events.clear();
  clear_check_counts();
}

uint64_t origin_steady_ns() {
  std::lock_guard lock(g_mutex);
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(g_origin.time_since_epoch()).count());
}

std::vector<Event> snapshot() {
  std::lock_guard lock(g_mutex);
  return g_events;
}

void record(Layer layer, Phase phase, std::string_view name, std::string detail) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(g_mutex);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - g_origin).count();
  Event e{layer, phase, std::string(name), std::move(detail), static_cast<uint64_t>(ns), t_thread};
  if (log::api_trace()) print_event(e);
  if (g_recording) g_events.push_back(std::move(e));
}

namespace {
// TRACE-FILE-1: under ROCREF_TRACE_FILE this copy of the recorder records from its load and
// appends its events at exit. After the recorder's own globals above, so they exist by then.
[[maybe_unused]] const bool g_exit_dump_armed = (arm_exit_dump(), true);
}  // namespace

}  // namespace rocref::trace
