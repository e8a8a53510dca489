// proofs/aql/aql_check.cpp - BMC, 1-induction with auxiliary invariants, bounded liveness.
#include "proofs/aql/aql_check.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <optional>

#include "proofs/aql/aql_encoding.h"
#include "proofs/aql/aql_invariants.h"

namespace rocref::proofs {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
// Process CPU seconds: the BMC budget counts our own work, not the time other processes take.
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

bool any_mutant(const model::AqlMutants& m) {
  return m.skip_full_check || m.doorbell_before_header || m.doorbell_over_advance || m.header_reset_after_read_index ||
         m.body_write_clears_header || m.invalid_header_consumed || m.ignore_barrier_bit || m.non_atomic_signal_decrement ||
         m.barrier_packet_does_not_block || m.barrier_value_ignores_condition;
}

z3::expr all_equal(z3::context& ctx, const SymState& a, const SymState& b) {
  z3::expr e = ctx.bool_val(true);
  const auto va = a.vars(), vb = b.vars();
  for (size_t i = 0; i < va.size(); ++i) e = e && va[i] == vb[i];
  return e;
}

z3::expr conjunction(z3::context& ctx, const std::vector<NamedFact>& facts) {
  z3::expr e = ctx.bool_val(true);
  for (const NamedFact& f : facts) e = e && f.holds;
  return e;
}

// Bit-blasting to SAT is far faster on these 64-bit terms than the incremental SMT core.
z3::solver make_solver(z3::context& ctx) {
  z3::tactic t = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "propagate-values") & z3::tactic(ctx, "solve-eqs") &
                 z3::tactic(ctx, "bit-blast") & z3::tactic(ctx, "sat");
  return t.mk_solver();
}

void configure(z3::context& ctx, z3::solver& solver, unsigned timeout_ms) {
  if (timeout_ms == 0) return;
  z3::params p(ctx);
  p.set("timeout", timeout_ms);
  solver.set(p);
}

// A path of symbolic states linked by the transition relation.
struct Path {
  std::vector<SymState> states;
  std::vector<z3::expr> choices;
  std::vector<SymStep> steps;
};

void extend(const AqlEncoding& enc, z3::solver& solver, Path& path, const std::string& tag) {
  const size_t t = path.choices.size();
  z3::expr choice = enc.ctx().bv_const((tag + "c" + std::to_string(t)).c_str(), 8);
  SymStep st = enc.transition(path.states.back(), choice);
  SymState next = enc.fresh_state(tag + "s" + std::to_string(t + 1) + ".");
  solver.add(st.enabled);
  solver.add(all_equal(enc.ctx(), next, st.next));
  path.choices.push_back(choice);
  path.steps.push_back(st);
  path.states.push_back(next);
}

AqlTrace decode_trace(const AqlEncoding& enc, const z3::model& m, const Path& path, size_t length, std::string clause) {
  AqlTrace trace{enc.config(), enc.decode(m, path.states[0]), {}, std::move(clause)};
  for (size_t t = 0; t < length; ++t) {
    uint64_t c = 0;
    m.eval(path.choices[t], true).is_numeral_u64(c);
    if (auto step = enc.step_of(static_cast<uint32_t>(c))) trace.steps.push_back(*step);
  }
  return trace;
}

// Clause conditions broken by step t (into state t+1).
std::map<std::string, z3::expr> broken_at(const AqlEncoding& enc, const Path& path, size_t t) {
  std::map<std::string, z3::expr> out;
  auto add = [&](const Clause& c) {
    auto it = out.find(c.id);
    if (it == out.end()) out.emplace(c.id, c.broken); else it->second = it->second || c.broken;
  };
  for (const Clause& c : path.steps[t].violations) add(c);
  for (const Clause& c : enc.invariants(path.states[t + 1])) add(c);
  return out;
}

}  // namespace

std::vector<std::string> aql_clauses(const model::AqlConfig& config) {
  std::vector<std::string> c{"AQL-IDX-1", "AQL-IDX-2"};
  if (config.reservation == model::Reservation::Cas) c.push_back("AQL-IDX-3");
  c.insert(c.end(), {"AQL-IDX-4", "AQL-INV-1", "AQL-INV-2", "AQL-PUB-3", "AQL-BAR-1", "AQL-RET-1", "AQL-DB-1"});
  if (config.single_queue || config.doorbell == model::DoorbellStore::Max) c.push_back("AQL-DB-2");
  if (config.mutants.doorbell_over_advance) c.push_back("AQL-DB-3");
  if (config.barrier_value_every != 0) c.push_back("AQL-BAR-4");
  c.push_back("AQL-SIG-2");
  return c;
}

