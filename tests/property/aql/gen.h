// tests/property/aql/gen.h - RapidCheck generators of queue configurations and step programs.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "lockstep.h"

namespace rocref::prop {

struct ConfigShape {
  bool any_reservation = true;
  model::Reservation reservation = model::Reservation::FetchAdd;
  bool any_doorbell = true;
  model::DoorbellStore doorbell = model::DoorbellStore::Plain;
  bool near_wrap = false;  // start indices just below 2^64 (AQL-IDX-5)
  uint32_t min_producers = 1;
};

// Call inside a property: draws a configuration (1..4 producers, rings of 2, 4
// or 8, 1..4 packets each, barrier bits on none / every 2nd / every 3rd id).
inline LockstepConfig draw_config(const ConfigShape& shape = {}) {
  LockstepConfig c;
  c.model.producers = *rc::gen::inRange<uint32_t>(shape.min_producers, 5);
  c.model.ring_size = *rc::gen::element<uint32_t>(2, 4, 8);
  c.model.packets_per_producer = *rc::gen::inRange<uint32_t>(1, 5);
  // The plain load+store reservation (AQL-IDX-7) is legal only for a queue's one producer.
  c.model.reservation =
      !shape.any_reservation ? shape.reservation
      : c.model.producers == 1
          ? *rc::gen::element(model::Reservation::FetchAdd, model::Reservation::Cas, model::Reservation::Plain)
          : *rc::gen::element(model::Reservation::FetchAdd, model::Reservation::Cas);
  c.model.doorbell = shape.any_doorbell ? *rc::gen::element(model::DoorbellStore::Plain, model::DoorbellStore::Max)
                                        : shape.doorbell;
  c.model.barrier_every = *rc::gen::element<uint32_t>(0, 2, 3);
  // A SINGLE queue has one producer; there the plain doorbell must only increase (AQL-DB-2).
  c.model.single_queue = c.model.producers == 1;
  const uint64_t wrap_starts[] = {0 - uint64_t{8}, 0 - uint64_t{16}, 0 - uint64_t{64}};
  c.start = shape.near_wrap ? wrap_starts[*rc::gen::inRange(0, 3)] : 8 * uint64_t{*rc::gen::inRange<uint32_t>(0, 4)};
  return c;
}

inline std::vector<uint32_t> draw_program() {
  return *rc::gen::container<std::vector<uint32_t>>(rc::gen::inRange<uint32_t>(0, 1024));
}

}  // namespace rocref::prop
