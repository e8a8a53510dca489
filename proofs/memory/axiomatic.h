// proofs/memory/axiomatic.h - an axiomatic weak-memory checker for small litmus programs.
//
// RC11-style release/acquire: events (reads, writes, read-modify-writes,
// fences) per thread in program order; Z3 picks reads-from and a per-location
// modification order; happens-before is (po | sw)+ where a release write (or a
// release fence before a write) synchronises with an acquire read (or an
// acquire fence after a read) that reads from it; coherence (CoWW, CoWR, CoRW,
// CoRR), read-modify-write atomicity, no thin air (po | rf acyclic), and the
// C++ seq_cst fence rule. HSA memory scopes refine synchronisation: a release
// and an acquire on threads of different agents synchronise only at SYSTEM scope.
// A check asks whether some consistent execution satisfies a "bad" outcome.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rocref::proofs::wmm {

enum class Kind { Read, Write, Rmw, Fence };
enum class Order { Relaxed, Acquire, Release, AcqRel, SeqCst };
enum class Scope { Agent, System };  // HSA_FENCE_SCOPE_AGENT / _SYSTEM
enum class RmwOp { Add, Or, Exchange };

struct Event {
  uint32_t thread = 0;
  Kind kind = Kind::Read;
  std::string location;  // empty for fences
  Order order = Order::Relaxed;
  Scope scope = Scope::System;
  int64_t value = 0;     // written value (Write), operand (Rmw)
  RmwOp op = RmwOp::Add;
  std::string name;      // reads and RMWs: the name a predicate uses for the value read
};

class Program {
 public:
  // Threads run on agents; synchronisation across agents needs SYSTEM scope.
  uint32_t thread(std::string name, uint32_t agent);
  void init(const std::string& location, int64_t value);
  void write(uint32_t t, const std::string& loc, int64_t value, Order o, Scope s = Scope::System);
  void read(uint32_t t, const std::string& loc, const std::string& name, Order o, Scope s = Scope::System);
  void rmw(uint32_t t, const std::string& loc, RmwOp op, int64_t operand, const std::string& name, Order o,
           Scope s = Scope::System);
  void fence(uint32_t t, Order o, Scope s = Scope::System);

  const std::vector<Event>& events() const { return events_; }
  const std::map<std::string, int64_t>& initial() const { return init_; }
  const std::vector<std::string>& thread_names() const { return thread_names_; }
  const std::vector<uint32_t>& agents() const { return agents_; }

 private:
  std::vector<Event> events_;
  std::map<std::string, int64_t> init_;
  std::vector<std::string> thread_names_;
  std::vector<uint32_t> agents_;
};

// Values read, by event name.
using Outcome = std::function<z3::expr(const std::map<std::string, z3::expr>& read)>;

struct CheckResult {
  bool allowed = false;  // some consistent execution reaches the outcome
  std::string execution; // that execution: each event, what it read and from where, the mo order
};

CheckResult allowed(const Program& program, const Outcome& bad);

}  // namespace rocref::proofs::wmm
