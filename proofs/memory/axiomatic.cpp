// proofs/memory/axiomatic.cpp - the consistency axioms of axiomatic.h as Z3 constraints.
#include "proofs/memory/axiomatic.h"

#include <sstream>

namespace rocref::proofs::wmm {
namespace {

bool is_write(const Event& e) { return e.kind == Kind::Write || e.kind == Kind::Rmw; }
bool is_read(const Event& e) { return e.kind == Kind::Read || e.kind == Kind::Rmw; }
bool releases(Order o) { return o == Order::Release || o == Order::AcqRel || o == Order::SeqCst; }
bool acquires(Order o) { return o == Order::Acquire || o == Order::AcqRel || o == Order::SeqCst; }

const char* order_name(Order o) {
  switch (o) {
    case Order::Relaxed: return "rlx";
    case Order::Acquire: return "acq";
    case Order::Release: return "rel";
    case Order::AcqRel: return "acq_rel";
    case Order::SeqCst: return "sc";
  }
  return "?";
}

}  // namespace

uint32_t Program::thread(std::string name, uint32_t agent) {
  thread_names_.push_back(std::move(name));
  agents_.push_back(agent);
  return static_cast<uint32_t>(thread_names_.size() - 1);
}
void Program::init(const std::string& location, int64_t value) { init_[location] = value; }
void Program::write(uint32_t t, const std::string& loc, int64_t value, Order o, Scope s) {
  events_.push_back({t, Kind::Write, loc, o, s, value, RmwOp::Add, ""});
}
void Program::read(uint32_t t, const std::string& loc, const std::string& name, Order o, Scope s) {
  events_.push_back({t, Kind::Read, loc, o, s, 0, RmwOp::Add, name});
}
void Program::rmw(uint32_t t, const std::string& loc, RmwOp op, int64_t operand, const std::string& name, Order o,
                  Scope s) {
  events_.push_back({t, Kind::Rmw, loc, o, s, operand, op, name});
}
void Program::fence(uint32_t t, Order o, Scope s) { events_.push_back({t, Kind::Fence, "", o, s, 0, RmwOp::Add, ""}); }

CheckResult allowed(const Program& program, const Outcome& bad) {
  z3::context ctx;
  z3::solver solver(ctx);
  // Events: one initial write per location, then the program's events.
  std::vector<Event> ev;
  for (const auto& [loc, v] : program.initial()) ev.push_back({UINT32_MAX, Kind::Write, loc, Order::Relaxed, Scope::System, v, RmwOp::Add, "init"});
  const size_t first = ev.size();
  for (const Event& e : program.events()) {
    if (!e.location.empty() && !program.initial().count(e.location)) return {false, "location without initial value: " + e.location};
    ev.push_back(e);
  }
  const size_t n = ev.size();
  auto is_init = [&](size_t i) { return i < first; };
  auto po = [&](size_t a, size_t b) { return !is_init(a) && !is_init(b) && ev[a].thread == ev[b].thread && a < b; };
  auto same_agent = [&](size_t a, size_t b) {
    return is_init(a) || is_init(b) || program.agents()[ev[a].thread] == program.agents()[ev[b].thread];
  };

  // Values, modification order positions, reads-from.
  std::vector<z3::expr> value, pos, rank;
  for (size_t i = 0; i < n; ++i) {
    value.push_back(ctx.int_const(("val" + std::to_string(i)).c_str()));
    pos.push_back(ctx.int_const(("mo" + std::to_string(i)).c_str()));
    rank.push_back(ctx.int_const(("rank" + std::to_string(i)).c_str()));
  }
  std::vector<std::vector<z3::expr>> rf(n, std::vector<z3::expr>(n, ctx.bool_val(false)));
  std::map<std::string, z3::expr> read_values;
  for (size_t r = 0; r < n; ++r) {
    if (!is_read(ev[r])) continue;
    z3::expr one = ctx.bool_val(false);
    z3::expr_vector sources(ctx);
    for (size_t w = 0; w < n; ++w) {
      if (w == r || !is_write(ev[w]) || ev[w].location != ev[r].location) continue;
      rf[w][r] = ctx.bool_const(("rf" + std::to_string(w) + "_" + std::to_string(r)).c_str());
      sources.push_back(rf[w][r]);
      solver.add(z3::implies(rf[w][r], rank[w] < rank[r]));
    }
    solver.add(z3::atleast(sources, 1) && z3::atmost(sources, 1));
    read_values.emplace(ev[r].name, value[r]);
  }
  // What each write stores; a read-modify-write's store depends on what it read (value[] holds the read).
  std::vector<z3::expr> stored;
  for (size_t i = 0; i < n; ++i) {
    const Event& e = ev[i];
    if (e.kind == Kind::Write) {
      stored.push_back(ctx.int_val(e.value));
    } else if (e.kind == Kind::Rmw) {
      const z3::expr k = ctx.int_val(e.value);
      switch (e.op) {
        case RmwOp::Add: stored.push_back(value[i] + k); break;
        case RmwOp::Exchange: stored.push_back(k); break;
        case RmwOp::Or: {
          // Operands are single bits (1 or 2) in the programs here: or = add unless already set.
          const z3::expr has = z3::mod(value[i] / k, ctx.int_val(2)) == 1;
          stored.push_back(z3::ite(has, value[i], value[i] + k));
          break;
        }
      }
    } else {
      stored.push_back(ctx.int_val(0));
    }
  }
  // rf compares the reader's value with the writer's *stored* value.
  for (size_t r = 0; r < n; ++r) {
    if (!is_read(ev[r])) continue;
    for (size_t w = 0; w < n; ++w) {
      if (rf[w][r].is_false()) continue;
      solver.add(z3::implies(rf[w][r], value[r] == stored[w]));
    }
  }
  for (size_t w = 0; w < n; ++w) {
    if (!is_write(ev[w])) continue;
    if (ev[w].kind == Kind::Write) solver.add(value[w] == stored[w]);
    solver.add(is_init(w) ? pos[w] == 0 : pos[w] > 0);
    for (size_t v = w + 1; v < n; ++v) {
      if (is_write(ev[v]) && ev[v].location == ev[w].location) solver.add(pos[w] != pos[v]);
    }
  }
  // No thin air: po | rf acyclic.
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      if (po(a, b)) solver.add(rank[a] < rank[b]);
    }
  }
  // Read-modify-write atomicity: it reads the write immediately before it in mo.
  for (size_t r = 0; r < n; ++r) {
    if (ev[r].kind != Kind::Rmw) continue;
    for (size_t w = 0; w < n; ++w) {
      if (rf[w][r].is_false()) continue;
      z3::expr nothing_between = pos[w] < pos[r];
      for (size_t x = 0; x < n; ++x) {
        if (x != w && x != r && is_write(ev[x]) && ev[x].location == ev[r].location) {
          nothing_between = nothing_between && !(pos[w] < pos[x] && pos[x] < pos[r]);
        }
      }
      solver.add(z3::implies(rf[w][r], nothing_between));
    }
  }
  // Synchronises-with, through release/acquire accesses or fences, within scope.
  std::vector<std::vector<z3::expr>> hb(n, std::vector<z3::expr>(n, ctx.bool_val(false)));
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      if (po(a, b) || (is_init(a) && !is_init(b))) hb[a][b] = ctx.bool_val(true);
    }
  }
  for (size_t w = first; w < n; ++w) {
    if (!is_write(ev[w])) continue;
    for (size_t r = first; r < n; ++r) {
      if (rf[w][r].is_false() || ev[w].thread == ev[r].thread) continue;
      // Release points: the write itself, or a release fence before it in its thread.
      for (size_t x = first; x < n; ++x) {
        const bool release_point = (x == w && releases(ev[w].order)) ||
                                   (ev[x].kind == Kind::Fence && releases(ev[x].order) && po(x, w));
        if (!release_point) continue;
        for (size_t y = first; y < n; ++y) {
          const bool acquire_point = (y == r && acquires(ev[r].order)) ||
                                     (ev[y].kind == Kind::Fence && acquires(ev[y].order) && po(r, y));
          if (!acquire_point) continue;
          const bool in_scope = same_agent(x, y) || (ev[x].scope == Scope::System && ev[y].scope == Scope::System);
          if (in_scope) hb[x][y] = hb[x][y] || rf[w][r];
        }
      }
    }
  }
  for (size_t k = 0; k < n; ++k) {
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) hb[i][j] = hb[i][j] || (hb[i][k] && hb[k][j]);
    }
  }
  for (size_t i = 0; i < n; ++i) solver.add(!hb[i][i]);
  // Coherence.
  for (size_t a = 0; a < n; ++a) {
    for (size_t b = 0; b < n; ++b) {
      if (a == b || ev[a].location.empty() || ev[a].location != ev[b].location) continue;
      if (is_write(ev[a]) && is_write(ev[b])) solver.add(z3::implies(hb[a][b], pos[a] < pos[b]));  // CoWW
      if (is_write(ev[a]) && is_read(ev[b])) {  // CoWR: no read of a write hb-overwritten before it
        for (size_t w = 0; w < n; ++w) {
          if (w != a && !rf[w][b].is_false()) solver.add(z3::implies(rf[w][b] && hb[a][b], pos[a] < pos[w]));
        }
      }
      if (is_read(ev[a]) && is_write(ev[b])) {  // CoRW
        for (size_t w = 0; w < n; ++w) {
          if (!rf[w][a].is_false()) solver.add(z3::implies(rf[w][a] && hb[a][b], pos[w] < pos[b]));
        }
      }
      if (is_read(ev[a]) && is_read(ev[b])) {  // CoRR
        for (size_t w1 = 0; w1 < n; ++w1) {
          for (size_t w2 = 0; w2 < n; ++w2) {
            if (rf[w1][a].is_false() || rf[w2][b].is_false()) continue;
            solver.add(z3::implies(rf[w1][a] && rf[w2][b] && hb[a][b], pos[w1] <= pos[w2]));
          }
        }
      }
    }
  }
  // seq_cst fences: a total order S consistent with hb; for X before Y in S, a read after Y
  // sees a write before X or one mo-later (C++ [atomics.order]).
  std::vector<size_t> sc;
  for (size_t i = first; i < n; ++i) {
    if (ev[i].kind == Kind::Fence && ev[i].order == Order::SeqCst) sc.push_back(i);
  }
  std::map<size_t, z3::expr> s_pos;
  for (size_t f : sc) s_pos.emplace(f, ctx.int_const(("S" + std::to_string(f)).c_str()));
  for (size_t x : sc) {
    for (size_t y : sc) {
      if (x == y) continue;
      solver.add(s_pos.at(x) != s_pos.at(y));
      solver.add(z3::implies(hb[x][y], s_pos.at(x) < s_pos.at(y)));
      for (size_t a = first; a < n; ++a) {
        if (!is_write(ev[a]) || !po(a, x)) continue;
        for (size_t b = first; b < n; ++b) {
          if (!is_read(ev[b]) || !po(y, b) || ev[b].location != ev[a].location) continue;
          for (size_t w = 0; w < n; ++w) {
            if (!rf[w][b].is_false() && w != a) {
              solver.add(z3::implies(s_pos.at(x) < s_pos.at(y) && rf[w][b], pos[a] < pos[w]));
            }
          }
        }
      }
    }
  }
  solver.add(bad(read_values));

  CheckResult result;
  if (solver.check() != z3::sat) return result;
  result.allowed = true;
  const z3::model m = solver.get_model();
  std::ostringstream out;
  for (size_t t = 0; t < program.thread_names().size(); ++t) {
    out << "    " << program.thread_names()[t] << " (agent " << program.agents()[t] << "):\n";
    uint32_t step = 1;
    for (size_t i = first; i < n; ++i) {
      const Event& e = ev[i];
      if (e.thread != t) continue;
      out << "      " << step++ << ". ";
      switch (e.kind) {
        case Kind::Fence: out << "fence " << order_name(e.order); break;
        case Kind::Write: out << "store " << e.location << " = " << e.value << " (" << order_name(e.order) << ")"; break;
        case Kind::Read:
        case Kind::Rmw: {
          out << (e.kind == Kind::Rmw ? "rmw " : "load ") << e.location << " (" << order_name(e.order) << ") -> "
              << m.eval(value[i], true);
          for (size_t w = 0; w < n; ++w) {
            if (!rf[w][i].is_false() && m.eval(rf[w][i], true).is_true()) {
              out << "  reads from " << (is_init(w) ? std::string("the initial value") : program.thread_names()[ev[w].thread] + "'s store");
            }
          }
          break;
        }
      }
      if (e.scope == Scope::Agent && e.order != Order::Relaxed) out << " [agent scope]";
      out << "\n";
    }
  }
  result.execution = out.str();
  return result;
}

}  // namespace rocref::proofs::wmm
