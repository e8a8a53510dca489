// proofs/verify/catalog.cpp - the default proof runs and mutants (see proofs/README.md for the table).
#include "proofs/verify/catalog.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>

#include "proofs/aql/aql_check.h"
#include "proofs/gpuvm/gpuvm_proofs.h"
#include "proofs/memory/publication.h"
#include "proofs/signals/signal_wait.h"

namespace rocref::proofs {
namespace {

std::ostream* g_progress = nullptr;  // run_catalog's progress stream, for per-depth dots
void dot(const std::string& line) {
  if (g_progress == nullptr) return;
  if (line.find("induction") != std::string::npos) *g_progress << " [" << line.substr(2) << "]";
  else *g_progress << '.';
  *g_progress << std::flush;
}

const std::map<std::string, std::string>& clause_names() {
  static const std::map<std::string, std::string> names{
      {"AQL-IDX-1", "read_index never passes write_index"},
      {"AQL-IDX-2", "no slot overwritten before consumed"},
      {"AQL-IDX-3", "CAS: read <= write <= read + size"},
      {"AQL-IDX-4", "fetch_add: writer's id in [read, read + size)"},
      {"AQL-INV-1", "no INVALID packet consumed"},
      {"AQL-INV-2", "consumed only after its header is published"},
      {"AQL-PUB-3", "no stale body consumed"},
      {"AQL-BAR-1", "barrier bit: launch after earlier packets completed"},
      {"AQL-BAR-4", "BARRIER_VALUE: completes on its condition, blocks later launches"},
      {"AQL-RET-1", "header reset before read advance: none erased"},
      {"AQL-DB-1", "doorbell names only published packets"},
      {"AQL-DB-2", "doorbell monotonic"},
      {"AQL-DB-3", "doorbell not advanced past published packets"},
      {"AQL-SIG-2", "completion signal decremented once per packet"},
  };
  return names;
}

std::string clause_title(const std::string& c) {
  auto it = clause_names().find(c);
  return c + " " + (it == clause_names().end() ? std::string() : it->second);
}

struct AqlSetup {
  uint32_t producers, ring, packets, depth;
  double budget_s;  // BMC deepens until depth or this many seconds
  model::Reservation reservation = model::Reservation::FetchAdd;
  model::DoorbellStore doorbell = model::DoorbellStore::Plain;
  bool single_queue = false;
  uint64_t start = 0;
  uint32_t barrier_value_every = 0;  // AQL-BAR-4: BARRIER_VALUE packets among the others
};

model::AqlConfig to_config(const AqlSetup& s) {
  model::AqlConfig c;
  c.producers = s.producers;
  c.ring_size = s.ring;
  c.packets_per_producer = s.packets;
  c.reservation = s.reservation;
  c.doorbell = s.doorbell;
  c.single_queue = s.single_queue;
  c.barrier_every = 2;
  c.barrier_value_every = s.barrier_value_every;
  return c;
}

std::string describe(const AqlSetup& s) {
  std::ostringstream o;
  o << "P=" << s.producers << " ring=" << s.ring << " pkts=" << s.packets * s.producers << ' '
    << (s.reservation == model::Reservation::Cas     ? "cas"
        : s.reservation == model::Reservation::Plain ? "plain-reserve"
                                                     : "fetch_add")
    << ' '
    << (s.doorbell == model::DoorbellStore::Max ? "max-db"
        : s.single_queue                        ? "single-db"
                                                : "plain-db");
  if (s.start) o << " start=2^64-" << (0 - s.start);
  if (s.barrier_value_every) o << " barrier-value/" << s.barrier_value_every;
  return o.str();
}

Check safety_check(const AqlSetup& s) {
  return Check{"aql-safety", describe(s), [s] {
    AqlCheckOptions o;
    o.depth = s.depth;
    o.start = s.start;
    o.bmc_budget_s = s.budget_s;
    o.progress = dot;
    const model::AqlConfig cfg = to_config(s);
    const AqlRun run = check_aql(cfg, aql_clauses(cfg), o);
    std::vector<Row> rows;
    for (const AqlClauseResult& r : run.clauses) {
      Row row{clause_title(r.clause), describe(s), r.verdict, false, {}, true};
      // Plain doorbell stores from several producers go backwards: shown on purpose.
      if (r.clause == "AQL-DB-2" && s.producers > 1 && s.doorbell == model::DoorbellStore::Plain) {
        row.expect_counterexample = true;
        row.expect_clauses = {"AQL-DB-2"};
        row.property += " (plain stores, several producers: expected to fail)";
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }};
}

Check liveness_check(const AqlSetup& s, bool mutant) {
  const std::string cfg = describe(s) + (mutant ? " mutant header_reset_after_read_index" : "");
  return Check{"aql-liveness", cfg, [s, mutant, cfg] {
    model::AqlConfig c = to_config(s);
    c.mutants.header_reset_after_read_index = mutant;
    AqlCheckOptions o;
    o.depth = s.depth;
    o.start = s.start;
    Verdict v = check_aql_liveness(c, o, !mutant);
    Row row{"AQL-RET-3 producers stop -> all consumed (fair, bounded)", cfg, v, mutant, {"AQL-RET-3"}, !mutant};
    return std::vector<Row>{row};
  }};
}

struct AqlMutantCase {
  const char* name;
  bool model::AqlMutants::*flag;
  model::Reservation reservation;
  std::vector<std::string> clauses;
  // The flag names a rocref::Mutant of common/aql_protocol.h: the encoding takes the
  // planted branch of src/'s code. Otherwise it is a bug of the model's own steps.
  bool in_src = true;
};

Check mutant_check(const AqlMutantCase& m, uint32_t depth) {
  const std::string cfg = std::string("mutant ") + m.name + (m.reservation == model::Reservation::Cas ? " (cas)" : "");
  return Check{"aql-mutants", cfg, [m, depth, cfg] {
    // One producer reaches every mutant's counterexample, in fewer steps than two.
    AqlSetup s{1, 2, 3, depth, 0, m.reservation};
    model::AqlConfig c = to_config(s);
    c.mutants.*m.flag = true;
    if (m.flag == &model::AqlMutants::ignore_barrier_bit) c.barrier_every = 1;  // shortest counterexample
    if (m.flag == &model::AqlMutants::barrier_packet_does_not_block ||
        m.flag == &model::AqlMutants::barrier_value_ignores_condition) {
      c.barrier_value_every = 1;  // every packet a BARRIER_VALUE: the shortest counterexample
    }
    AqlCheckOptions o;
    o.depth = depth;
    o.induction = false;
    const AqlRun run = check_aql(c, m.clauses, o);
    Row row{m.in_src ? "src mutant (common/aql_protocol.h) must be caught" : "model mutant must be caught",
            cfg + " P=1 ring=2", {}, true, m.clauses};
    row.verdict = run.clauses.front().verdict;
    for (const AqlClauseResult& r : run.clauses) {
      if (r.verdict.outcome == Outcome::Counterexample) row.verdict = r.verdict;
    }
    return std::vector<Row>{row};
  }};
}

// AQL-IDX-7: the plain load+store reservation is for a queue's one producer; two
// producers on it own the same packet id and one overwrites the other's slot.
Check plain_reservation_shared_check(uint32_t depth) {
  const AqlSetup s{2, 2, 1, depth, 0, model::Reservation::Plain};
  const std::string cfg = describe(s);
  return Check{"aql-mutants", cfg, [s, cfg] {
                 AqlCheckOptions o;
                 o.depth = s.depth;
                 o.induction = false;
                 const AqlRun run = check_aql(to_config(s), {"AQL-IDX-2"}, o);
                 Row row{"AQL-IDX-7 two producers on the plain reservation must be caught",
                         cfg,
                         run.clauses.front().verdict,
                         true,
                         {"AQL-IDX-2"}};
                 return std::vector<Row>{row};
               }};
}

template <typename Variant, typename Fn>
Check variant_check(const std::string& property, Variant v, bool mutant, Fn fn, const std::string& clause) {
  const std::string name = variant_name(v);
  return Check{property, name, [=] {
    return std::vector<Row>{Row{property, name, fn(v), mutant, {clause}, !mutant}};
  }};
}

}  // namespace

std::vector<Check> catalog(const VerifyOptions& opt) {
  std::vector<Check> checks;
  const uint32_t small_depth = opt.depth.value_or(opt.quick ? 8 : 30);
  const uint32_t large_depth = opt.depth.value_or(opt.quick ? 8 : 30);
  // BMC stops deepening at its budget (the table shows the depth reached); induction then proves
  // the clauses for every depth. An explicit --depth lifts the budget.
  const double budget = opt.depth ? 0 : opt.quick ? 5 : 30;
  using R = model::Reservation;
  using D = model::DoorbellStore;
  std::vector<AqlSetup> safety;
  if (opt.producers || opt.ring) {
    const uint32_t p = opt.producers.value_or(2), r = opt.ring.value_or(4);
    const uint32_t pkts = std::max<uint32_t>(2, (r + p) / p);  // enough packets to reuse every slot
    for (R res : {R::FetchAdd, R::Cas}) safety.push_back({p, r, pkts, large_depth, budget, res, D::Max});
  } else if (opt.quick) {
    safety = {{1, 2, 2, small_depth, budget, R::FetchAdd, D::Plain, true},
              {1, 2, 2, small_depth, budget, R::Plain, D::Plain, true},
              {2, 2, 2, small_depth, budget, R::Cas, D::Max},
              {2, 2, 1, small_depth, budget, R::FetchAdd, D::Max, false, ~uint64_t{0}},  // ids 2^64-1, 0
              {2, 2, 2, small_depth, budget, R::FetchAdd, D::Max, false, 0, 3}};
  } else {
    safety = {
        {1, 2, 3, small_depth, budget, R::FetchAdd, D::Plain, true},
        // AQL-IDX-7: a SINGLE queue's plain reservation, also across 2^64.
        {1, 2, 3, small_depth, budget, R::Plain, D::Plain, true},
        {1, 2, 3, small_depth, budget, R::Plain, D::Plain, true, ~uint64_t{0} - 2},
        {2, 2, 2, small_depth, budget, R::FetchAdd, D::Max},
        {2, 2, 2, small_depth, budget, R::Cas, D::Plain, true},
        {2, 2, 2, small_depth, budget, R::FetchAdd, D::Plain, false, ~uint64_t{0} - 2},
        // AQL-DB-2 across 2^64: a max-store doorbell that compared ids as plain integers sticks at 2^64-1.
        {2, 2, 2, small_depth, budget, R::FetchAdd, D::Max, false, ~uint64_t{0} - 2},
        {2, 2, 2, small_depth, budget, R::FetchAdd, D::Max, false, 0, 3},
        {3, 4, 2, large_depth, budget, R::Cas, D::Max},
        {3, 8, 3, large_depth, budget, R::FetchAdd, D::Max},
    };
  }
  for (const AqlSetup& s : safety) checks.push_back(safety_check(s));

  checks.push_back(liveness_check(AqlSetup{2, 2, 2, 0, 0, R::FetchAdd, D::Plain}, false));
  if (!opt.quick) checks.push_back(liveness_check(AqlSetup{3, 4, 2, 0, 0, R::Cas, D::Max}, false));

  if (opt.mutants) {
    const uint32_t d = opt.quick ? 18 : 20;  // the longest model mutant trace (non-atomic decrement) has 17 steps
    const AqlMutantCase cases[] = {
        {"skip_full_check", &model::AqlMutants::skip_full_check, model::Reservation::FetchAdd, {"AQL-IDX-4", "AQL-IDX-2"}},
        {"skip_full_check", &model::AqlMutants::skip_full_check, model::Reservation::Cas, {"AQL-IDX-3"}},
        {"doorbell_before_header", &model::AqlMutants::doorbell_before_header, model::Reservation::FetchAdd, {"AQL-DB-1"}},
        {"doorbell_over_advance", &model::AqlMutants::doorbell_over_advance, model::Reservation::FetchAdd, {"AQL-DB-3"}},
        {"header_reset_after_read_index", &model::AqlMutants::header_reset_after_read_index, model::Reservation::FetchAdd,
         {"AQL-RET-1", "AQL-IDX-2"}},
        {"vendor_type0_on_recycled_slot", &model::AqlMutants::body_write_clears_header, model::Reservation::FetchAdd,
         {"AQL-INV-2"}, false},
        {"invalid_header_consumed", &model::AqlMutants::invalid_header_consumed, model::Reservation::FetchAdd, {"AQL-INV-1"}},
        {"ignore_barrier_bit", &model::AqlMutants::ignore_barrier_bit, model::Reservation::FetchAdd, {"AQL-BAR-1"}},
        {"non_atomic_signal_decrement", &model::AqlMutants::non_atomic_signal_decrement, model::Reservation::FetchAdd,
         {"AQL-SIG-2"}, false},
        {"barrier_packet_does_not_block", &model::AqlMutants::barrier_packet_does_not_block, model::Reservation::FetchAdd,
         {"AQL-BAR-4"}},
        {"barrier_value_ignores_condition", &model::AqlMutants::barrier_value_ignores_condition,
         model::Reservation::FetchAdd, {"AQL-BAR-4"}},
    };
    for (const AqlMutantCase& m : cases) checks.push_back(mutant_check(m, d));
    checks.push_back(plain_reservation_shared_check(d));
    checks.push_back(liveness_check(AqlSetup{1, 2, 3, opt.quick ? 18u : 20u, 0}, true));
  }

  using PV = PublicationVariant;
  for (PV v : {PV::ReleaseAcquire, PV::FenceThenRelaxedStore, PV::RecycledSlot}) {
    checks.push_back(variant_check("weak-memory publication", v, false, check_publication, "AQL-PUB-3"));
  }
  using WV = WakeVariant;
  for (WV v : {WV::SeqCstFences, WV::SingleWordRmw}) {
    checks.push_back(variant_check("weak-memory wake-up", v, false, check_wakeup, "AQL-DB-4"));
  }
  checks.push_back(variant_check("signal wait/wake", WaitVariant::EventAge, false,
                                 [](WaitVariant v) { return check_signal_wait(v); }, "AQL-SIG-4"));
  checks.push_back(variant_check("signal CAS", WaitVariant::CasFailureIsSilent, false,
                                 [](WaitVariant v) { return check_signal_wait(v); }, "AQL-SIG-5"));
  if (opt.mutants) {
    for (PV v : {PV::RelaxedHeaderStore, PV::RelaxedHeaderLoad, PV::AgentScopeRelease, PV::RecycledSlotEarlyRelease}) {
      checks.push_back(variant_check("weak-memory publication", v, true, check_publication,
                                     v == PV::RecycledSlotEarlyRelease ? "AQL-IDX-2" : "AQL-PUB-3"));
    }
    for (WV v : {WV::ReleaseAcquireOnly, WV::FenceOnEngineOnly}) {
      checks.push_back(variant_check("weak-memory wake-up", v, true, check_wakeup, "AQL-DB-4"));
    }
    for (WaitVariant v : {WaitVariant::NoAge, WaitVariant::AgeReadAfterCheck}) {
      checks.push_back(variant_check("signal wait/wake", v, true, [](WaitVariant w) { return check_signal_wait(w); },
                                     "AQL-SIG-4"));
    }
    checks.push_back(variant_check("signal CAS", WaitVariant::CasWakesOnFailure, true,
                                   [](WaitVariant v) { return check_signal_wait(v); }, "AQL-SIG-5"));
  }

  if (!opt.property.empty()) {
    std::vector<Check> kept;
    for (Check& c : checks) {
      if (c.property.find(opt.property) != std::string::npos || c.configuration.find(opt.property) != std::string::npos) {
        kept.push_back(std::move(c));
      }
    }
    checks = std::move(kept);
  }
  // GPUVM page tables (spec/gpuvm.md): each clause proved, each paired with its planted bug.
  const bool quick = opt.quick;
  const bool mutants = opt.mutants;
  checks.push_back(Check{"gpuvm", "4-level tables, 9 bits a level, 4 KiB pages, TLB", [quick, mutants] {
    std::vector<Row> rows;
    for (const gpuvm::ProofResult& r : gpuvm::run_gpuvm_proofs(quick)) {
      // VM-PT-3 is a bounded check by design (spec/gpuvm.md); every other GPUVM clause must close.
      rows.push_back(Row{"gpuvm " + r.clause + ": " + r.name, "page tables", r.verdict, false, {},
                         r.clause != "VM-PT-3"});
      if (mutants) {
        Verdict caught = r.mutant_verdict;
        if (caught.clause.empty()) caught.clause = r.clause;
        rows.push_back(Row{"gpuvm mutant: " + r.mutant, "page tables", caught, true, {r.clause}});
      }
    }
    return rows;
  }});
  return checks;
}

bool row_passes(const Row& row) {
  const Verdict& v = row.verdict;
  if (!row.expect_counterexample) {
    if (row.expect_proved) return v.outcome == Outcome::Proved;
    return v.outcome == Outcome::Proved || v.outcome == Outcome::Bounded;
  }
  if (v.outcome != Outcome::Counterexample) return false;
  if (row.expect_clauses.empty()) return true;
  for (const std::string& c : row.expect_clauses) {
    if (c == v.clause) return true;
  }
  return false;
}

int run_catalog(const VerifyOptions& options, std::ostream& progress, std::ostream& out) {
  const std::vector<Check> checks = catalog(options);
  g_progress = &progress;
  std::vector<Row> rows;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < checks.size(); ++i) {
    progress << "[" << i + 1 << "/" << checks.size() << "] " << checks[i].property << ": " << checks[i].configuration << " ..."
             << std::flush;
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<Row> got = checks[i].run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    int failed = 0;
    for (const Row& r : got) failed += !row_passes(r);
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.1f s%s\n", s, failed ? "  FAILED" : "");
    progress << buf << std::flush;
    for (Row& r : got) rows.push_back(std::move(r));
  }
  int failures = 0;
  char line[512];
  std::snprintf(line, sizeof line, "%-62s %-46s %-44s %8s\n", "property", "configuration", "result", "time");
  out << line << std::string(163, '-') << "\n";
  for (const Row& r : rows) {
    const bool ok = row_passes(r);
    failures += !ok;
    std::string result = outcome_text(r.verdict);
    if (r.expect_counterexample) result += ok ? " caught" : " NOT CAUGHT";
    else if (!ok) result += "  FAILED";
    std::snprintf(line, sizeof line, "%-62.62s %-46.46s %-44.44s %7.1fs\n", r.property.c_str(), r.configuration.c_str(),
                  result.c_str(), r.verdict.seconds);
    out << line;
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out << std::string(163, '-') << "\n" << rows.size() << " rows, " << failures << " failing, " << total << " s\n";
  if (options.traces) {
    for (const Row& r : rows) {
      if (!r.verdict.trace.empty()) out << "\n" << r.property << " / " << r.configuration << ":\n" << r.verdict.trace;
    }
  }
  if (failures) {
    out << "\nfailing rows:\n";
    for (const Row& r : rows) {
      if (!row_passes(r)) out << r.property << " / " << r.configuration << ": " << outcome_text(r.verdict) << " " << r.verdict.note << "\n" << r.verdict.trace;
    }
  }
  return failures;
}

}  // namespace rocref::proofs
