// tests/property/aql/lockstep_property.cpp - the refinement property as a callable body (see properties.h).
#include <rapidcheck.h>

#include "gen.h"
#include "lockstep.h"
#include "properties.h"

namespace rocref::prop {

void property_refinement() {
  const LockstepConfig c = draw_config();
  const Trace t = run_lockstep(c, draw_program(), true);
  last_failure() = t.failures.empty() ? (t.final ? "" : "AQL-LIVE-1: the fair schedule did not drain")
                                      : t.failures.front();
  RC_LOG() << t.all();
  RC_ASSERT(t.failures.empty());
  RC_ASSERT(t.final);
}

}  // namespace rocref::prop
