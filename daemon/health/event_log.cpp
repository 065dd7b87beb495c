#include "health/event_log.hpp"

#include "health/json_integers.hpp"

#include <algorithm>

namespace nicd::health {

void EventLog::setCapacity(size_t capacity)
{
    capacity_ = std::max<size_t>(capacity, 1);
    while (events_.size() > capacity_)
        events_.pop_front();
}

const Event& EventLog::record(Event e)
{
    e.seq = ++last_seq_;
    ++totals_[toString(e.kind)];
    events_.push_back(std::move(e));
    while (events_.size() > capacity_)
        events_.pop_front();
    return events_.back();
}

std::vector<Event> EventLog::since(uint64_t seq) const
{
    std::vector<Event> out;
    for (const auto& e : events_)
        if (e.seq > seq)
            out.push_back(e);
    return out;
}

void EventLog::continueAfter(uint64_t seq)
{
    last_seq_ = std::max(last_seq_, seq);
}

nlohmann::json eventToJson(const Event& e)
{
    return {{"seq", e.seq},
            {"time", e.time},
            {"kind", static_cast<int>(e.kind)},
            {"severity", static_cast<int>(e.severity)},
            {"device", e.device},
            {"port", e.port},
            {"code", e.code},
            {"message", e.message},
            {"action", toString(e.action)}};
}

Event eventFromJson(const nlohmann::json& j)
{
    Event e;
    e.seq = getIntegers<uint64_t>(j.at("seq"));
    e.time = j.at("time").get<double>();
    e.kind = static_cast<EventKind>(getIntegers<int>(j.at("kind")));
    e.severity = static_cast<ConditionSeverity>(getIntegers<int>(j.at("severity")));
    e.device = j.at("device").get<std::string>();
    e.port = getIntegers<uint32_t>(j.at("port"));
    e.code = j.at("code").get<std::string>();
    e.message = j.at("message").get<std::string>();
    e.action = parseAction(j.value("action", "none")).value_or(Action::None);
    return e;
}

nlohmann::json EventLog::toJson() const
{
    auto events = nlohmann::json::array();
    size_t skip = events_.size() > kPersistedEvents ? events_.size() - kPersistedEvents : 0;
    for (size_t i = skip; i < events_.size(); ++i)
        events.push_back(eventToJson(events_[i]));
    return {{"last_seq", last_seq_}, {"totals", totals_}, {"events", events}};
}

EventLog EventLog::fromJson(const nlohmann::json& j, size_t capacity)
{
    EventLog log(capacity);
    log.last_seq_ = getIntegers<uint64_t>(j.at("last_seq"));
    log.totals_ = getIntegers<std::map<std::string, uint64_t>>(j.at("totals"));
    for (const auto& e : j.at("events"))
        log.events_.push_back(eventFromJson(e));
    while (log.events_.size() > log.capacity_)
        log.events_.pop_front();
    return log;
}

} // namespace nicd::health
