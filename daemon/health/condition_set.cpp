#include "health/condition_set.hpp"

#include "health/json_integers.hpp"
#include "log/log.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace nicd::health {

namespace {
std::string where(const std::string& device, uint32_t port)
{
    if (device.empty())
        return "node";
    return port ? fmt::format("{} port {}", device, port) : device;
}
} // namespace

void ConditionSet::emit(Event e, std::vector<Event>& out)
{
    out.push_back(log_.record(std::move(e)));
}

void ConditionSet::raise(Condition c, double now_real, std::vector<Event>& out)
{
    auto key = keyOf(c);
    auto it = active_.find(key);
    if (it != active_.end()) {
        bool changed = c.severity != it->second.severity;
        it->second.last_seen = now_real;
        it->second.message = std::move(c.message);
        it->second.severity = c.severity;
        it->second.advice = std::move(c.advice);
        it->second.action = c.action;
        if (!changed)
            return;
    } else {
        c.first_seen = c.last_seen = now_real;
        it = active_.emplace(key, std::move(c)).first;
    }
    const auto& a = it->second;
    auto fields = log::Fields{.device = a.device, .port = a.port};
    if (a.severity == ConditionSeverity::Info)
        log::info(fields, "{}: {} ({})", where(a.device, a.port), a.message, a.code);
    else
        log::warn(fields, "{} {}: {} ({}); {} (action {})", toString(a.severity),
                  where(a.device, a.port), a.message, a.code, a.advice, toString(a.action));
    emit(
        {0, now_real, EventKind::Raised, a.severity, a.device, a.port, a.code, a.message, a.action},
        out);
}

bool ConditionSet::recover(const ConditionKey& key, const std::string& why, double now_real,
                           std::vector<Event>& out)
{
    auto it = active_.find(key);
    if (it == active_.end())
        return false;
    const auto& c = it->second;
    log::info({.device = c.device, .port = c.port}, "recovered {}: {} ({})",
              where(c.device, c.port), why, c.code);
    emit({0, now_real, EventKind::Recovered, c.severity, c.device, c.port, c.code, why}, out);
    active_.erase(it);
    return true;
}

size_t ConditionSet::clear(const std::string& device, const std::string& code, double now_real,
                           std::vector<Event>& out)
{
    size_t n = 0;
    for (auto it = active_.begin(); it != active_.end();) {
        const auto& c = it->second;
        if (c.device != device || c.code != code) {
            ++it;
            continue;
        }
        log::info({.device = c.device, .port = c.port}, "{}: {} cleared by an operator",
                  where(c.device, c.port), c.code);
        emit({0, now_real, EventKind::Cleared, c.severity, c.device, c.port, c.code,
              "cleared by an operator"},
             out);
        it = active_.erase(it);
        ++n;
    }
    return n;
}

void ConditionSet::recoverIf(const std::function<bool(const Condition&)>& pred,
                             const std::function<std::string(const Condition&)>& why,
                             double now_real, std::vector<Event>& out)
{
    std::vector<std::pair<ConditionKey, std::string>> done;
    for (const auto& [key, c] : active_)
        if (pred(c))
            done.emplace_back(key, why(c));
    for (const auto& [key, reason] : done)
        recover(key, reason, now_real, out);
}

void ConditionSet::moveDevice(const std::string& from, const std::string& to)
{
    if (from == to)
        return;
    for (auto it = active_.begin(); it != active_.end();) {
        if (it->second.device != from) {
            ++it;
            continue;
        }
        auto node = active_.extract(it++);
        node.mapped().device = to;
        std::get<0>(node.key()) = to;
        if (auto there = active_.find(node.key()); there != active_.end())
            there->second.first_seen = std::min(there->second.first_seen, node.mapped().first_seen);
        else
            active_.insert(std::move(node));
    }
}

void ConditionSet::renamed(const std::string& device, const std::string& why, double now_real,
                           std::vector<Event>& out)
{
    log::info({.device = device}, "{}: {} (device_renamed)", device, why);
    emit({0, now_real, EventKind::Renamed, ConditionSeverity::Info, device, 0, "device_renamed",
          why},
         out);
}

void ConditionSet::changed(const std::string& device, const std::string& code,
                           const std::string& why, double now_real, std::vector<Event>& out)
{
    log::info({.device = device}, "{}: {} ({})", device, why, code);
    emit({0, now_real, EventKind::Changed, ConditionSeverity::Info, device, 0, code, why}, out);
}

void ConditionSet::baseline(const std::string& why, double now_real, std::vector<Event>& out)
{
    active_.clear();
    log::info({}, "health baseline: {}", why);
    emit({0, now_real, EventKind::Baseline, ConditionSeverity::Info, "", 0, "baseline", why}, out);
}

const Condition* ConditionSet::find(const ConditionKey& key) const
{
    auto it = active_.find(key);
    return it == active_.end() ? nullptr : &it->second;
}

nlohmann::json ConditionSet::toJson() const
{
    auto conds = nlohmann::json::array();
    for (const auto& [k, c] : active_)
        conds.push_back({{"code", c.code},
                         {"severity", static_cast<int>(c.severity)},
                         {"source", static_cast<int>(c.source)},
                         {"device", c.device},
                         {"port", c.port},
                         {"message", c.message},
                         {"advice", c.advice},
                         {"action", toString(c.action)},
                         {"first_seen", c.first_seen},
                         {"last_seen", c.last_seen}});
    return conds;
}

std::map<ConditionKey, Condition> ConditionSet::conditionsFromJson(const nlohmann::json& j)
{
    std::map<ConditionKey, Condition> out;
    for (const auto& c : j) {
        Condition x;
        x.code = c.at("code").get<std::string>();
        x.severity = static_cast<ConditionSeverity>(getIntegers<int>(c.at("severity")));
        x.source = static_cast<ConditionSource>(getIntegers<int>(c.at("source")));
        x.device = c.at("device").get<std::string>();
        x.port = getIntegers<uint32_t>(c.at("port"));
        x.message = c.at("message").get<std::string>();
        // nicd 0.1 kept the advice under "action": such a condition gets its code at its next
        // evaluation.
        auto action = c.at("action").get<std::string>();
        x.advice = c.value("advice", action);
        x.action = parseAction(action).value_or(Action::None);
        x.first_seen = c.at("first_seen").get<double>();
        x.last_seen = c.at("last_seen").get<double>();
        out[keyOf(x)] = std::move(x);
    }
    return out;
}

void ConditionSet::restore(std::map<ConditionKey, Condition> active, EventLog log)
{
    active_ = std::move(active);
    log_ = std::move(log);
}

} // namespace nicd::health
