// The active conditions, keyed by (device, port, code), and the event log their changes go to.
// Every change is an event: a new condition or a change of severity is "raised", its end
// "recovered", an operator's removal "cleared".
#pragma once

#include "health/event_log.hpp"
#include "model/health.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace nicd::health {

using ConditionKey = std::tuple<std::string, uint32_t, std::string>; // device, port, code

inline ConditionKey keyOf(const Condition& c)
{
    return {c.device, c.port, c.code};
}

class ConditionSet {
public:
    explicit ConditionSet(size_t event_capacity = 1024) : log_(event_capacity) {}

    // A new condition: first_seen = last_seen = now, a "raised" event. An active one: last_seen
    // and message are refreshed; a changed severity (escalation) is raised again.
    void raise(Condition c, double now_real, std::vector<Event>& out);
    // Ends an active condition with a "recovered" event saying `why`; false when not active.
    bool recover(const ConditionKey& key, const std::string& why, double now_real,
                 std::vector<Event>& out);
    // Operator action: ends every active condition of `device` with `code` (any port) with a
    // "cleared" event; returns how many.
    size_t clear(const std::string& device, const std::string& code, double now_real,
                 std::vector<Event>& out);
    // Recovers every active condition for which `pred` holds, with the reason `why(c)`.
    void recoverIf(const std::function<bool(const Condition&)>& pred,
                   const std::function<std::string(const Condition&)>& why, double now_real,
                   std::vector<Event>& out);
    // The device's hardware is now called `to`: its conditions move there with their first_seen
    // (one that `to` already has stays, with the earlier first_seen). No event: renamed() says it.
    void moveDevice(const std::string& from, const std::string& to);
    // The "renamed" event (info, code device_renamed, action none) on `device`, saying `why`.
    void renamed(const std::string& device, const std::string& why, double now_real,
                 std::vector<Event>& out);
    // The "changed" event (info, action none) of a known device whose hardware changed (`code`
    // firmware_changed or board_changed), saying `why`.
    void changed(const std::string& device, const std::string& code, const std::string& why,
                 double now_real, std::vector<Event>& out);
    // A baseline (new boot): every condition is forgotten, without per-condition events.
    void baseline(const std::string& why, double now_real, std::vector<Event>& out);

    const Condition* find(const ConditionKey& key) const;
    bool contains(const ConditionKey& key) const { return active_.contains(key); }
    const std::map<ConditionKey, Condition>& active() const { return active_; }

    EventLog& log() { return log_; }
    const EventLog& log() const { return log_; }

    nlohmann::json toJson() const; // conditions only; the log is serialised on its own
    // Throws nlohmann::json::exception on a malformed document.
    static std::map<ConditionKey, Condition> conditionsFromJson(const nlohmann::json& j);
    void restore(std::map<ConditionKey, Condition> active, EventLog log);

private:
    void emit(Event e, std::vector<Event>& out);

    std::map<ConditionKey, Condition> active_;
    EventLog log_;
};

} // namespace nicd::health
