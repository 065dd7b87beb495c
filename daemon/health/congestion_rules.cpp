#include "health/congestion_rules.hpp"

#include "health/congestion_conditions.hpp"
#include "health/json_integers.hpp"
#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string_view>

namespace nicd::health {

namespace {

using Reading = CongestionRules::Reading;

// What a counter is to the verdict, from what its plugin says it means (the per-priority ones
// only on a lossless priority); nullopt for the counters it does not use. The numbers are written
// in the state's keys (keyOf): appended, never renumbered.
enum class Kind : uint8_t {
    RxPause,
    TxPause,
    Transitions,
    Drops,
    StormWarning,
    StormError,
    Ecn,
    CnpSent,
    CnpHandled,
    OutOfSequence,
    Retransmit
};

std::optional<Kind> kindOf(const SeriesMeaning& m, const std::set<uint8_t>& lossless)
{
    const bool on_lossless = lossless.contains(m.priority);
    switch (m.meaning) {
    case Meaning::RxPauseDuration:
        return on_lossless ? std::optional(Kind::RxPause) : std::nullopt;
    case Meaning::TxPauseDuration:
        return on_lossless ? std::optional(Kind::TxPause) : std::nullopt;
    case Meaning::RxPauseTransitions:
        return on_lossless ? std::optional(Kind::Transitions) : std::nullopt;
    case Meaning::RxPriorityDrops:
        return on_lossless ? std::optional(Kind::Drops) : std::nullopt;
    case Meaning::PauseStormWarning:
        return Kind::StormWarning;
    case Meaning::PauseStormError:
        return Kind::StormError;
    case Meaning::EcnMarked:
        return Kind::Ecn;
    case Meaning::CnpSent:
        return Kind::CnpSent;
    case Meaning::CnpHandled:
        return Kind::CnpHandled;
    case Meaning::OutOfSequence:
        return Kind::OutOfSequence;
    case Meaning::SequenceErrorNak:
    case Meaning::AdaptiveRetransmit:
        return Kind::Retransmit;
    default:
        return std::nullopt;
    }
}

// "<kind>/<netdev>/<counter name>": the state's key of a series (state.json keeps it).
std::string keyOf(Kind k, const std::string& netdev, const std::string& name)
{
    return std::to_string(static_cast<int>(k)) + "/" + netdev + "/" + name;
}

// The kind a key was written with; throws on a key this version does not write.
Kind kindOfKey(const std::string& key)
{
    int k = std::stoi(key.substr(0, key.find('/')));
    if (k < 0 || k > static_cast<int>(Kind::Retransmit))
        throw std::out_of_range("congestion counter key " + key);
    return static_cast<Kind>(k);
}

bool wentBack(const Reading& older, const Reading& newer)
{
    auto o = older.values.begin();
    for (const auto& [key, value] : newer.values) {
        while (o != older.values.end() && o->first < key)
            ++o;
        if (o != older.values.end() && o->first == key && value < o->second)
            return true;
    }
    return false;
}

// True when `r` lacks a counter the window's newest reading has: a read that failed this cycle
// (a backed-off file, hw_counters not answering). Such a cycle is not judged.
bool missesCounters(const std::deque<Reading>& readings, const Reading& r)
{
    if (readings.empty())
        return false;
    auto it = r.values.begin();
    for (const auto& [key, _] : readings.back().values) {
        while (it != r.values.end() && it->first < key)
            ++it;
        if (it == r.values.end() || it->first != key)
            return true;
    }
    return false;
}

// Appends `r`, keeps one reading at or before the window's start, and at most ~32 readings: a
// new one replaces the last when the two before it are closer than a 30th of the window.
void push(std::deque<Reading>& readings, const Reading& r, double window)
{
    const double max_gap =
        std::max(CongestionRules::kMaxGapWindows * window, CongestionRules::kMaxGapSec);
    if (!readings.empty() && (r.at < readings.back().at || wentBack(readings.back(), r) ||
                              r.at - readings.back().at > max_gap))
        readings.clear(); // a reset, a new boot's clock, a long gap: start again
    if (!readings.empty() && r.at == readings.back().at)
        return;
    if (readings.size() >= 2 && readings.back().at - readings[readings.size() - 2].at < window / 30)
        readings.back() = r;
    else
        readings.push_back(r);
    while (readings.size() >= 2 && readings[1].at <= r.at - window)
        readings.pop_front();
}

// Over the window: events summed over the counters present at both ends; pause shares the
// largest of any one counter's (priorities and LAG members pause at the same time: a sum would
// read two priorities paused 30 % each as 60 %).
CongestionDelta deltaOf(const std::deque<Reading>& readings, const std::vector<std::string>& keys)
{
    CongestionDelta d;
    if (readings.size() < 2)
        return d;
    const auto& a = readings.front();
    const auto& b = readings.back();
    d.seconds = b.at - a.at;
    auto start = a.values.begin();
    for (const auto& [key, value] : b.values) {
        while (start != a.values.end() && start->first < key)
            ++start;
        if (start == a.values.end() || start->first != key)
            continue;
        const double delta = value - start->second;
        switch (kindOfKey(keys[key])) {
        case Kind::RxPause:
            d.rx_pause_us = std::max(d.rx_pause_us, delta);
            break;
        case Kind::TxPause:
            d.tx_pause_us = std::max(d.tx_pause_us, delta);
            break;
        case Kind::Transitions:
            d.pause_transitions += delta;
            d.transitions_read = true;
            break;
        case Kind::Drops:
            d.lossless_drops += delta;
            break;
        case Kind::StormWarning:
            d.storm_warnings += delta;
            break;
        case Kind::StormError:
            d.storm_errors += delta;
            break;
        case Kind::Ecn:
            d.ecn_marked += delta;
            break;
        case Kind::CnpSent:
            d.cnp_sent += delta;
            break;
        case Kind::CnpHandled:
            d.cnp_handled += delta;
            break;
        case Kind::OutOfSequence:
            d.out_of_sequence += delta;
            break;
        case Kind::Retransmit:
            d.retransmissions += delta;
            break;
        }
    }
    return d;
}

} // namespace

uint32_t CongestionRules::keyId(const std::string& key)
{
    auto [it, fresh] = key_ids_.try_emplace(key, static_cast<uint32_t>(keys_.size()));
    if (fresh)
        keys_.push_back(key);
    return it->second;
}

const CongestionRules::PortIndex& CongestionRules::indexFor(const DeviceSamples& ds, uint32_t port,
                                                            const std::vector<uint8_t>& lossless)
{
    auto& ix = indices_[{ds.ibdev, port}];
    if (!ix.slots.empty() || ix.pma || ix.plugin)
        if (ix.pma == ds.pma.layout && ix.plugin == ds.plugin.layout &&
            ix.meanings == ds.meanings && ix.plugin_netdevs == ds.plugin.netdevs &&
            ix.lossless == lossless)
            return ix;
    ix.pma = ds.pma.layout;
    ix.plugin = ds.plugin.layout;
    ix.meanings = ds.meanings;
    ix.plugin_netdevs = ds.plugin.netdevs;
    ix.lossless = lossless;
    ix.slots.clear();
    const std::set<uint8_t> prios(lossless.begin(), lossless.end());
    forEachSeries(ds, [&](bool pma, size_t i, const SeriesKey& k, const SampleBatch& b) {
        if (k.port != port)
            return;
        if (auto kind = kindOf(ds.meaningOf(pma, i), prios))
            ix.slots.push_back(
                {pma, static_cast<uint32_t>(i), keyId(keyOf(*kind, b.netdevOf(k), k.name))});
    });
    std::sort(ix.slots.begin(), ix.slots.end(),
              [](const auto& a, const auto& b) { return a.key < b.key; });
    return ix;
}

// The port's congestion counters this cycle; nothing when it has none (no PFC, not RoCE).
std::optional<CongestionRules::Reading>
CongestionRules::readingOf(const DeviceSamples& ds, uint32_t port,
                           const std::vector<uint8_t>& lossless)
{
    const PortIndex& ix = indexFor(ds, port, lossless);
    Reading r;
    r.at = static_cast<double>(ds.monotonic_usec) / 1e6;
    r.values.reserve(ix.slots.size());
    for (const auto& slot : ix.slots) {
        const SampleBatch& b = slot.pma ? ds.pma : ds.plugin;
        if (slot.index < b.values.size())
            r.values.emplace_back(slot.key, static_cast<double>(b.values[slot.index]));
    }
    if (r.values.empty() || r.at <= 0)
        return std::nullopt;
    return r;
}

void CongestionRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                               ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    const auto& h = config.health;
    const double window = h.congestion_window_sec;
    const CongestionLimits limits{h.congestion_pause_ratio, h.congestion_storm_ratio};
    Verdicts v;
    std::set<std::pair<std::string, uint32_t>> ports; // the Ethernet ports that exist
    for (const auto& d : snap.inventory.devices) {
        for (const auto& p : d.ports)
            if (p.link_layer == "Ethernet")
                ports.emplace(d.ibdev, p.num);
        // The collector makes samples[i] for devices[i]; a snapshot put together otherwise is
        // searched.
        const size_t i = static_cast<size_t>(&d - snap.inventory.devices.data());
        auto ds = i < snap.samples.size() && snap.samples[i].ibdev == d.ibdev
                      ? snap.samples.begin() + static_cast<std::ptrdiff_t>(i)
                      : std::find_if(snap.samples.begin(), snap.samples.end(),
                                     [&](const DeviceSamples& x) { return x.ibdev == d.ibdev; });
        if (ds == snap.samples.end())
            continue;
        const auto lossless = config.provisionFor(d.ibdev).pfc_priorities;
        for (const auto& p : d.ports) {
            if (p.link_layer != "Ethernet")
                continue;
            auto r = readingOf(*ds, p.num, lossless);
            auto key = std::pair{d.ibdev, p.num};
            // No counters this cycle, or fewer than before (a read that failed): the window and
            // what was said stand until the counters are back.
            if (!r || missesCounters(windows_[key].readings, *r))
                continue;
            auto& w = windows_[key];
            push(w.readings, *r, window);
            w.delta = deltaOf(w.readings, keys_);
            w.verdict = judgeCongestion(w.delta, limits);
            if (w.verdict.state == CongestionState::Unknown)
                continue; // not judged yet: what was said stands
            v.judged(d.ibdev, p.num);
            auto qos = snap.qos.ports.find(key);
            if (auto c = congestionCondition(
                    w.verdict, d.ibdev, p.num,
                    ecnAtNic(qos == snap.qos.ports.end() ? nullptr : &qos->second)))
                v.raise(std::move(*c));
        }
    }
    // Windows of ports that are gone (or no longer Ethernet) go; their conditions recover.
    std::erase_if(indices_, [&](const auto& kv) { return !ports.contains(kv.first); });
    std::erase_if(windows_, [&](const auto& kv) {
        if (ports.contains(kv.first))
            return false;
        v.judged(kv.first.first, kv.first.second);
        return true;
    });
    v.apply(
        conditions, [](const std::string& code) { return code.starts_with("congestion."); },
        [this](const Condition& c) {
            auto it = windows_.find({c.device, c.port});
            return it == windows_.end()
                       ? std::string("no congestion counters any more")
                       : fmt::format("{} now: {}", toString(it->second.verdict.state),
                                     it->second.verdict.why);
        },
        now_real, out);
}

