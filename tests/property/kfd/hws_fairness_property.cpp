// tests/property/kfd/hws_fairness_property.cpp - the hardware scheduler's decisions over random
// queue populations: slots, priorities, the fairness bound, map/unmap (KFD-HWS-1, -2, -4, -5).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "kfd/hw_scheduler.h"
#include "kfd/kfd_mutant.h"

namespace {

using rocref::kfd::HwQueue;
using rocref::kfd::HwScheduler;
using rocref::kfd::KfdMutant;

// A queue with endless work while `ready`; it records the scheduler's calls.
struct PropQueue : HwQueue {
  PropQueue(uint32_t prio, uint32_t proc) : prio_(prio), proc_(proc) {}
  uint32_t priority() const noexcept override { return prio_; }
  uint32_t process() const noexcept override { return proc_; }
  bool runnable() noexcept override { return ready; }
  bool step() noexcept override {
    if (!on_slot) bad = "stepped while not mapped";
    return ready;
  }
  void map() noexcept override {
    if (on_slot) bad = "mapped twice";
    on_slot = true;
  }
  void unmap() noexcept override {
    if (!on_slot) bad = "unmapped while not mapped";
    on_slot = false;
  }
  uint32_t prio_;
  uint32_t proc_;
  bool ready = true;
  bool on_slot = false;
  std::string bad;
  // The test's record: eligible slices not mapped since its last mapping, and the queue count
  // then (the bound's N).
  uint64_t waited = 0;
  uint64_t n_at_start = 0;
};

// Between two slices: one change to the population, chosen by `kind`.
struct Change {
  uint8_t kind;   // 0-3 toggle runnable, 4 add, 5 remove, 6 new priority, 7 none
  uint8_t index;  // of the queue concerned (modulo the population)
  uint8_t value;  // priority or process of a new queue
};

// Few priorities and processes, so ties and the process limit matter.
constexpr uint32_t kPriorities[] = {3, 7, 7, 12};

struct Setup {
  uint8_t pipes, slots_per_pipe, max_processes, quantum;
  std::vector<std::pair<uint8_t, uint8_t>> queues;  // priority index, process
  std::vector<std::vector<Change>> slices;
};

std::string check_run(const Setup& in) {
  const unsigned pipes = 1 + in.pipes % 2, per_pipe = 1 + in.slots_per_pipe % 4;
  const unsigned max_procs = in.max_processes % 4;  // 0: no limit
  HwScheduler s(pipes, per_pipe, 1 + in.quantum % 3, max_procs);
  const uint64_t slots = s.slots();
  const uint64_t per_slice = max_procs == 0 ? slots : std::min<uint64_t>(slots, max_procs);
  std::vector<std::unique_ptr<PropQueue>> qs;
  auto add = [&](uint8_t prio, uint8_t proc) {
    qs.push_back(std::make_unique<PropQueue>(kPriorities[prio % 4], proc % 5));
    qs.back()->n_at_start = qs.size();
    s.add(qs.back().get());
  };
  for (auto [prio, proc] : in.queues) add(prio, proc);
  std::ostringstream log;
  log << "slots " << slots << ", processes per slice " << max_procs << "\n";
  for (size_t slice = 0; slice < in.slices.size(); ++slice) {
    for (const Change& c : in.slices[slice]) {
      if (c.kind == 4 || qs.empty()) {
        add(c.value, c.value / 4);
        continue;
      }
      PropQueue& q = *qs[c.index % qs.size()];
      if (c.kind < 4) {
        q.ready = !q.ready;
      } else if (c.kind == 5) {
        s.remove(&q);
        qs.erase(qs.begin() + static_cast<ptrdiff_t>(c.index % qs.size()));
      } else if (c.kind == 6) {
        q.prio_ = kPriorities[c.value % 4];
      }
    }
    // What the scheduler will see: the runnable queues and the top priority among them.
    uint32_t top = 0;
    bool any = false;
    for (auto& q : qs) {
      if (q->ready) top = any ? std::max(top, q->prio_) : q->prio_, any = true;
    }
    s.run_slice();
    const std::vector<HwQueue*> mapped = s.mapped();
    std::set<uint32_t> procs;
    uint32_t lowest_mapped = UINT32_MAX;
    for (HwQueue* h : mapped) {
      procs.insert(h->process());
      lowest_mapped = std::min(lowest_mapped, h->priority());
    }
    log << "slice " << slice << ": " << qs.size() << " queues, mapped";
    for (size_t i = 0; i < qs.size(); ++i)
      if (qs[i]->on_slot) log << " " << i;
    log << "\n";
    // KFD-HWS-1
    if (mapped.size() > slots) return log.str() + "KFD-HWS-1: more queues mapped than slots";
    if (max_procs != 0 && procs.size() > max_procs) return log.str() + "KFD-HWS-1: more processes than the limit";
    for (size_t i = 0; i < qs.size(); ++i) {
      PropQueue& q = *qs[i];
      const bool on = std::find(mapped.begin(), mapped.end(), &q) != mapped.end();
      if (!q.bad.empty()) return log.str() + "KFD-HWS-5: queue " + std::to_string(i) + " " + q.bad;
      if (on != q.on_slot) return log.str() + "KFD-HWS-5: queue " + std::to_string(i) + " mapped without map()";
      if (on && !q.ready) return log.str() + "KFD-HWS-1: idle queue " + std::to_string(i) + " mapped";
      // KFD-HWS-2: a runnable queue left out while a lower one is mapped, unless its process
      // was left out by the process limit.
      const bool process_left_out = max_procs != 0 && procs.size() == max_procs && !procs.count(q.proc_);
      if (!on && q.ready && lowest_mapped < q.prio_ && !process_left_out)
        return log.str() + "KFD-HWS-2: queue " + std::to_string(i) + " left out for a lower priority";
      // KFD-HWS-4: a queue runnable at the top priority waits at most ceil(N / m) - 1 such
      // slices, N the queue count when it was last mapped (or arrived), m = min(S, P).
      if (on) {
        q.waited = 0;
        q.n_at_start = qs.size();
      } else if (q.ready && q.prio_ == top) {
        ++q.waited;
        const uint64_t bound = (q.n_at_start + per_slice - 1) / per_slice;
        if (q.waited >= bound)
          return log.str() + "KFD-HWS-4: queue " + std::to_string(i) + " waited " + std::to_string(q.waited) +
                 " slices at the top priority, bound " + std::to_string(bound - 1);
      }
    }
  }
  return "";
}

rc::Gen<Change> gen_change() {
  return rc::gen::build<Change>(rc::gen::set(&Change::kind, rc::gen::inRange<uint8_t>(0, 8)),
                                rc::gen::set(&Change::index, rc::gen::arbitrary<uint8_t>()),
                                rc::gen::set(&Change::value, rc::gen::inRange<uint8_t>(0, 20)));
}

rc::Gen<Setup> gen_setup() {
  return rc::gen::build<Setup>(
      rc::gen::set(&Setup::pipes, rc::gen::arbitrary<uint8_t>()),
      rc::gen::set(&Setup::slots_per_pipe, rc::gen::arbitrary<uint8_t>()),
      rc::gen::set(&Setup::max_processes, rc::gen::arbitrary<uint8_t>()),
      rc::gen::set(&Setup::quantum, rc::gen::arbitrary<uint8_t>()),
      rc::gen::set(&Setup::queues,
                   rc::gen::container<std::vector<std::pair<uint8_t, uint8_t>>>(
                       rc::gen::pair(rc::gen::inRange<uint8_t>(0, 4), rc::gen::inRange<uint8_t>(0, 5)))),
      rc::gen::set(&Setup::slices, rc::gen::container<std::vector<std::vector<Change>>>(
                                       rc::gen::resize(3, rc::gen::container<std::vector<Change>>(gen_change())))));
}

bool property_holds() {
  return rc::check("HWS decisions over random queue populations", [] {
    const Setup setup = *gen_setup();
    const std::string failure = check_run(setup);
    if (!failure.empty()) RC_FAIL(failure);
  });
}

struct Planted {
  explicit Planted(KfdMutant m) : m_(m) { rocref::kfd::set_kfd_mutant(m_, true); }
  ~Planted() { rocref::kfd::set_kfd_mutant(m_, false); }
  KfdMutant m_;
};

// covers: KFD-HWS-1 KFD-HWS-2 KFD-HWS-5
TEST(HwsProperty, KFD_HWS_4_EveryDecisionKeepsSlotsPrioritiesAndTheBound) { EXPECT_TRUE(property_holds()); }

// A rotation that keeps the served queues in front: the queues past the first slots' worth
// are never mapped while those stay runnable.
TEST(HwsPropertyMutants, KFD_HWS_4_RotationKeepsServedInFrontIsCaught) {
  Planted m(KfdMutant::RotationKeepsServedInFront);
  EXPECT_FALSE(property_holds());
}

}  // namespace
