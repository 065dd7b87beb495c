// How the pre-failure rule families judge: from scratch on every evaluation, each collects the
// conditions that hold now for what it judged; apply() raises those and recovers the family's
// other conditions on the same devices and ports. What was not judged this time (a source that
// could not be read) keeps its conditions as they are.
#pragma once

#include "health/condition_set.hpp"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

class Verdicts {
public:
    // (device, port) was judged this time: its conditions not raised now recover.
    void judged(const std::string& device, uint32_t port) { judged_.emplace(device, port); }
    // Two raises of one key (a LAG's members on its one port): the more severe stays.
    void raise(Condition c)
    {
        judged(c.device, c.port);
        auto key = keyOf(c);
        if (auto it = hold_.find(key); it != hold_.end() && it->second.severity >= c.severity)
            return;
        hold_.insert_or_assign(std::move(key), std::move(c));
    }

    // `owns(code)`: the family's codes. `why(c)`: the recovery reason of an active condition.
    void apply(ConditionSet& set, const std::function<bool(const std::string&)>& owns,
               const std::function<std::string(const Condition&)>& why, double now_real,
               std::vector<Event>& out) const
    {
        for (const auto& [key, c] : hold_)
            set.raise(c, now_real, out);
        set.recoverIf(
            [&](const Condition& c) {
                return owns(c.code) && judged_.contains({c.device, c.port}) &&
                       !hold_.contains(keyOf(c));
            },
            why, now_real, out);
    }

private:
    std::map<ConditionKey, Condition> hold_;
    std::set<std::pair<std::string, uint32_t>> judged_;
};

// A condition of `source` on `device` (port 0: the device as a whole), as a rule raises it.
inline Condition makeCondition(ConditionSource source, std::string code, ConditionSeverity severity,
                               std::string device, uint32_t port, std::string message,
                               std::string advice, Action action)
{
    Condition c;
    c.code = std::move(code);
    c.severity = severity;
    c.device = std::move(device);
    c.port = port;
    c.message = std::move(message);
    c.advice = std::move(advice);
    c.action = action;
    c.source = source;
    return c;
}

// A pre-failure condition.
inline Condition signalCondition(std::string code, ConditionSeverity severity, std::string device,
                                 uint32_t port, std::string message, std::string advice,
                                 Action action)
{
    return makeCondition(ConditionSource::Signal, std::move(code), severity, std::move(device),
                         port, std::move(message), std::move(advice), action);
}

} // namespace nicd::health
