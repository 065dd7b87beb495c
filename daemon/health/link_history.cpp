#include "health/link_history.hpp"

#include "health/json_integers.hpp"

#include <fmt/format.h>

#include <limits>

namespace nicd::health {

LinkDownCounts linkDownCounts(const Snapshot& snap, const std::string& ibdev, uint32_t port)
{
    LinkDownCounts out;
    for (const auto& ds : snap.samples) {
        if (ds.ibdev != ibdev)
            continue;
        for (const auto& s : ds.samples()) {
            if (s.port != port)
                continue;
            bool pma = s.source == kSourceIbCounters && s.name == "link_downed";
            if (!pma && s.meaning != Meaning::LinkDownEvents)
                continue;
            std::string where = s.netdev.empty() ? s.source : s.source + ":" + s.netdev;
            out[where + "/" + s.name] = s.value;
        }
    }
    return out;
}

std::string describeCounts(const LinkDownCounts& counts)
{
    std::string out;
    for (const auto& [key, value] : counts)
        out +=
            fmt::format("{}{} {}", out.empty() ? "" : ", ", key.substr(key.rfind('/') + 1), value);
    return out.empty() ? "none read" : out;
}

std::string describeState(const Port& p)
{
    return fmt::format("state {}, physical state {}",
                       p.state_name.empty() ? "unknown" : p.state_name,
                       p.phys_state_name.empty() ? "unknown" : p.phys_state_name);
}

void PortHistory::observe(bool up, double now, const HealthConfig& hc)
{
    if (was_up && !up) {
        downs.push_back(now);
        down_at = now;
    } else if (!was_up && up) {
        if (down_at && now - *down_at >= hc.flap_down_sec)
            backs.push_back(now);
        down_at.reset();
        back_at = now;
    }
    was_up = up;
    ever_up = ever_up || up;
    const double oldest = now - hc.flap_window_sec;
    for (auto* times : {&downs, &backs})
        while (!times->empty() && times->front() < oldest)
            times->pop_front();
}

size_t PortHistory::flaps(const HealthConfig& hc) const
{
    return hc.flap_mode == FlapMode::DownAndBack ? backs.size() : downs.size();
}

bool PortHistory::settled(double now, const HealthConfig& hc) const
{
    // Not known when it came back (a state file of an older nicd): at its last down at the latest.
    const double back = back_at         ? *back_at
                        : downs.empty() ? -std::numeric_limits<double>::infinity()
                                        : downs.back();
    return was_up && hc.flap_clear_sec > 0 && now - back >= hc.flap_clear_sec;
}

void PortHistory::forgetFlaps()
{
    downs.clear();
    backs.clear();
}

double PortHistory::observeDrop(bool down, const LinkDownCounts& counts, double now)
{
    if (!down) {
        drop_since.reset();
        drop_counts.clear();
        return 0;
    }
    bool moved = false;
    for (const auto& [key, value] : counts) {
        auto [it, added] = drop_counts.emplace(key, value); // one first read now: its baseline
        moved = moved || (!added && it->second != value);
    }
    if (!drop_since || moved) {
        drop_since = now;
        drop_counts = counts;
        return 0;
    }
    return now - *drop_since;
}

nlohmann::json PortHistory::toJson() const
{
    // What an older nicd wrote, then only what differs from nothing: a state file of a port that
    // neither flapped down-and-back nor dropped reads as the older one did.
    nlohmann::json j{{"ever_up", ever_up}, {"was_up", was_up}, {"downs", downs}};
    if (!backs.empty())
        j["backs"] = backs;
    if (!drop_counts.empty())
        j["drop_counts"] = drop_counts;
    auto put = [&](const char* key, const std::optional<double>& t) {
        if (t)
            j[key] = *t;
    };
    put("down_at", down_at);
    put("back_at", back_at);
    put("drop_since", drop_since);
    put("drop_back_at", drop_back_at);
    return j;
}

PortHistory PortHistory::fromJson(const nlohmann::json& j)
{
    PortHistory h;
    h.ever_up = j.at("ever_up").get<bool>();
    h.was_up = j.at("was_up").get<bool>();
    h.downs = j.at("downs").get<std::deque<double>>();
    // What an older nicd did not write is nothing: no down-and-back flaps, no drop.
    if (j.contains("backs"))
        h.backs = j.at("backs").get<std::deque<double>>();
    if (j.contains("drop_counts"))
        h.drop_counts = getIntegers<LinkDownCounts>(j.at("drop_counts"));
    auto get = [&](const char* key) -> std::optional<double> {
        if (!j.contains(key))
            return std::nullopt;
        return j.at(key).get<double>();
    };
    h.down_at = get("down_at");
    h.back_at = get("back_at");
    h.drop_since = get("drop_since");
    h.drop_back_at = get("drop_back_at");
    return h;
}

} // namespace nicd::health