AqlRun check_aql(const model::AqlConfig& config, const std::vector<std::string>& clauses, const AqlCheckOptions& options) {
  AqlRun run;
  z3::context ctx;
  AqlEncoding enc(ctx, config);
  z3::solver solver(ctx);  // collects the path; each query runs on a fresh bit-blasting solver
  Path path;
  path.states.push_back(enc.fresh_state("s0."));
  solver.add(enc.initial(path.states[0], options.start));

  std::map<std::string, AqlClauseResult> results;
  std::vector<std::string> open = clauses;
  bool gave_up = false;
  uint32_t reached = 0;
  const auto t0 = Clock::now();
  const double cpu0 = cpu_seconds();
  // Clause conditions per step; the path has a stutter action, so a violation at any depth
  // <= d is found by one query over the d-step path.
  std::vector<std::map<std::string, z3::expr>> broken;
  // Asks for a violation of an open clause at any of the steps so far; records what it finds.
  auto query = [&]() -> bool {
    z3::expr any = ctx.bool_val(false);
    for (const auto& at : broken) {
      for (const std::string& c : open) {
        if (auto it = at.find(c); it != at.end()) any = any || it->second;
      }
    }
    z3::solver q = make_solver(ctx);
    configure(ctx, q, options.timeout_ms);
    for (const z3::expr& a : solver.assertions()) q.add(a);
    q.add(any);
    const z3::check_result r = q.check();
    if (r == z3::unknown) gave_up = true;
    if (r != z3::sat) return false;
    const z3::model m = q.get_model();
    // The earliest step that breaks something names the clause(s) and ends the trace.
    for (size_t t = 0; t < broken.size(); ++t) {
      std::vector<std::string> found;
      for (const std::string& c : open) {
        auto it = broken[t].find(c);
        if (it != broken[t].end() && m.eval(it->second, true).is_true()) found.push_back(c);
      }
      if (found.empty()) continue;
      for (const std::string& c : found) {
        AqlTrace trace = decode_trace(enc, m, path, t + 1, c);
        Verdict v{Outcome::Counterexample, static_cast<uint32_t>(trace.steps.size()), c, format_trace(trace), {}, since(t0)};
        results[c] = AqlClauseResult{c, v, std::move(trace)};
        open.erase(std::find(open.begin(), open.end(), c));
      }
      return true;
    }
    return false;
  };
  // Depth by depth, so counterexamples are shortest; a depth found clean becomes a lemma
  // (no open clause broken at that step) for the deeper queries.
  for (uint32_t t = 0; t < options.depth && !gave_up; ++t) {
    if (options.bmc_budget_s > 0 && cpu_seconds() - cpu0 > options.bmc_budget_s) break;
    extend(enc, solver, path, "");
    broken.clear();
    for (size_t k = 0; k < t; ++k) broken.push_back({});
    broken.push_back(broken_at(enc, path, t));
    while (!open.empty() && query()) {
    }
    if (gave_up) break;
    for (const std::string& c : open) {
      if (auto it = broken[t].find(c); it != broken[t].end()) solver.add(!it->second);
    }
    reached = t + 1;
    if (options.progress) {
      options.progress("  depth " + std::to_string(reached) + ": " + std::to_string(open.size()) + " clauses hold");
    }
    if (open.empty()) break;
  }
  run.bmc_seconds = since(t0);

  // 1-induction: aux(s) and no clause broken in s, one step -> the same in s'.
  if (options.induction && !any_mutant(config.mutants) && !open.empty() && !gave_up) {
    const auto t1 = Clock::now();
    Path p;
    p.states.push_back(enc.fresh_state("i0."));
    auto good = [&](const SymState& s) {
      z3::expr e = conjunction(ctx, auxiliary_invariants(enc, s, options.start));
      for (const Clause& c : enc.invariants(s)) {
        if (std::find(open.begin(), open.end(), c.id) != open.end()) e = e && !c.broken;
      }
      return e;
    };
    // Base: the initial state satisfies the invariant.
    z3::solver base = make_solver(ctx);
    base.add(enc.initial(p.states[0], options.start) && !good(p.states[0]));
    const bool base_ok = base.check() == z3::unsat;
    // One query per action: each is far smaller than the whole transition relation.
    z3::check_result r = base_ok ? z3::unsat : z3::sat;
    uint32_t failing_choice = 0;
    std::optional<z3::model> cti;
    for (uint32_t c = 0; base_ok && c < enc.stutter_choice() && r == z3::unsat; ++c) {
      const SymStep st = enc.apply(p.states[0], c);
      z3::expr bad = !good(st.next);
      for (const Clause& v : st.violations) {
        if (std::find(open.begin(), open.end(), v.id) != open.end()) bad = bad || v.broken;
      }
      z3::solver q = make_solver(ctx);
      configure(ctx, q, options.timeout_ms);
      q.add(good(p.states[0]) && st.enabled && bad);
      r = q.check();
      if (r == z3::sat) {
        failing_choice = c;
        cti = q.get_model();
        const SymState next = st.next;
        for (const NamedFact& f : auxiliary_invariants(enc, next, options.start)) {
          if (!cti->eval(f.holds, true).is_true()) run.induction_note += f.name + " ";
        }
        for (const Clause& v : st.violations) {
          if (cti->eval(v.broken, true).is_true()) run.induction_note += v.id + " ";
        }
      }
    }
    run.inductive = base_ok && r == z3::unsat;
    if (!base_ok) {
      run.induction_note = "initial state breaks the auxiliary invariants";
    } else if (r == z3::sat) {
      if (auto step = enc.step_of(failing_choice)) run.induction_note += "after " + model::describe(*step);
    } else if (r == z3::unknown) {
      run.induction_note = "solver gave up";
    }
    run.induction_seconds = since(t1);
    if (options.progress) {
      options.progress(run.inductive ? "  induction: inductive" : "  induction failed: " + run.induction_note);
    }
  }

  for (const std::string& c : clauses) {
    auto it = results.find(c);
    if (it != results.end()) {
      run.clauses.push_back(it->second);
      continue;
    }
    Verdict v;
    v.clause = c;
    v.depth = reached;
    v.outcome = gave_up ? Outcome::Unknown : run.inductive ? Outcome::Proved : Outcome::Bounded;
    v.note = run.induction_note;
    v.seconds = run.bmc_seconds + run.induction_seconds;
    run.clauses.push_back(AqlClauseResult{c, v, std::nullopt});
  }
  return run;
}

