// Counter rules: which counters matter, how much growth within which window is a problem, and
// how bad. Pure. The window arithmetic is in counter_tracker.hpp.
//
// Semantics: a rule breaches when a counter grew by more than `threshold` within the last
// `window_sec` (for windows shorter than the time between two reads, the threshold is scaled to
// the time actually covered: 10/s over a 5 s poll allows 50). So a per-hour rule fires as soon as
// more than its count happened within an hour, and recovers once the last hour holds no more
// than that. "Any increase" rules use threshold 0 over 10 minutes: the condition holds until the
// counter has been quiet for 10 minutes. A counter's name may be a glob ("rx_prio*_pause").
#pragma once

#include "config/config.hpp"
#include "model/health.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace nicd::health {

struct CounterRule {
    std::string counter;
    double threshold = 0; // growth allowed within the window
    double window_sec = 600;
    ConditionSeverity severity = ConditionSeverity::Degraded;
    std::string meaning; // what the counter says, for the message
    std::string action;  // what the operator should do
};

inline constexpr double kAnyIncreaseWindowSec = 600;

const std::vector<CounterRule>& defaultCounterRules();

// The rule for `counter` on `device`: the default, then [counter:NAME], then
// [counter:NAME/DEVICE]. nullopt when there is none or it is disabled.
std::optional<CounterRule> ruleFor(const std::string& counter, const std::string& device,
                                   const Config& config);

// ruleFor, remembered: the rules depend only on the configuration, so each counter name is
// matched against the rules once, not at every cycle (a node reads ~10,000 counters a cycle and
// the defaults hold globs). Counters the configuration names per device ([counter:NAME/DEVICE])
// are looked up every time. reset() with the new configuration whenever it changes.
class CounterRuleCache {
public:
    void reset(const Config& config);
    // The rule for `counter` on `device` under `config` (the one given to reset), or nullptr
    // (none, or disabled). Valid until the next call.
    const CounterRule* find(const std::string& counter, const std::string& device,
                            const Config& config);

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, std::optional<CounterRule>, Hash, std::equal_to<>> rules_;
    std::unordered_set<std::string, Hash, std::equal_to<>> per_device_; // counters named per device
    std::optional<CounterRule> uncached_;
};

// "120 per hour", "10 per second", "any increase".
std::string describeThreshold(const CounterRule& rule);

} // namespace nicd::health
