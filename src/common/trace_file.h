// common/trace_file.h - a process's trace events and check counts, written to a file at exit (TRACE-FILE-1).
//
// When ROCREF_TRACE_FILE names a file, every copy of the trace recorder in the process (the
// drop-in libraries and the interposer each carry one) records from its load and, at exit,
// appends one section to that file: its events with steady-clock times (the same clock in
// every process) and its check counts. `rocref run PROGRAM` reads the sections back.
// The format is text, one record a line, fields separated by tabs (escaped in names and details):
//   S <pid>                                                    a section (one recorder copy)
//   E <layer> <phase> <thread> <steady ns> <name> <detail>     an event
//   C <clause> <count>                                         a check count
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/trace.h"

namespace rocref::trace {

inline constexpr const char* kTraceFileEnv = "ROCREF_TRACE_FILE";

struct TraceDump {
  std::vector<Event> events;               // time_ns on the steady clock until normalised
  std::map<std::string, uint64_t> checks;  // per clause, summed over sections
};

// When the recorder started recording (trace::enable), on the steady clock: events' time_ns count
// from here (defined in trace.cpp).
uint64_t origin_steady_ns();

// One section: `events` (times relative to `origin_ns`, the recorder's start on the steady clock).
std::string format_section(const std::vector<Event>& events, uint64_t origin_ns,
                           const std::map<std::string, uint64_t>& checks, long pid);
// Every section of `text`: events in time order, times from the earliest event, thread numbers
// made distinct across sections; malformed lines are skipped. False when no section was found.
bool parse_dump(const std::string& text, TraceDump& out);

// Called once by the recorder when it loads: with ROCREF_TRACE_FILE set, recording starts and
// the section is appended (under an exclusive lock of the file) at exit.
void arm_exit_dump();

}  // namespace rocref::trace
