#include "health/counter_tracker.hpp"

#include "health/json_integers.hpp"
#include "model/samples.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

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

} // namespace

CounterWidth counterWidth(std::string_view source, bool wide)
{
    if (source == kSourceIbCounters)
        return CounterWidth::Saturating;
    if (source == kSourceHwCounters && !wide)
        return CounterWidth::Wraps32;
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

void CounterTracker::rename(std::string_view from, std::string_view to)
{
    if (from == to)
        return;
    const std::string prefix = std::string(from) + "|";
    std::vector<decltype(histories_)::node_type> moved;
    for (auto it = histories_.lower_bound(prefix);
         it != histories_.end() && it->first.starts_with(prefix);)
        moved.push_back(histories_.extract(it++));
    for (auto& node : moved) {
        node.key() = std::string(to) + node.key().substr(from.size());
        histories_.insert(std::move(node)); // a history `to` already has is the newer: kept
    }
}

CounterObservation CounterTracker::observe(const std::string& key, uint64_t value, double t,
                                           const CounterRule& rule, CounterWidth width)
{
    return observe(histories_[key], value, t, rule, width);
}

CounterObservation CounterTracker::observe(History& h, uint64_t value, double t,
                                           const CounterRule& rule, CounterWidth width)
{
    CounterObservation o;
    o.previous = h.last_value;
    if (!h.seen) {
        h.seen = true;
        h.last_value = value;
        h.last_time = t;
        h.since = t;
        return o; // Baseline
    }
    if (t <= h.last_time) {
        o.kind = CounterObservation::Kind::Stale;
        return o;
    }
    auto step = counterStep(h.last_value, value, width);
    const double prev_time = h.last_time;
    h.last_value = value;
    h.last_time = t;
    if (step.reset) {
        h.buckets.clear();
        h.since = t;
        h.last_breach = -1;
        o.kind = CounterObservation::Kind::Reset;
        return o;
    }
    o.kind = CounterObservation::Kind::Measured;
    if (rule.kind == RuleKind::Delta)
        observeDelta(h, step.increase, prev_time, t, rule, o);
    else
        observeRate(h, step.increase, prev_time, t, rule, o);
    return o;
}

void CounterTracker::observeDelta(History& h, uint64_t increase, double prev_time, double t,
                                  const CounterRule& rule, CounterObservation& o)
{
    h.buckets.clear(); // a rule changed from Rate to Delta by a reload
    o.grew = increase;
    o.span = t - prev_time;
    if (static_cast<double>(increase) > rule.threshold) {
        h.last_breach = t;
        o.breach = true;
    } else if (h.last_breach >= 0 && t - h.last_breach < rule.window_sec) {
        o.breach = true;
        o.held = true;
    } else {
        h.last_breach = -1;
    }
}

void CounterTracker::observeRate(History& h, uint64_t increase, double prev_time, double t,
                                 const CounterRule& rule, CounterObservation& o)
{
    const double window = std::max(rule.window_sec, 1e-3);
    const double width = window / kBuckets;
    if (h.width != width) { // a new rule (reload): its window starts now
        h.buckets.clear();
        h.width = width;
    }
    const auto now = static_cast<int64_t>(std::floor(t / width));
    if (!h.buckets.empty()) {
        // Buckets that left the window are emptied as the ring moves on.
        const int64_t moved = now - h.newest;
        if (moved >= static_cast<int64_t>(kBuckets) || moved < 0)
            std::fill(h.buckets.begin(), h.buckets.end(), 0);
        else
            for (int64_t i = h.newest + 1; i <= now; ++i)
                h.buckets[static_cast<size_t>(i % static_cast<int64_t>(kBuckets))] = 0;
        h.newest = now;
    }
    if (increase > 0) {
        if (h.buckets.empty()) {
            h.buckets.assign(kBuckets, 0);
            h.newest = now;
        }
        auto& b = h.buckets[static_cast<size_t>(now % static_cast<int64_t>(kBuckets))];
        b = increase > UINT64_MAX - b ? UINT64_MAX : b + increase;
    }
    uint64_t sum = 0;
    for (uint64_t b : h.buckets)
        sum = b > UINT64_MAX - sum ? UINT64_MAX : sum + b;
    if (sum == 0)
        h.buckets.clear(); // nothing in the window: a quiet counter keeps no buckets
    o.grew = sum;
    double allowed = rule.threshold;
    if (t - prev_time >= window) {
        // Reads further apart than the window: the growth between them is all the window holds,
        // and it is judged against the allowance of the time it covers.
        o.span = t - prev_time;
        allowed = rule.threshold * o.span / window;
    } else {
        o.span = std::min(window, t - h.since);
    }
    o.breach = static_cast<double>(o.grew) > allowed;
}

nlohmann::json CounterTracker::toJson() const
{
    auto j = nlohmann::json::object();
    for (const auto& [k, h] : histories_) {
        if (!h.seen)
            continue; // looked up, never read: nothing to remember
        nlohmann::json e{{"value", h.last_value}, {"time", h.last_time}, {"since", h.since}};
        if (!h.buckets.empty())
            e.update({{"width", h.width}, {"newest", h.newest}, {"buckets", h.buckets}});
        else if (h.width > 0)
            e["width"] = h.width;
        if (h.last_breach >= 0)
            e["breach"] = h.last_breach;
        j[k] = std::move(e);
    }
    return j;
}

CounterTracker CounterTracker::fromJson(const nlohmann::json& j)
{
    CounterTracker t;
    for (const auto& [k, h] : j.items()) {
        if (!h.contains("value"))
            continue; // the layout of an older nicd: this counter starts from a new baseline
        History x;
        x.seen = true;
        x.last_value = getIntegers<uint64_t>(h.at("value"));
        x.last_time = h.at("time").get<double>();
        x.since = h.at("since").get<double>();
        x.width = h.value("width", 0.0);
        if (h.contains("buckets")) {
            x.buckets = getIntegers<std::vector<uint64_t>>(h.at("buckets"));
            x.newest = getIntegers<int64_t>(h.at("newest"));
            if (x.buckets.size() != kBuckets || !(x.width > 0))
                throw std::runtime_error("counter " + k + ": a window of " +
                                         std::to_string(x.buckets.size()) + " buckets");
        }
        x.last_breach = h.value("breach", -1.0);
        t.histories_[k] = std::move(x);
    }
    return t;
}

} // namespace nicd::health
