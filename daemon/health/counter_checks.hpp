// The counter rules applied to one snapshot's samples: "counter.<name>[.<netdev>]" conditions are
// raised on a breach and recovered once back under the threshold or when the counter is reset
// (driver reload, admin clear: "counter reset"). A counter stuck at its maximum cannot show
// growth any more: "counter_saturated.<name>" (info) says so until it is cleared.
//
// Which series a rule follows is worked out once per device and layout (model/samples.hpp), not
// at every cycle: a cycle then touches only the few counters a rule follows (a node reads
// ~10,000 values a cycle, a few hundred of them have a rule), each through the history it was
// given (no lookup by name).
#pragma once

#include "config/config.hpp"
#include "health/condition_set.hpp"
#include "health/counter_rules.hpp"
#include "health/counter_tracker.hpp"
#include "model/snapshot.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

class CounterChecks {
public:
    // Forgets what was worked out: call when the configuration changes (with the rule cache's
    // reset) and when the tracker is assigned over (restore, baseline).
    void reset();

    // Times: a sample's own monotonic read time when the snapshot carries one (IB PMA counters
    // are re-read less often than the cycle: pma_monotonic_usec), else `now_mono` (seconds). With
    // `rules_changed` (the first evaluation after a reload), the conditions of counters no rule
    // follows any more are recovered.
    void evaluate(const Snapshot& snap, const Config& config, CounterRuleCache& rules,
                  bool rules_changed, double now_mono, double now_real, CounterTracker& tracker,
                  ConditionSet& conditions, std::vector<Event>& out);

    // Devices whose rule-bearing series are worked out now (for tests).
    size_t devicesIndexed() const { return index_.size(); }

private:
    struct Slot {
        uint32_t index = 0; // in its batch
        bool pma = false;   // in the PMA batch, else the plugin's
        CounterWidth width = CounterWidth::Wide64;
        const CounterRule* rule = nullptr;
        CounterTracker::History* history = nullptr;
    };
    struct Entry {
        std::shared_ptr<const SampleLayout> pma, plugin; // held: an entry is for these
        std::vector<std::string> pma_netdevs, plugin_netdevs;
        std::vector<Slot> slots;
        bool used = false;
    };
    Entry& entryFor(const DeviceSamples& ds, const Config& config, CounterRuleCache& rules,
                    CounterTracker& tracker);
    void check(const DeviceSamples& ds, const Slot& slot, bool may_recover, double now_mono,
               double now_real, CounterTracker& tracker, ConditionSet& conditions,
               std::vector<Event>& out);
    void recoverUnfollowed(const Snapshot& snap, const Config& config, CounterRuleCache& rules,
                           double now_real, ConditionSet& conditions, std::vector<Event>& out);

    std::map<std::string, Entry> index_; // by ibdev
    // Rules configured for one device ([counter:NAME/DEVICE]), by (counter, device): the rule
    // cache does not keep those, slots point here.
    std::map<std::pair<std::string, std::string>, CounterRule> device_rules_;
};

} // namespace nicd::health
