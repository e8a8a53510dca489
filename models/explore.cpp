// models/explore.cpp - breadth-first search over the AQL queue model.
#include "models/explore.h"

#include <deque>
#include <functional>
#include <unordered_map>

namespace rocref::model {
namespace {

struct StateHash {
  size_t operator()(const AqlState& s) const {
    size_t h = std::hash<uint64_t>{}(s.write_index * 1000003u ^ s.read_index * 7919u ^ s.doorbell);
    auto mix = [&h](uint64_t v) { h ^= std::hash<uint64_t>{}(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    for (const Slot& slot : s.slots) mix(uint64_t(slot.header) | slot.header_id << 8 | slot.body_id << 32 | uint64_t(slot.has_body) << 63);
    for (const Producer& p : s.producers) mix(uint64_t(p.pc) | p.id << 8 | uint64_t(p.remaining) << 40);
    for (const InFlight& f : s.in_flight) mix(f.id | uint64_t(f.decrement_read) << 62);
    mix(uint64_t(s.processor) | uint64_t(s.signal) << 8 | s.completed << 32);
    return h;
  }
};

struct Visit {
  const AqlState* parent;
  Step via;
  uint32_t depth;
};

Counterexample trace_to(const std::unordered_map<AqlState, Visit, StateHash>& seen, const AqlState* end,
                        Violation violation) {
  Counterexample cex{{}, {}, std::move(violation)};
  for (const AqlState* s = end; s != nullptr;) {
    const Visit& v = seen.at(*s);
    if (v.parent == nullptr) break;
    cex.steps.insert(cex.steps.begin(), v.via);
    cex.states.insert(cex.states.begin(), *s);
    s = v.parent;
  }
  return cex;
}

}  // namespace

ExploreResult explore(const AqlConfig& config, uint32_t max_depth, uint64_t max_states) {
  ExploreResult result;
  std::unordered_map<AqlState, Visit, StateHash> seen;
  std::deque<const AqlState*> frontier;
  auto [root, inserted] = seen.emplace(initial_state(config), Visit{nullptr, {}, 0});
  frontier.push_back(&root->first);
  bool truncated = false;
  while (!frontier.empty()) {
    const AqlState* current = frontier.front();
    frontier.pop_front();
    const uint32_t depth = seen.at(*current).depth;
    result.depth_reached = std::max(result.depth_reached, depth);
    const std::vector<Step> steps = enabled_steps(config, *current);
    if (steps.empty() && !is_final(config, *current)) {
      result.counterexample = trace_to(seen, current, Violation{"AQL-LIVE-1", "deadlock: no step enabled, work left"});
      break;
    }
    if (depth == max_depth) { truncated |= !steps.empty(); continue; }
    for (const Step& s : steps) {
      StepResult r = step(config, *current, s);
      std::optional<Violation> v = r.violation ? r.violation : check_invariants(config, r.next);
      auto [it, fresh] = seen.emplace(std::move(r.next), Visit{current, s, depth + 1});
      if (v) {
        Counterexample cex = trace_to(seen, &it->first, *v);
        if (!fresh) {  // same state reached before without violation: append the breaking step
          cex = trace_to(seen, current, *v);
          cex.steps.push_back(s);
          cex.states.push_back(step(config, *current, s).next);
        }
        result.counterexample = std::move(cex);
        result.states_visited = seen.size();
        return result;
      }
      if (fresh) {
        if (seen.size() >= max_states) { truncated = true; break; }
        frontier.push_back(&it->first);
      }
    }
    if (seen.size() >= max_states) break;
  }
  result.states_visited = seen.size();
  result.exhausted = !truncated && !result.counterexample && frontier.empty();
  return result;
}

Counterexample replay(const AqlConfig& config, const std::vector<Step>& steps) {
  Counterexample cex{{}, {}, Violation{}};
  AqlState state = initial_state(config);
  for (const Step& s : steps) {
    if (!is_enabled(config, state, s)) {
      cex.violation = Violation{"REPLAY", "step not enabled: " + describe(s)};
      return cex;
    }
    StepResult r = step(config, state, s);
    std::optional<Violation> v = r.violation ? r.violation : check_invariants(config, r.next);
    cex.steps.push_back(s);
    cex.states.push_back(r.next);
    state = std::move(r.next);
    if (v) {
      cex.violation = *v;
      return cex;
    }
  }
  return cex;
}

}  // namespace rocref::model
