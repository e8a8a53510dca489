// proofs/signals/signal_wait.cpp - BMC of the wait/wake protocol, with a completeness check.
#include "proofs/signals/signal_wait.h"

#include <chrono>
#include <sstream>
#include <vector>

#include <z3++.h>

namespace rocref::proofs {
namespace {

// Waiter program counters.
enum : uint64_t { kReadAge, kCheckValue, kReadAgeLate, kWait, kBlocked, kDone };
// Setter program counters.
enum : uint64_t { kStore, kSetEvent, kSetterDone };
const char* kWaiterPc[] = {"read-age", "check-value", "read-age", "wait-events", "blocked", "done"};

struct State {
  z3::expr value, signaled, age, setter;
  std::vector<z3::expr> pc, seen;
};

State fresh(z3::context& c, const std::string& p, uint32_t waiters) {
  State s{c.bv_const((p + "value").c_str(), 8), c.bool_const((p + "signaled").c_str()), c.bv_const((p + "age").c_str(), 8),
          c.bv_const((p + "setter").c_str(), 3), {}, {}};
  for (uint32_t i = 0; i < waiters; ++i) {
    s.pc.push_back(c.bv_const((p + "pc" + std::to_string(i)).c_str(), 3));
    s.seen.push_back(c.bv_const((p + "seen" + std::to_string(i)).c_str(), 8));
  }
  return s;
}

}  // namespace

std::string variant_name(WaitVariant v) {
  switch (v) {
    case WaitVariant::EventAge: return "event age read before the check";
    case WaitVariant::NoAge: return "mutant: check-then-sleep, no age";
    case WaitVariant::AgeReadAfterCheck: return "mutant: age read after the check";
    case WaitVariant::CasFailureIsSilent: return "failed CAS changes nothing";
    case WaitVariant::CasWakesOnFailure: return "mutant: failed CAS sets the event";
  }
  return "?";
}

Verdict check_signal_wait(WaitVariant v, uint32_t waiters, uint32_t depth) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool cas = v == WaitVariant::CasFailureIsSilent || v == WaitVariant::CasWakesOnFailure;
  const bool age = v != WaitVariant::NoAge;
  const bool late_age = v == WaitVariant::AgeReadAfterCheck;
  // Longest run: the setter's 2 steps; a waiter makes at most three rounds of 4 steps (the first
  // wait, one return on the new age, one on the signaled event).
  if (depth == 0) depth = 2 + 12 * waiters + 2;
  z3::context c;
  z3::solver solver(c);
  auto bv = [&](uint64_t x, unsigned w) { return c.bv_val(x, w); };
  const uint64_t kWaitedFor = 1, kCasExpected = 5;

  std::vector<State> st{fresh(c, "s0.", waiters)};
  z3::expr init = st[0].value == bv(0, 8) && !st[0].signaled && st[0].age == bv(0, 8) && st[0].setter == bv(kStore, 3);
  for (uint32_t i = 0; i < waiters; ++i) init = init && st[0].pc[i] == bv(late_age ? kCheckValue : kReadAge, 3) && st[0].seen[i] == bv(0, 8);
  solver.add(init);

