// The counter rules (counter_rules.hpp) applied to each snapshot's samples, over the windows of
// counter_tracker.hpp (what the family keeps across restarts, under "counters"):
// "counter.<name>[.<netdev>]" conditions are raised on a breach and recovered once back under the
// threshold or when the counter is reset (driver reload, admin clear: "counter reset"). A counter
// stuck at its maximum cannot show growth any more: "counter_saturated.<name>" (info) says so until
// it is cleared.
//
// Which series a rule follows is worked out once per device and layout (model/samples.hpp), not
// at every cycle: a cycle then touches only the few counters a rule follows (a node reads
// ~10,000 values a cycle, a few hundred of them have a rule), each through the history it was
// given (no lookup by name).
#pragma once

#include "health/counter_rules.hpp"
#include "health/counter_tracker.hpp"
#include "health/rule_family.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

class CounterChecks : public RuleFamily {
public:
    const char* name() const override { return "counters"; }
    // The rules of `config` (CounterRuleCache); the next evaluate() recovers the conditions of
    // counters no rule follows any more.
    void configured(const Config& config) override;
    // Times: a sample's own monotonic read time when the snapshot carries one (IB PMA counters
    // are re-read less often than the cycle: pma_monotonic_usec), else `now_mono` (seconds).
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;

    void appendJson(std::string& out) const override { appendJsonText(out, tracker_.toJson()); }
    void restore(const nlohmann::json& j) override;
    void forget() override;
    void rename(const std::string& from, const std::string& to) override;

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
        std::shared_ptr<const LayoutMeanings> meanings;
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

    // Forgets which series a rule follows: when the configuration changes and whenever the
    // tracker's histories (the slots point into them) are replaced or renamed.
    void forgetSeries();

    CounterTracker tracker_;
    CounterRuleCache rules_;    // follows the configuration
    bool rules_changed_ = true; // a new configuration (or a restart) since the last evaluate
    std::map<std::string, Entry> index_; // by ibdev
    // Rules configured for one device ([counter:NAME/DEVICE]), by (counter, device): the rule
    // cache does not keep those, slots point here.
    std::map<std::pair<std::string, std::string>, CounterRule> device_rules_;
};

} // namespace nicd::health
