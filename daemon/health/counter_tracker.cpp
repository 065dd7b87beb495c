#include "health/counter_tracker.hpp"

#include "model/samples.hpp"

#include <algorithm>
#include <array>

namespace nicd::health {

namespace {
constexpr uint64_t k32 = uint64_t{1} << 32;

// IB PMA PortCounters widths on mlx5 (reference/counters.md §1.2); the 64-bit data and packet
// counters of the extended table never saturate in practice.
struct PmaWidth {
    std::string_view name;
    unsigned bits;
};
constexpr std::array kPmaWidths{
    PmaWidth{"symbol_error", 16},
    PmaWidth{"link_error_recovery", 8},
    PmaWidth{"link_downed", 8},
    PmaWidth{"port_rcv_errors", 16},
    PmaWidth{"port_rcv_remote_physical_errors", 16},
    PmaWidth{"port_rcv_switch_relay_errors", 16},
    PmaWidth{"port_xmit_discards", 16},
    PmaWidth{"port_xmit_constraint_errors", 8},
    PmaWidth{"port_rcv_constraint_errors", 8},
    PmaWidth{"local_link_integrity_errors", 4},
    PmaWidth{"excessive_buffer_overrun_errors", 4},
    PmaWidth{"VL15_dropped", 16},
    PmaWidth{"port_xmit_wait", 32},
};

// mlx5 hw_counters that are 64-bit (congestion and ICRC); the Q counters are 32-bit.
constexpr std::array<std::string_view, 5> kWideHwCounters{"rp_cnp_ignored", "rp_cnp_handled",
                                                          "np_ecn_marked_roce_packets",
                                                          "np_cnp_sent", "rx_icrc_encapsulated"};
} // namespace

CounterWidth counterWidth(std::string_view source, std::string_view counter)
{
    if (source == kSourceIbCounters)
        return CounterWidth::Saturating;
    if (source == kSourceHwCounters)
        return std::find(kWideHwCounters.begin(), kWideHwCounters.end(), counter) !=
                       kWideHwCounters.end()
                   ? CounterWidth::Wide64
                   : CounterWidth::Wraps32;
    return CounterWidth::Wide64;
}

std::optional<uint64_t> saturationValue(std::string_view source, std::string_view counter)
{
    if (source != kSourceIbCounters)
        return std::nullopt;
    for (const auto& w : kPmaWidths)
        if (w.name == counter)
            return (uint64_t{1} << w.bits) - 1;
    return std::nullopt;
}

CounterStep counterStep(uint64_t last, uint64_t now, CounterWidth width)
{
    if (now >= last)
        return {now - last, false};
    if (width == CounterWidth::Wraps32 && last < k32 && last >= k32 / 2 && now < k32 / 2)
        return {k32 - last + now, false};
    return {0, true};
}

std::string CounterTracker::key(std::string_view device, uint32_t port, std::string_view source,
                                std::string_view netdev, std::string_view counter)
{
    std::string k;
    k.reserve(device.size() + source.size() + netdev.size() + counter.size() + 16);
    k.append(device).append("|").append(std::to_string(port)).append("|").append(source);
    k.append("|").append(netdev).append("|").append(counter);
    return k;
}

CounterObservation CounterTracker::observe(const std::string& key, uint64_t value, double t,
                                           const CounterRule& rule, CounterWidth width)
{
    CounterObservation o;
    auto [it, fresh] = histories_.try_emplace(key);
    auto& h = it->second;
    o.previous = h.last_value;
    if (fresh) {
        h.last_value = value;
        h.last_time = t;
        h.points.emplace_back(t, 0);
        return o; // Baseline
    }
    if (t <= h.last_time) {
        o.kind = CounterObservation::Kind::Stale;
        return o;
    }
    auto step = counterStep(h.last_value, value, width);
    h.last_value = value;
    h.last_time = t;
    if (step.reset) {
        h.points.clear();
        h.points.emplace_back(t, h.cumulative);
        o.kind = CounterObservation::Kind::Reset;
        return o;
    }
    h.cumulative += step.increase;
    const double window = std::max(rule.window_sec, 1e-3);
    // About 20 points per window: a per-hour rule polled every 5 s would otherwise keep 720.
    size_t n = h.points.size();
    if (n >= 2 && t - h.points[n - 2].first < window / 20)
        h.points.back() = {t, h.cumulative};
    else
        h.points.emplace_back(t, h.cumulative);
    // Keep one point at or before the window's start as the reference.
    size_t drop = 0;
    while (h.points.size() - drop > 2 && h.points[drop + 1].first <= t - window)
        ++drop;
    h.points.erase(h.points.begin(), h.points.begin() + static_cast<std::ptrdiff_t>(drop));
    const auto& ref = h.points.front();
    o.kind = CounterObservation::Kind::Measured;
    o.span = std::max(t - ref.first, 1e-9);
    o.grew = h.cumulative - ref.second;
    double allowed = rule.threshold * std::max(o.span, window) / window;
    o.breach = static_cast<double>(o.grew) > allowed;
    return o;
}

nlohmann::json CounterTracker::toJson() const
{
    auto j = nlohmann::json::object();
    for (const auto& [k, h] : histories_)
        j[k] = {{"last_value", h.last_value},
                {"last_time", h.last_time},
                {"cumulative", h.cumulative},
                {"points", h.points}};
    return j;
}

CounterTracker CounterTracker::fromJson(const nlohmann::json& j)
{
    CounterTracker t;
    for (const auto& [k, h] : j.items()) {
        History x;
        x.last_value = h.at("last_value").get<uint64_t>();
        x.last_time = h.at("last_time").get<double>();
        x.cumulative = h.at("cumulative").get<uint64_t>();
        x.points = h.at("points").get<std::vector<std::pair<double, uint64_t>>>();
        if (x.points.empty())
            x.points.emplace_back(x.last_time, x.cumulative);
        t.histories_[k] = std::move(x);
    }
    return t;
}

} // namespace nicd::health
