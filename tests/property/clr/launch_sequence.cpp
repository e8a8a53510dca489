// tests/property/clr/launch_sequence.cpp - the launch-sequence harness and its model (see launch_sequence.h).
#include "launch_sequence.h"

#include <rapidcheck.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "../../unit/clr/fake_signals.h"
#include "clr/kernarg_ring.h"
#include "clr/signal_pool.h"

namespace clr_prop {
namespace {

using rocref::clr::KernargRing;
using rocref::clr::SignalPool;

// The model: what the command layer must consider live.
struct Dispatch {
  uint64_t ticket;
  size_t begin, end;  // requested bytes, offsets from the ring's base
  hsa_signal_t signal;
  bool completed;     // the GPU decremented its signal
};

struct Model {
  std::vector<Dispatch> dispatches;                 // submitted, not reclaimed: their slices are live
  std::unordered_map<uint64_t, uint32_t> holders;   // signal -> holders (commands, events)
  std::unordered_map<uint64_t, int64_t> expected;   // held signal -> the value its holders must read
  std::vector<hsa_signal_t> events;                 // one entry per event reference
};

template <typename T>
size_t pick(const std::vector<T>& v, uint8_t byte) { return byte % v.size(); }

}  // namespace

void check_sequence(RingShape shape, const std::vector<RawOp>& ops) {
  clr_test::FakeSignals& fake = clr_test::FakeSignals::instance();
  fake.clear();
  const size_t capacity = 64 + shape.capacity % 1024;
  std::vector<uint8_t> storage(capacity + 8192);
  const auto raw = reinterpret_cast<uintptr_t>(storage.data());
  uint8_t* base = reinterpret_cast<uint8_t*>(((raw + 4095) & ~uintptr_t{4095}) + 16 * (shape.base_offset % 8));
  KernargRing ring(base, capacity);
  SignalPool pool(clr_test::fake_ops(), 4);  // a small keep: destruction and reuse both happen
  Model m;

  for (const RawOp& op : ops) {
    switch (op[0] % 5) {
      case 0: {  // launch: a slice, then a completion signal
        const size_t size = 1 + op[1] % 160;
        const size_t align = size_t{1} << (op[2] % 8);
        std::optional<KernargRing::Slice> slice = ring.allocate(size, align);
        if (!slice) {
          // Progress: with nothing live, whatever fits the ring must be handed out.
          RC_ASSERT_FALSE(m.dispatches.empty() && ring.fits(size, align));
          break;
        }
        const auto at = static_cast<uint8_t*>(slice->address);
        RC_ASSERT(at >= base);
        const size_t begin = static_cast<size_t>(at - base), end = begin + size;
        RC_ASSERT(end <= ring.capacity());
        RC_ASSERT(reinterpret_cast<uintptr_t>(at) % std::max<size_t>(align, 16) == 0);
        for (const Dispatch& d : m.dispatches) {
          RC_ASSERT(end <= d.begin || begin >= d.end);  // never a live slice's bytes
        }
        hsa_signal_t s{0};
        RC_ASSERT(pool.acquire(1, &s) == HSA_STATUS_SUCCESS);
        RC_ASSERT(m.holders[s.handle] == 0u);  // never a held signal
        RC_ASSERT(fake.value(s) == 1);         // reset before reuse
        m.holders[s.handle] = 1;
        m.expected[s.handle] = 1;
        m.dispatches.push_back(Dispatch{slice->ticket, begin, end, s, false});
        break;
      }
      case 1: {  // the GPU completes a dispatch (any order)
        if (m.dispatches.empty()) break;
        Dispatch& d = m.dispatches[pick(m.dispatches, op[1])];
        if (d.completed) break;
        d.completed = true;
        fake.set(d.signal, 0);
        m.expected[d.signal.handle] = 0;
        break;
      }
      case 2: {  // the command layer saw a completion: slice and signal go back (any order)
        if (m.dispatches.empty()) break;
        const size_t i = pick(m.dispatches, op[1]);
        if (!m.dispatches[i].completed) break;
        const Dispatch d = m.dispatches[i];
        m.dispatches.erase(m.dispatches.begin() + static_cast<std::ptrdiff_t>(i));
        RC_ASSERT(ring.release(d.ticket));
        RC_ASSERT(pool.release(d.signal));
        if (--m.holders[d.signal.handle] == 0) m.expected.erase(d.signal.handle);
        break;
      }
      case 3: {  // an event records a dispatch's signal (it reads it after the dispatch is gone)
        if (m.dispatches.empty()) break;
        const hsa_signal_t s = m.dispatches[pick(m.dispatches, op[1])].signal;
        RC_ASSERT(pool.retain(s));
        ++m.holders[s.handle];
        m.events.push_back(s);
        break;
      }
      case 4: {  // an event lets go
        if (m.events.empty()) break;
        const size_t i = pick(m.events, op[1]);
        const hsa_signal_t s = m.events[i];
        m.events.erase(m.events.begin() + static_cast<std::ptrdiff_t>(i));
        RC_ASSERT(pool.release(s));
        if (--m.holders[s.handle] == 0) m.expected.erase(s.handle);
        break;
      }
    }
    // Every holder still reads the value its own command left there.
    for (const auto& [handle, value] : m.expected) RC_ASSERT(fake.value(hsa_signal_t{handle}) == value);
  }
}

}  // namespace clr_prop
