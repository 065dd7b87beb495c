#include "health/congestion_rules.hpp"

#include "health/json_integers.hpp"
#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string_view>

namespace nicd::health {

namespace {

using Reading = CongestionRules::Reading;

// What a counter is to the verdict, from its name; nullopt for the counters it does not use.
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

std::optional<Kind> kindOf(const SampleRef& s, const std::set<uint8_t>& lossless)
{
    if (s.source == "ethtool") {
        if (s.name == "tx_pause_storm_warning_events")
            return Kind::StormWarning;
        if (s.name == "tx_pause_storm_error_events")
            return Kind::StormError;
        // rx_prio<p>_pause_duration, tx_prio<p>_pause_duration, rx_prio<p>_pause_transition,
        // rx_prio<p>_discards for a lossless p.
        if (s.name.size() < 9 || (!s.name.starts_with("rx_prio") && !s.name.starts_with("tx_prio")))
            return std::nullopt;
        const char digit = s.name[7];
        if (digit < '0' || digit > '7' || !lossless.contains(static_cast<uint8_t>(digit - '0')))
            return std::nullopt;
        const std::string_view rest = std::string_view(s.name).substr(8);
        const bool rx = s.name[0] == 'r';
        if (rest == "_pause_duration")
            return rx ? Kind::RxPause : Kind::TxPause;
        if (rx && rest == "_pause_transition")
            return Kind::Transitions;
        if (rx && rest == "_discards")
            return Kind::Drops;
        return std::nullopt;
    }
    if (s.source == "hw_counters") {
        if (s.name == "np_ecn_marked_roce_packets")
            return Kind::Ecn;
        if (s.name == "np_cnp_sent")
            return Kind::CnpSent;
        if (s.name == "rp_cnp_handled")
            return Kind::CnpHandled;
        if (s.name == "out_of_sequence")
            return Kind::OutOfSequence;
        if (s.name == "packet_seq_err" || s.name == "roce_adp_retrans")
            return Kind::Retransmit;
    }
    return std::nullopt;
}

std::string keyOf(const SampleRef& s, Kind k)
{
    return std::to_string(static_cast<int>(k)) + "/" + s.netdev + "/" + s.name;
}

// The kind a key was written with; throws on a key this version does not write.
Kind kindOfKey(const std::string& key)
{
    int k = std::stoi(key.substr(0, key.find('/')));
    if (k < 0 || k > static_cast<int>(Kind::Retransmit))
        throw std::out_of_range("congestion counter key " + key);
    return static_cast<Kind>(k);
}

// The port's congestion counters this cycle; nothing when it has none (no PFC, not RoCE).
std::optional<Reading> readingOf(const DeviceSamples& ds, uint32_t port,
                                 const std::vector<uint8_t>& lossless)
{
    const std::set<uint8_t> prios(lossless.begin(), lossless.end());
    Reading r;
    r.at = static_cast<double>(ds.monotonic_usec) / 1e6;
    for (const auto& s : ds.samples())
        if (s.port == port)
            if (auto k = kindOf(s, prios))
                r.values[keyOf(s, *k)] = static_cast<double>(s.value);
    if (r.values.empty() || r.at <= 0)
        return std::nullopt;
    return r;
}

bool wentBack(const Reading& older, const Reading& newer)
{
    for (const auto& [key, value] : newer.values)
        if (auto it = older.values.find(key); it != older.values.end() && value < it->second)
            return true;
    return false;
}

// True when `r` lacks a counter the window's newest reading has: a read that failed this cycle
// (a backed-off file, hw_counters not answering). Such a cycle is not judged.
bool missesCounters(const std::deque<Reading>& readings, const Reading& r)
{
    if (readings.empty())
        return false;
    for (const auto& [key, _] : readings.back().values)
        if (!r.values.contains(key))
            return true;
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
CongestionDelta deltaOf(const std::deque<Reading>& readings)
{
    CongestionDelta d;
    if (readings.size() < 2)
        return d;
    const auto& a = readings.front();
    const auto& b = readings.back();
    d.seconds = b.at - a.at;
    for (const auto& [key, value] : b.values) {
        auto start = a.values.find(key);
        if (start == a.values.end())
            continue;
        const double delta = value - start->second;
        switch (kindOfKey(key)) {
        case Kind::RxPause:
            d.rx_pause_us = std::max(d.rx_pause_us, delta);
            break;
        case Kind::TxPause:
            d.tx_pause_us = std::max(d.tx_pause_us, delta);
            break;
        case Kind::Transitions:
            d.pause_transitions += delta;
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

std::optional<Condition> conditionOf(const CongestionVerdict& v, const std::string& ibdev,
                                     uint32_t port)
{
    Condition c;
    c.device = ibdev;
    c.port = port;
    c.source = ConditionSource::Counter;
    c.message = v.why;
    switch (v.state) {
    case CongestionState::PfcOnly:
        c.code = "congestion.pfc_only";
        c.severity = ConditionSeverity::Degraded;
        c.advice = "PFC alone stops the senders, so pauses spread through the fabric: enable ECN "
                   "on the NIC (Ecn=yes) and on the switch queue of the lossless priority, with "
                   "its marking threshold below the PFC XOFF threshold";
        c.action = Action::CheckCongestionConfig;
        return c;
    case CongestionState::PauseStorm:
        c.code = "congestion.pause_storm";
        c.severity = v.fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded;
        c.advice = "the port is held off most of the time: look for the stuck receiver or the "
                   "switch port sending the pauses (and its PFC watchdog)";
        c.action = Action::CheckSwitchPort;
        return c;
    case CongestionState::Lossy:
        c.code = "congestion.lossy";
        c.severity = ConditionSeverity::Degraded;
        c.advice = "the lossless priority loses packets: check PFC, trust and buffers on the NIC "
                   "and the switch (nicctl verify), and that RoCE traffic uses that priority";
        c.action = Action::CheckQosConfig;
        return c;
    default:
        return std::nullopt;
    }
}

} // namespace

void CongestionRules::evaluate(const Snapshot& snap, const Config& config, double /*now_mono*/,
                               double now_real, ConditionSet& conditions, std::vector<Event>& out)
{
    const auto& h = config.health;
    const double window = h.congestion_window_sec;
    const CongestionLimits limits{h.congestion_pause_ratio, h.congestion_storm_ratio};
    Verdicts v;
    std::set<std::pair<std::string, uint32_t>> ports; // the Ethernet ports that exist
    for (const auto& d : snap.inventory.devices) {
        for (const auto& p : d.ports)
            if (p.link_layer == "Ethernet")
                ports.emplace(d.ibdev, p.num);
        auto ds = std::find_if(snap.samples.begin(), snap.samples.end(),
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
            w.delta = deltaOf(w.readings);
            w.verdict = judgeCongestion(w.delta, limits);
            if (w.verdict.state == CongestionState::Unknown)
                continue; // not judged yet: what was said stands
            v.judged(d.ibdev, p.num);
            if (auto c = conditionOf(w.verdict, d.ibdev, p.num))
                v.raise(std::move(*c));
        }
    }
    // Windows of ports that are gone (or no longer Ethernet) go; their conditions recover.
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

nlohmann::json CongestionRules::toJson() const
{
    auto j = nlohmann::json::array();
    for (const auto& [key, w] : windows_) {
        auto readings = nlohmann::json::array();
        for (const auto& r : w.readings)
            readings.push_back({{"at", r.at}, {"values", r.values}});
        j.push_back({{"device", key.first}, {"port", key.second}, {"readings", readings}});
    }
    return j;
}

void CongestionRules::restore(const nlohmann::json& j)
{
    std::map<std::pair<std::string, uint32_t>, Window> windows;
    for (const auto& x : j) {
        Window w;
        for (const auto& r : x.at("readings")) {
            Reading reading{r.at("at").get<double>(),
                            r.at("values").get<std::map<std::string, double>>()};
            for (const auto& [key, _] : reading.values)
                (void)kindOfKey(key); // throws on a key this version does not write
            if (!w.readings.empty() && reading.at <= w.readings.back().at)
                throw std::runtime_error("congestion readings out of order");
            w.readings.push_back(std::move(reading));
        }
        windows[{x.at("device").get<std::string>(), getIntegers<uint32_t>(x.at("port"))}] =
            std::move(w);
    }
    windows_ = std::move(windows);
}

} // namespace nicd::health
