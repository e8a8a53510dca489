// proofs/memory/publication.cpp - the publication and wake-up litmus programs, checked by axiomatic.h.
#include "proofs/memory/publication.h"

#include <chrono>

#include "proofs/memory/axiomatic.h"

namespace rocref::proofs {
namespace {

using wmm::Order;
using wmm::Program;
using wmm::Scope;

constexpr int kInvalid = 1, kDispatch = 2;  // AQL header types: INVALID 1, KERNEL_DISPATCH 2

Verdict judge(const Program& p, const wmm::Outcome& bad, const std::string& clause, const std::string& what,
              std::chrono::steady_clock::time_point t0) {
  const wmm::CheckResult r = wmm::allowed(p, bad);
  Verdict v;
  v.clause = clause;
  v.outcome = r.allowed ? Outcome::Counterexample : Outcome::Proved;
  if (r.allowed) v.trace = "  execution where " + what + ":\n" + r.execution;
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return v;
}

}  // namespace

std::string variant_name(PublicationVariant v) {
  switch (v) {
    case PublicationVariant::ReleaseAcquire: return "release header, acquire load";
    case PublicationVariant::FenceThenRelaxedStore: return "release fence + relaxed header store";
    case PublicationVariant::RelaxedHeaderStore: return "mutant: relaxed header store";
    case PublicationVariant::RelaxedHeaderLoad: return "mutant: relaxed header load";
    case PublicationVariant::AgentScopeRelease: return "mutant: AGENT-scope release from the host";
    case PublicationVariant::RecycledSlot: return "recycled slot, read_index release/acquire";
    case PublicationVariant::RecycledSlotEarlyRelease: return "mutant: read_index released before the body read";
  }
  return "?";
}

std::string variant_name(WakeVariant v) {
  switch (v) {
    case WakeVariant::ReleaseAcquireOnly: return "mutant: release/acquire only";
    case WakeVariant::SeqCstFences: return "seq_cst fences on both sides";
    case WakeVariant::FenceOnEngineOnly: return "mutant: fence on the engine side only";
    case WakeVariant::SingleWordRmw: return "RMW on one word on both sides";
  }
  return "?";
}

Verdict check_publication(PublicationVariant v) {
  const auto t0 = std::chrono::steady_clock::now();
  Program p;
  const uint32_t producer = p.thread("producer (host)", 0);
  const uint32_t processor = p.thread("packet processor (GPU)", 1);
  p.init("body", 0);
  p.init("header", kInvalid);
  p.init("doorbell", 0);
  if (v == PublicationVariant::RecycledSlot || v == PublicationVariant::RecycledSlotEarlyRelease) {
    // Slot holds packet 0 (body 10, header valid). The processor reads it, resets the header,
    // releases read_index; the producer of packet 0 + size waits for read_index, writes body 20.
    p.init("body", 10);
    p.init("header", kDispatch);
    p.init("read_index", 0);
    // (A relaxed read_index load alone is no counterexample under RC11: that is load buffering,
    // which its no-thin-air axiom forbids; releasing read_index too early is.)
    p.read(processor, "header", "h", Order::Acquire);
    if (v == PublicationVariant::RecycledSlotEarlyRelease) p.write(processor, "read_index", 1, Order::Release);
    p.read(processor, "body", "b", Order::Relaxed);
    p.write(processor, "header", kInvalid, Order::Relaxed);
    if (v == PublicationVariant::RecycledSlot) p.write(processor, "read_index", 1, Order::Release);
    p.read(producer, "read_index", "r", Order::Acquire);
    p.write(producer, "body", 20, Order::Relaxed);
    // Bad: the producer saw the slot free, yet the processor read the new body for the old packet.
    return judge(p, [](const auto& x) { return x.at("h") == kDispatch && x.at("r") == 1 && x.at("b") == 20; },
                 "AQL-IDX-2", "the processor reads packet 0's body after the producer overwrote it", t0);
  }
  p.write(producer, "body", 1, Order::Relaxed);
  switch (v) {
    case PublicationVariant::FenceThenRelaxedStore:
      p.fence(producer, Order::Release);
      p.write(producer, "header", kDispatch, Order::Relaxed);
      break;
    case PublicationVariant::RelaxedHeaderStore:
      p.write(producer, "header", kDispatch, Order::Relaxed);
      break;
    case PublicationVariant::AgentScopeRelease:
      p.write(producer, "header", kDispatch, Order::Release, Scope::Agent);
      break;
    default:
      p.write(producer, "header", kDispatch, Order::Release);
      break;
  }
  // The doorbell is a release store too (ROCR's signal store): it must not be what saves the body.
  p.write(producer, "doorbell", 1, Order::Release);
  p.read(processor, "doorbell", "d", Order::Acquire);
  p.read(processor, "header", "h", v == PublicationVariant::RelaxedHeaderLoad ? Order::Relaxed : Order::Acquire);
  p.read(processor, "body", "b", Order::Relaxed);
  return judge(p, [](const auto& x) { return x.at("h") == kDispatch && x.at("b") == 0; }, "AQL-PUB-3",
               "the processor sees a valid header and a stale body", t0);
}

Verdict check_wakeup(WakeVariant v) {
  const auto t0 = std::chrono::steady_clock::now();
  Program p;
  const uint32_t producer = p.thread("producer", 0);
  const uint32_t engine = p.thread("engine", 0);
  if (v == WakeVariant::SingleWordRmw) {
    // One word: bit 0 = engine sleeping, the rest counts doorbell stores.
    p.init("wake", 0);
    p.rmw(producer, "wake", wmm::RmwOp::Add, 2, "seen_by_producer", Order::AcqRel);
    p.rmw(engine, "wake", wmm::RmwOp::Or, 1, "seen_by_engine", Order::AcqRel);
    // Lost: the producer saw no sleeper (bit 0 clear) and the engine saw no doorbell (count 0).
    return judge(p, [](const auto& x) {
      return z3::mod(x.at("seen_by_producer"), x.at("seen_by_producer").ctx().int_val(2)) == 0 &&
             x.at("seen_by_engine") / 2 == 0;
    }, "AQL-DB-4", "the engine sleeps and the producer does not wake it", t0);
  }
  p.init("doorbell", 0);
  p.init("sleeping", 0);
  p.write(producer, "doorbell", 1, Order::Release);
  if (v == WakeVariant::SeqCstFences) p.fence(producer, Order::SeqCst);
  p.read(producer, "sleeping", "s", Order::Acquire);
  p.write(engine, "sleeping", 1, Order::Release);
  if (v == WakeVariant::SeqCstFences || v == WakeVariant::FenceOnEngineOnly) p.fence(engine, Order::SeqCst);
  p.read(engine, "doorbell", "d", Order::Acquire);
  return judge(p, [](const auto& x) { return x.at("s") == 0 && x.at("d") == 0; }, "AQL-DB-4",
               "the engine sleeps and the producer does not wake it", t0);
}

}  // namespace rocref::proofs