Verdict check_aql_liveness(const model::AqlConfig& config, const AqlCheckOptions& options, bool from_invariant,
                           std::optional<AqlTrace>* trace_out) {
  const auto t0 = Clock::now();
  z3::context ctx;
  AqlEncoding enc(ctx, config);
  z3::solver solver(ctx);
  configure(ctx, solver, options.timeout_ms);
  Path path;
  path.states.push_back(enc.fresh_state("s0."));
  if (from_invariant) {
    z3::expr good = conjunction(ctx, auxiliary_invariants(enc, path.states[0], options.start));
    for (const Clause& c : enc.invariants(path.states[0])) good = good && !c.broken;
    solver.add(good);
  } else {
    solver.add(enc.initial(path.states[0], options.start));
    for (uint32_t t = 0; t < options.depth; ++t) extend(enc, solver, path, "");
  }
  const size_t prefix = path.choices.size();
  const auto done = enc.bv(static_cast<uint64_t>(model::ProducerPc::Done), 3);
  for (const SymProducer& p : path.states.back().producers) solver.add(p.pc == done);
  // Fair suffix: only the processor and completions move, and they move whenever they can.
  const uint32_t first_engine_choice = AqlEncoding::kProducerActionCount * config.producers;
  const uint32_t bound = 4 * config.producers * config.packets_per_producer;
  for (uint32_t t = 0; t < bound; ++t) {
    const SymState& s = path.states.back();
    z3::expr can_move = ctx.bool_val(false);
    for (uint32_t c = first_engine_choice; c < enc.stutter_choice(); ++c) can_move = can_move || enc.apply(s, c).enabled;
    z3::expr choice = ctx.bv_const(("l" + std::to_string(t)).c_str(), 8);
    solver.add(z3::uge(choice, enc.bv(first_engine_choice, 8)));
    solver.add(z3::implies(can_move, choice != enc.bv(enc.stutter_choice(), 8)));
    SymStep st = enc.transition(s, choice);
    SymState next = enc.fresh_state("l" + std::to_string(t + 1) + ".");
    solver.add(st.enabled);
    solver.add(all_equal(ctx, next, st.next));
    path.choices.push_back(choice);
    path.steps.push_back(st);
    path.states.push_back(next);
  }
  solver.add(!enc.is_final(path.states.back()));
  Verdict v;
  v.clause = "AQL-RET-3";
  const z3::check_result r = solver.check();
  v.seconds = since(t0);
  v.depth = from_invariant ? 0 : options.depth;  // a proof from the invariant covers every depth
  if (r == z3::unsat) {
    v.outcome = from_invariant ? Outcome::Proved : Outcome::Bounded;
    return v;
  }
  if (r == z3::unknown) return v;
  const z3::model m = solver.get_model();
  AqlTrace trace = decode_trace(enc, m, path, path.choices.size(), "AQL-RET-3");
  v.outcome = Outcome::Counterexample;
  v.depth = static_cast<uint32_t>(trace.steps.size());
  v.trace = format_trace(trace) + "  (then " + std::to_string(bound) +
            " fair processor and completion steps leave a published packet unconsumed; prefix was " +
            std::to_string(prefix) + " steps)\n";
  if (trace_out) *trace_out = std::move(trace);
  return v;
}

}  // namespace rocref::proofs