void CongestionRules::annotate(HealthReport& report) const
{
    for (const auto& [key, w] : windows_) {
        CongestionReport r;
        r.state = toString(w.verdict.state);
        r.window_seconds = w.delta.seconds;
        r.rx_paused_ratio = w.verdict.rx_paused_ratio;
        r.tx_paused_ratio = w.verdict.tx_paused_ratio;
        if (w.delta.seconds > 0) {
            r.ecn_marked_per_second = w.delta.ecn_marked / w.delta.seconds;
            r.cnp_sent_per_second = w.delta.cnp_sent / w.delta.seconds;
            r.cnp_handled_per_second = w.delta.cnp_handled / w.delta.seconds;
        }
        report.congestion[key] = r;
    }
}

namespace {

nlohmann::json windowJson(const std::pair<std::string, uint32_t>& port,
                          const std::deque<CongestionRules::Reading>& readings,
                          const std::vector<std::string>& keys)
{
    auto rows = nlohmann::json::array();
    for (const auto& r : readings) {
        auto values = nlohmann::json::object();
        for (const auto& [key, value] : r.values)
            values[keys[key]] = value;
        rows.push_back({{"at", r.at}, {"values", std::move(values)}});
    }
    return {{"device", port.first}, {"port", port.second}, {"readings", std::move(rows)}};
}

} // namespace

