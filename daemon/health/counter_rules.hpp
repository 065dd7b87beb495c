// Counter rules: which counters matter, how much growth is a problem, how bad, and what to do.
// Pure. The arithmetic is in counter_tracker.hpp. Two kinds, as nicd.conf's keys say:
//
// Rate (Rate=N/s, N/min, N/h): breach when the counter grew by more than N within the last
//   window of that unit (a sliding window, not an extrapolation: 5 symbol errors in one second
//   are 5, not "18,000 per hour"). A window not yet filled judges what it holds. When two reads
//   are further apart than the window (10/s read every 5 s), the growth between them is judged
//   against the allowance of the time it covers (50). Recovers once the window holds no more
//   than N.
// Delta (Delta=N): breach when the counter grew by more than N between two successive reads.
//   The condition holds until no read has grown by more than N for kDeltaHoldSec (10 minutes),
//   so that a single event (a link_downed) is seen by every scrape, not for one cycle.
//   "Any increase" is Delta=0.
// The default rules for the IB PMA counters (counters/) name them (IBTA names, every vendor's);
// those for a plugin's counters name what the counter means (plugin.h Meaning, from the plugin's
// describeLayout), so that one rule judges every vendor's counter of that meaning. The condition
// and the configuration ([counter:NAME]) still name the counter itself.
#pragma once

#include "config/config.hpp"
#include "model/health.hpp"
#include "model/samples.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nicd::health {

enum class RuleKind : uint8_t { Delta, Rate };

inline constexpr double kDeltaHoldSec = 600;

struct CounterRule {
    std::string counter;           // the counter's name (a default rule's: PMA counters only)
    Meaning means = Meaning::None; // a default rule for the plugins' counters of this meaning
    RuleKind kind = RuleKind::Delta;
    double threshold = 0;    // growth allowed between two reads (Delta) or within the window (Rate)
    double window_sec = 600; // Rate: 1, 60 or 3600; Delta: how long a breach holds
    ConditionSeverity severity = ConditionSeverity::Degraded;
    std::string meaning; // what the counter says, for the message
    std::string advice;  // what the operator should do, in words
    Action action = Action::None;
};

const std::vector<CounterRule>& defaultCounterRules();

// The rule for `counter` (which means `meaning`) on `device`: the default (by meaning, or for a
// PMA counter by name), then [counter:NAME], then [counter:NAME/DEVICE]. nullopt when there is
// none or it is disabled.
std::optional<CounterRule> ruleFor(const std::string& counter, Meaning meaning,
                                   const std::string& device, const Config& config);

// ruleFor, remembered: the rules depend only on the configuration, so each counter name and
// meaning is matched against the rules once, not at every cycle (a node reads ~10,000 counters a
// cycle). Counters the configuration names per device ([counter:NAME/DEVICE]) are looked up
// every time. reset() with the new configuration whenever it changes.
class CounterRuleCache {
public:
    void reset(const Config& config);
    // The rule for `counter` on `device` under `config` (the one given to reset), or nullptr
    // (none, or disabled). Valid until the next call.
    const CounterRule* find(const std::string& counter, Meaning meaning, const std::string& device,
                            const Config& config);
    // True when the configuration names `counter` for some device: find() then gives a rule
    // valid only until the next call.
    bool perDevice(const std::string& counter) const
    {
        return per_device_.contains(std::string_view(counter));
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using Rules =
        std::unordered_map<std::string, std::optional<CounterRule>, Hash, std::equal_to<>>;
    std::map<Meaning, Rules> rules_;                                    // by meaning, then name
    std::unordered_set<std::string, Hash, std::equal_to<>> per_device_; // counters named per device
    std::optional<CounterRule> uncached_;
};

// "more than 120 per hour", "more than 10 per second", "any increase", "more than 5 between two
// reads".
std::string describeThreshold(const CounterRule& rule);

} // namespace nicd::health
