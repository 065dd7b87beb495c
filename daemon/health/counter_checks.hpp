// The counter rules applied to one snapshot's samples: "counter.<name>[.<netdev>]" conditions are
// raised on a breach and recovered once back under the threshold or when the counter is reset
// (driver reload, admin clear: "counter reset"). A counter stuck at its maximum cannot show
// growth any more: "counter_saturated.<name>" (info) says so until it is cleared.
#pragma once

#include "config/config.hpp"
#include "health/condition_set.hpp"
#include "health/counter_rules.hpp"
#include "health/counter_tracker.hpp"
#include "model/snapshot.hpp"

#include <vector>

namespace nicd::health {

// Times: a sample's own monotonic read time when the snapshot carries one (IB PMA counters are
// re-read less often than the cycle: pma_monotonic_usec), else `now_mono` (seconds). With
// `rules_changed` (the first evaluation after a reload), the conditions of counters no rule
// follows any more are recovered.
void evaluateCounterRules(const Snapshot& snap, const Config& config, CounterRuleCache& rules,
                          bool rules_changed, double now_mono, double now_real,
                          CounterTracker& tracker, ConditionSet& conditions,
                          std::vector<Event>& out);

} // namespace nicd::health