void CongestionRules::appendJson(std::string& out) const
{
    out += '[';
    bool first = true;
    for (const auto& [key, w] : windows_) {
        appendJsonComma(out, first);
        appendJsonText(out, windowJson(key, w.readings, keys_));
    }
    out += ']';
}

void CongestionRules::restore(const nlohmann::json& j)
{
    // Parsed aside first: a document that throws leaves this object as it was.
    std::map<std::pair<std::string, uint32_t>,
             std::vector<std::pair<double, std::map<std::string, double>>>>
        parsed;
    for (const auto& x : j) {
        auto& readings =
            parsed[{x.at("device").get<std::string>(), getIntegers<uint32_t>(x.at("port"))}];
        for (const auto& r : x.at("readings")) {
            auto at = r.at("at").get<double>();
            auto values = r.at("values").get<std::map<std::string, double>>();
            for (const auto& [key, _] : values)
                (void)kindOfKey(key); // throws on a key this version does not write
            if (!readings.empty() && at <= readings.back().first)
                throw std::runtime_error("congestion readings out of order");
            readings.emplace_back(at, std::move(values));
        }
    }
    windows_.clear();
    indices_.clear();
    for (auto& [port, readings] : parsed) {
        Window w;
        for (auto& [at, values] : readings) {
            Reading reading{at, {}};
            for (const auto& [key, value] : values)
                reading.values.emplace_back(keyId(key), value);
            std::sort(reading.values.begin(), reading.values.end());
            w.readings.push_back(std::move(reading));
        }
        windows_[port] = std::move(w);
    }
}

} // namespace nicd::health
