#include "health/counter_checks.hpp"

#include "text/clock_time.hpp"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <utility>

namespace nicd::health {

namespace {

bool isSaturated(const SeriesKey& k, uint64_t value, CounterWidth width)
{
    if (auto max = saturationValue(k.source, k.name))
        return value == *max;
    if (width == CounterWidth::Saturating)
        return value == std::numeric_limits<uint32_t>::max() ||
               value == std::numeric_limits<uint64_t>::max();
    return value == std::numeric_limits<uint64_t>::max();
}

std::string suffixOf(const std::string& name, const std::string& netdev)
{
    return netdev.empty() ? name : name + "." + netdev;
}

bool sameLayout(const SampleBatch& b, const std::shared_ptr<const SampleLayout>& layout,
                const std::vector<std::string>& netdevs)
{
    return b.layout == layout && b.netdevs == netdevs;
}

} // namespace

void CounterChecks::forgetSeries()
{
    index_.clear();
    device_rules_.clear();
}

void CounterChecks::configured(const Config& config)
{
    rules_.reset(config);
    rules_changed_ = true;
}

void CounterChecks::restore(const nlohmann::json& j)
{
    tracker_ = CounterTracker::fromJson(j);
    forgetSeries();
}

void CounterChecks::forget()
{
    tracker_ = {};
    forgetSeries();
}

void CounterChecks::rename(const std::string& from, const std::string& to)
{
    tracker_.rename(from, to);
    forgetSeries(); // it worked out its series by device name
}

CounterChecks::Entry& CounterChecks::entryFor(const DeviceSamples& ds, const Config& config,
                                              CounterRuleCache& rules, CounterTracker& tracker)
{
    auto& e = index_[ds.ibdev];
    e.used = true;
    if (!e.slots.empty() || e.pma || e.plugin) {
        if (sameLayout(ds.pma, e.pma, e.pma_netdevs) &&
            sameLayout(ds.plugin, e.plugin, e.plugin_netdevs) && ds.meanings == e.meanings)
            return e;
    }
    e.pma = ds.pma.layout;
    e.plugin = ds.plugin.layout;
    e.meanings = ds.meanings;
    e.pma_netdevs = ds.pma.netdevs;
    e.plugin_netdevs = ds.plugin.netdevs;
    e.slots.clear();
    forEachSeries(ds, [&](bool pma, size_t i, const SeriesKey& k, const SampleBatch& b) {
        if (k.kind != SampleKind::Counter)
            return;
        const SeriesMeaning& m = ds.meaningOf(pma, i);
        const CounterRule* rule = rules.find(k.name, m.meaning, ds.ibdev, config);
        if (rule == nullptr)
            return;
        if (rules.perDevice(k.name)) // the cache keeps no per-device rule: keep it here
            rule = &device_rules_.insert_or_assign({k.name, ds.ibdev}, *rule).first->second;
        e.slots.push_back({static_cast<uint32_t>(i), pma, counterWidth(k.source, m.wide), rule,
                           &tracker.history(CounterTracker::key(ds.ibdev, k.port, k.source,
                                                                b.netdevOf(k), k.name))});
    });
    return e;
}

void CounterChecks::check(const DeviceSamples& ds, const Slot& slot, bool may_recover,
                          double now_mono, double now_real, CounterTracker& tracker,
                          ConditionSet& conditions, std::vector<Event>& out)
{
    const SampleBatch& b = slot.pma ? ds.pma : ds.plugin;
    if (slot.index >= b.values.size())
        return;
    const SeriesKey& k = b.layout->series[slot.index];
    const uint64_t value = b.values[slot.index];
    const std::string& netdev = b.netdevOf(k);
    const uint64_t at_usec =
        slot.pma && ds.pma_monotonic_usec ? ds.pma_monotonic_usec : ds.monotonic_usec;
    const double t = at_usec ? static_cast<double>(at_usec) / 1e6 : now_mono;
    const CounterRule& rule = *slot.rule;
    auto o = tracker.observe(*slot.history, value, t, rule, slot.width);
    using K = CounterObservation::Kind;
    if (o.kind == K::Stale)
        return;
    // Condition keys are made only when one may change: a breach, or a device that has a
    // counter condition to recover.
    auto keys = [&] {
        const std::string suffix = suffixOf(k.name, netdev);
        return std::make_pair(ConditionKey{ds.ibdev, k.port, "counter." + suffix},
                              ConditionKey{ds.ibdev, k.port, "counter_saturated." + suffix});
    };
    if (o.kind == K::Reset) {
        if (may_recover) {
            auto [key, sat_key] = keys();
            std::string why =
                fmt::format("counter reset: {} went from {} to {} (driver reload, firmware "
                            "reset or admin clear); a new baseline",
                            k.name, o.previous, value);
            conditions.recover(key, why, now_real, out);
            conditions.recover(sat_key, why, now_real, out);
        }
        return;
    }
    if (isSaturated(k, value, slot.width)) {
        Condition c;
        c.code = std::get<2>(keys().second);
        c.severity = ConditionSeverity::Info;
        c.source = ConditionSource::Counter;
        c.device = ds.ibdev;
        c.port = k.port;
        c.message = fmt::format("{} is stuck at its maximum {}: its rule cannot see new errors",
                                k.name, value);
        c.advice = "clear the port's counters (perfquery -R) to resume monitoring";
        c.action = Action::None;
        conditions.raise(std::move(c), now_real, out);
    }
    if (o.kind == K::Baseline || o.held)
        return; // held: still within a Delta rule's hold, the condition stays as raised
    if (o.breach) {
        Condition c;
        c.code = std::get<2>(keys().first);
        c.severity = rule.severity;
        c.source = ConditionSource::Counter;
        c.device = ds.ibdev;
        c.port = k.port;
        c.message = fmt::format("{}{} grew by {} in {:.0f} s ({}): {}", k.name,
                                netdev.empty() ? "" : " on " + netdev, o.grew, o.span,
                                describeThreshold(rule), rule.meaning);
        // A Delta rule's condition holds after the last increase: say until when.
        if (rule.kind == RuleKind::Delta)
            c.message += fmt::format("; clears at {} if it does not grow again ({:.0f} min after "
                                     "its last increase)",
                                     utcClock(now_real + rule.window_sec), rule.window_sec / 60);
        c.advice = rule.advice;
        c.action = rule.action;
        conditions.raise(std::move(c), now_real, out);
        return;
    }
    if (!may_recover)
        return;
    auto key = keys().first;
    if (!conditions.contains(key))
        return;
    conditions.recover(key,
                       rule.kind == RuleKind::Delta
                           ? fmt::format("{} quiet for {:.0f} s ({})", k.name, rule.window_sec,
                                         describeThreshold(rule))
                           : fmt::format("{} back under its threshold ({}): grew by {} in {:.0f} s",
                                         k.name, describeThreshold(rule), o.grew, o.span),
                       now_real, out);
}

// After a reload: conditions of counters no rule follows any more are recovered.
void CounterChecks::recoverUnfollowed(const Snapshot& snap, const Config& config,
                                      CounterRuleCache& rules, double now_real,
                                      ConditionSet& conditions, std::vector<Event>& out)
{
    for (const auto& ds : snap.samples)
        for (const auto& s : ds.samples()) {
            if (s.kind != SampleKind::Counter ||
                rules.find(s.name, s.meaning, ds.ibdev, config) != nullptr)
                continue;
            const std::string suffix = suffixOf(s.name, s.netdev);
            const std::string why = "no rule follows " + s.name + " any more (configuration)";
            conditions.recover({ds.ibdev, s.port, "counter." + suffix}, why, now_real, out);
            conditions.recover({ds.ibdev, s.port, "counter_saturated." + suffix}, why, now_real,
                               out);
        }
}

void CounterChecks::evaluate(const Snapshot& snap, double now_mono, double now_real,
                             ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    if (std::exchange(rules_changed_, false)) {
        forgetSeries();
        recoverUnfollowed(snap, config, rules_, now_real, conditions, out);
    }
    // The devices with a counter condition now: only theirs can recover.
    std::set<std::string> with_conditions;
    for (const auto& [key, c] : conditions.active())
        if (c.source == ConditionSource::Counter)
            with_conditions.insert(std::get<0>(key));
    for (auto& [ibdev, e] : index_)
        e.used = false;
    for (const auto& ds : snap.samples) {
        const Entry& e = entryFor(ds, config, rules_, tracker_);
        const bool may_recover = with_conditions.contains(ds.ibdev);
        for (const auto& slot : e.slots)
            check(ds, slot, may_recover, now_mono, now_real, tracker_, conditions, out);
    }
    std::erase_if(index_, [](const auto& kv) { return !kv.second.used; });
}

} // namespace nicd::health