  std::vector<z3::expr> choices, bad_at;
  for (uint32_t t = 0; t < depth; ++t) {
    const State& s = st.back();
    State n = fresh(c, "s" + std::to_string(t + 1) + ".", waiters);
    z3::expr choice = c.bv_const(("c" + std::to_string(t)).c_str(), 8);
    choices.push_back(choice);
    z3::expr_vector options(c);
    z3::expr sig5 = c.bool_val(false);
    auto keep_waiters = [&](int except) {
      z3::expr e = c.bool_val(true);
      for (uint32_t i = 0; i < waiters; ++i) {
        if (static_cast<int>(i) != except) e = e && n.pc[i] == s.pc[i] && n.seen[i] == s.seen[i];
      }
      return e;
    };
    // Waiter i.
    for (uint32_t i = 0; i < waiters; ++i) {
      const z3::expr pc = s.pc[i];
      const z3::expr satisfied = s.value == bv(kWaitedFor, 8);
      const z3::expr guard = pc != bv(kBlocked, 3) && pc != bv(kDone, 3);
      const z3::expr to_wait_or_late = bv(late_age ? kReadAgeLate : kWait, 3);
      z3::expr next_pc = z3::ite(pc == bv(kReadAge, 3), bv(kCheckValue, 3),
                         z3::ite(pc == bv(kCheckValue, 3), z3::ite(satisfied, bv(kDone, 3), to_wait_or_late),
                         z3::ite(pc == bv(kReadAgeLate, 3), bv(kWait, 3),
                         // WAIT_EVENTS: returns at once on a newer age or a signaled event, else blocks.
                         z3::ite((age ? s.age != s.seen[i] : c.bool_val(false)) || s.signaled,
                                 bv(late_age ? kCheckValue : kReadAge, 3), bv(kBlocked, 3)))));
      const z3::expr reads_age = pc == bv(kReadAge, 3) || pc == bv(kReadAgeLate, 3);
      const z3::expr consumes = pc == bv(kWait, 3) && !(age ? s.age != s.seen[i] : c.bool_val(false)) && s.signaled;
      const z3::expr chosen = choice == bv(i, 8);
      options.push_back(chosen && guard && n.pc[i] == next_pc &&
                        n.seen[i] == z3::ite(reads_age && c.bool_val(age), s.age, s.seen[i]) &&
                        n.signaled == (s.signaled && !consumes) &&  // auto-reset on consumption
                        n.value == s.value && n.age == s.age && n.setter == s.setter && keep_waiters(static_cast<int>(i)));
    }
    // The setter: store (or CAS), then SET_EVENT.
    {
      const z3::expr chosen = choice == bv(waiters, 8);
      z3::expr any_blocked = c.bool_val(false);
      for (uint32_t i = 0; i < waiters; ++i) any_blocked = any_blocked || s.pc[i] == bv(kBlocked, 3);
      z3::expr wake_all = c.bool_val(true);
      for (uint32_t i = 0; i < waiters; ++i) {
        wake_all = wake_all && n.seen[i] == s.seen[i] &&
                   n.pc[i] == z3::ite(s.pc[i] == bv(kBlocked, 3), bv(late_age ? kCheckValue : kReadAge, 3), s.pc[i]);
      }
      const z3::expr set_event = n.age == s.age + bv(1, 8) && n.signaled == !any_blocked && wake_all;
      const z3::expr no_event = n.age == s.age && n.signaled == s.signaled && keep_waiters(-1);
      z3::expr step = c.bool_val(false);
      if (!cas) {
        step = (s.setter == bv(kStore, 3) && n.value == bv(kWaitedFor, 8) && n.setter == bv(kSetEvent, 3) && no_event) ||
               (s.setter == bv(kSetEvent, 3) && n.value == s.value && n.setter == bv(kSetterDone, 3) && set_event);
      } else {
        // hsa_signal_cas(expected 5, desired 1) on a signal holding 0: the compare fails.
        const z3::expr success = s.value == bv(kCasExpected, 8);
        const z3::expr wakes = v == WaitVariant::CasWakesOnFailure ? c.bool_val(true) : success;
        step = s.setter == bv(kStore, 3) && n.setter == bv(kSetterDone, 3) &&
               n.value == z3::ite(success, bv(kWaitedFor, 8), s.value) && z3::ite(wakes, set_event, no_event);
        sig5 = chosen && !success && (n.age != s.age || n.signaled != s.signaled);
      }
      options.push_back(chosen && step);
    }
    // Stutter, only once every thread has ended or blocks: it pads finished runs to the bound.
    z3::expr ended = s.setter == bv(kSetterDone, 3);
    for (uint32_t i = 0; i < waiters; ++i) ended = ended && (s.pc[i] == bv(kBlocked, 3) || s.pc[i] == bv(kDone, 3));
    options.push_back(choice == bv(waiters + 1, 8) && ended && n.value == s.value && n.signaled == s.signaled && n.age == s.age &&
                      n.setter == s.setter && keep_waiters(-1));
    solver.add(z3::mk_or(options));
    if (cas) {
      bad_at.push_back(sig5);
    } else {
      z3::expr sleeping = c.bool_val(false);
      for (uint32_t i = 0; i < waiters; ++i) sleeping = sleeping || n.pc[i] == bv(kBlocked, 3);
      bad_at.push_back(n.setter == bv(kSetterDone, 3) && sleeping);
    }
    st.push_back(n);
  }

  Verdict verdict;
  verdict.clause = cas ? "AQL-SIG-5" : "AQL-SIG-4";
  verdict.depth = depth;
  solver.push();
  solver.add(z3::mk_or([&] { z3::expr_vector e(c); for (auto& b : bad_at) e.push_back(b); return e; }()));
  if (solver.check() == z3::sat) {
    const z3::model m = solver.get_model();
    std::ostringstream out;
    uint32_t shown = 0;
    out << "  counterexample for " << verdict.clause << " (" << waiters << " waiters, one setter)\n";
    for (size_t t = 0; t < choices.size(); ++t) {
      const uint64_t ch = m.eval(choices[t], true).get_numeral_uint64();
      if (ch == waiters + 1) continue;
      ++shown;
      const State& a = st[t];
      const State& b = st[t + 1];
      out << "    " << t + 1 << ". ";
      if (ch < waiters) {
        out << "waiter " << ch << " " << kWaiterPc[m.eval(a.pc[ch], true).get_numeral_uint64()] << " -> "
            << kWaiterPc[m.eval(b.pc[ch], true).get_numeral_uint64()];
      } else {
        out << "setter " << (cas ? "CAS" : m.eval(a.setter, true).get_numeral_uint64() == kStore ? "store value" : "SET_EVENT");
      }
      out << "   value=" << m.eval(b.value, true) << " age=" << m.eval(b.age, true)
          << " signaled=" << (m.eval(b.signaled, true).is_true() ? 1 : 0) << "\n";
      if (m.eval(bad_at[t], true).is_true()) {
        out << "    ^ breaks " << verdict.clause
            << (cas ? ": the compare failed, yet the event was set" : ": the value is stored and SET_EVENT done, a waiter sleeps forever")
            << "\n";
        verdict.depth = shown;
        break;
      }
    }
    verdict.outcome = Outcome::Counterexample;
    verdict.trace = out.str();
  } else {
    solver.pop();
    // Completeness: if no execution can still move after the last step, the bound covers every run.
    const State& last = st.back();
    z3::expr alive = last.setter != bv(kSetterDone, 3);
    for (uint32_t i = 0; i < waiters; ++i) alive = alive || (last.pc[i] != bv(kBlocked, 3) && last.pc[i] != bv(kDone, 3));
    solver.add(alive);
    verdict.outcome = solver.check() == z3::unsat ? Outcome::Proved : Outcome::Bounded;
    if (verdict.outcome == Outcome::Proved) verdict.note = "every execution ends within the bound";
  }
  verdict.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return verdict;
}

}  // namespace rocref::proofs
