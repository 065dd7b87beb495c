#include "health/counter_checks.hpp"

#include <fmt/format.h>

#include <limits>

namespace nicd::health {

namespace {
double sampleTime(const DeviceSamples& ds, const Sample& s, double now_mono)
{
    if (s.source == std::string_view(kSourceIbCounters) && ds.pma_monotonic_usec)
        return static_cast<double>(ds.pma_monotonic_usec) / 1e6;
    if (ds.monotonic_usec)
        return static_cast<double>(ds.monotonic_usec) / 1e6;
    return now_mono;
}

bool isSaturated(const Sample& s, CounterWidth width)
{
    if (auto max = saturationValue(s.source, s.name))
        return s.value == *max;
    if (width == CounterWidth::Saturating)
        return s.value == std::numeric_limits<uint32_t>::max() ||
               s.value == std::numeric_limits<uint64_t>::max();
    return s.value == std::numeric_limits<uint64_t>::max();
}
} // namespace

void evaluateCounterRules(const Snapshot& snap, const Config& config, CounterRuleCache& rules,
                          bool rules_changed, double now_mono, double now_real,
                          CounterTracker& tracker, ConditionSet& conditions,
                          std::vector<Event>& out)
{
    for (const auto& ds : snap.samples) {
        for (const auto& s : ds.samples) {
            if (s.kind != SampleKind::Counter)
                continue;
            const CounterRule* rule = rules.find(s.name, ds.ibdev, config);
            if (rule == nullptr && !rules_changed)
                continue;
            const std::string suffix = s.name + (s.netdev.empty() ? "" : "." + s.netdev);
            const ConditionKey key{ds.ibdev, s.port, "counter." + suffix};
            const ConditionKey sat_key{ds.ibdev, s.port, "counter_saturated." + suffix};
            if (rule == nullptr) { // the configuration no longer follows this counter
                const std::string why = "no rule follows " + s.name + " any more (configuration)";
                conditions.recover(key, why, now_real, out);
                conditions.recover(sat_key, why, now_real, out);
                continue;
            }
            const auto width = counterWidth(s.source, s.name);
            const double t = sampleTime(ds, s, now_mono);
            auto o =
                tracker.observe(CounterTracker::key(ds.ibdev, s.port, s.source, s.netdev, s.name),
                                s.value, t, *rule, width);
            using K = CounterObservation::Kind;
            if (o.kind == K::Stale)
                continue;
            if (o.kind == K::Reset) {
                std::string why =
                    fmt::format("counter reset: {} went from {} to {} (driver reload, firmware "
                                "reset or admin clear); a new baseline",
                                s.name, o.previous, s.value);
                conditions.recover(key, why, now_real, out);
                conditions.recover(sat_key, why, now_real, out);
                continue;
            }
            if (isSaturated(s, width)) {
                Condition c;
                c.code = std::get<2>(sat_key);
                c.severity = ConditionSeverity::Info;
                c.source = ConditionSource::Counter;
                c.device = ds.ibdev;
                c.port = s.port;
                c.message = fmt::format("{} is stuck at its maximum {}: its rule cannot see new "
                                        "errors",
                                        s.name, s.value);
                c.advice = "clear the port's counters (perfquery -R) to resume monitoring";
                c.action = Action::None;
                conditions.raise(std::move(c), now_real, out);
            }
            if (o.kind == K::Baseline)
                continue;
            if (o.held)
                continue; // still within a Delta rule's hold: the condition stays as raised
            if (o.breach) {
                Condition c;
                c.code = std::get<2>(key);
                c.severity = rule->severity;
                c.source = ConditionSource::Counter;
                c.device = ds.ibdev;
                c.port = s.port;
                c.message = fmt::format("{}{} grew by {} in {:.0f} s ({}): {}", s.name,
                                        s.netdev.empty() ? "" : " on " + s.netdev, o.grew, o.span,
                                        describeThreshold(*rule), rule->meaning);
                c.advice = rule->advice;
                c.action = rule->action;
                conditions.raise(std::move(c), now_real, out);
            } else {
                conditions.recover(
                    key,
                    rule->kind == RuleKind::Delta
                        ? fmt::format("{} quiet for {:.0f} s ({})", s.name, rule->window_sec,
                                      describeThreshold(*rule))
                        : fmt::format("{} back under its threshold ({}): grew by {} in {:.0f} s",
                                      s.name, describeThreshold(*rule), o.grew, o.span),
                    now_real, out);
            }
        }
    }
}

} // namespace nicd::health
