#include "health/congestion_rules.hpp"

#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

namespace nicd::health {

namespace {

using Reading = CongestionRules::Reading;

enum Field : size_t {
    RxPause,
    TxPause,
    EcnMarked,
    CnpSent,
    CnpHandled,
    StormWarnings,
    StormErrors,
    LosslessDrops,
    OutOfSequence,
    Retransmissions,
    PauseTransitions,
    Seen, // 1 when any congestion counter was found
};

// Adds `value` to field `f` (a missing field starts at 0 once one is found).
void add(Reading& r, Field f, uint64_t value)
{
    r.values[f] = std::max(0.0, r.values[f]) + static_cast<double>(value);
    r.values[Seen] = 1;
}

// The port's congestion counters this cycle; nothing when it has none (no PFC, not RoCE).
std::optional<Reading> readingOf(const DeviceSamples& ds, uint32_t port,
                                 const std::vector<uint8_t>& lossless)
{
    Reading r;
    r.values.fill(-1);
    r.at = static_cast<double>(ds.monotonic_usec) / 1e6;
    std::set<std::string> rx_pause, tx_pause, drops, transitions;
    for (auto p : lossless) {
        auto prio = "rx_prio" + std::to_string(p);
        rx_pause.insert(prio + "_pause_duration");
        drops.insert(prio + "_discards");
        transitions.insert(prio + "_pause_transition");
        tx_pause.insert("tx_prio" + std::to_string(p) + "_pause_duration");
    }
    for (const auto& s : ds.samples) {
        if (s.port != port)
            continue;
        if (s.source == "ethtool") {
            if (rx_pause.contains(s.name))
                add(r, RxPause, s.value);
            else if (tx_pause.contains(s.name))
                add(r, TxPause, s.value);
            else if (drops.contains(s.name))
                add(r, LosslessDrops, s.value);
            else if (transitions.contains(s.name))
                add(r, PauseTransitions, s.value);
            else if (s.name == "tx_pause_storm_warning_events")
                add(r, StormWarnings, s.value);
            else if (s.name == "tx_pause_storm_error_events")
                add(r, StormErrors, s.value);
        } else if (s.source == "hw_counters") {
            if (s.name == "np_ecn_marked_roce_packets")
                add(r, EcnMarked, s.value);
            else if (s.name == "np_cnp_sent")
                add(r, CnpSent, s.value);
            else if (s.name == "rp_cnp_handled")
                add(r, CnpHandled, s.value);
            else if (s.name == "out_of_sequence")
                add(r, OutOfSequence, s.value);
            else if (s.name == "packet_seq_err" || s.name == "roce_adp_retrans")
                add(r, Retransmissions, s.value);
        }
    }
    if (r.values[Seen] < 0 || r.at <= 0)
        return std::nullopt;
    return r;
}

bool wentBack(const Reading& older, const Reading& newer)
{
    for (size_t i = 0; i < Seen; ++i)
        if (older.values[i] >= 0 && newer.values[i] >= 0 && newer.values[i] < older.values[i])
            return true;
    return false;
}

// Appends `r`, keeps one reading at or before the window's start, and at most ~32 readings: a
// new one replaces the last when the two before it are closer than a 30th of the window.
void push(std::deque<Reading>& readings, const Reading& r, double window)
{
    if (!readings.empty() && (r.at < readings.back().at || wentBack(readings.back(), r)))
        readings.clear(); // a counter reset, a new boot's clock: start again
    if (!readings.empty() && r.at == readings.back().at)
        return;
    if (readings.size() >= 2 && readings.back().at - readings[readings.size() - 2].at < window / 30)
        readings.back() = r;
    else
        readings.push_back(r);
    while (readings.size() >= 2 && readings[1].at <= r.at - window)
        readings.pop_front();
}

CongestionDelta deltaOf(const std::deque<Reading>& readings)
{
    CongestionDelta d;
    if (readings.size() < 2)
        return d;
    const auto& a = readings.front();
    const auto& b = readings.back();
    auto diff = [&](Field f) {
        return a.values[f] >= 0 && b.values[f] >= 0 ? b.values[f] - a.values[f] : 0.0;
    };
    d.seconds = b.at - a.at;
    d.rx_pause_us = diff(RxPause);
    d.tx_pause_us = diff(TxPause);
    d.ecn_marked = diff(EcnMarked);
    d.cnp_sent = diff(CnpSent);
    d.cnp_handled = diff(CnpHandled);
    d.storm_warnings = diff(StormWarnings);
    d.storm_errors = diff(StormErrors);
    d.lossless_drops = diff(LosslessDrops);
    d.out_of_sequence = diff(OutOfSequence);
    d.retransmissions = diff(Retransmissions);
    d.pause_transitions = diff(PauseTransitions);
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
    std::set<std::pair<std::string, uint32_t>> seen;
    for (const auto& d : snap.inventory.devices) {
        auto ds = std::find_if(snap.samples.begin(), snap.samples.end(),
                               [&](const DeviceSamples& x) { return x.ibdev == d.ibdev; });
        if (ds == snap.samples.end())
            continue;
        const auto lossless = config.provisionFor(d.ibdev).pfc_priorities;
        for (const auto& p : d.ports) {
            if (p.link_layer != "Ethernet")
                continue;
            auto r = readingOf(*ds, p.num, lossless);
            if (!r)
                continue;
            auto key = std::pair{d.ibdev, p.num};
            seen.insert(key);
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
    std::erase_if(windows_, [&](const auto& kv) { return !seen.contains(kv.first); });
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
        for (const auto& r : x.at("readings"))
            w.readings.push_back(
                {r.at("at").get<double>(), r.at("values").get<std::array<double, kFields>>()});
        windows[{x.at("device").get<std::string>(), x.at("port").get<uint32_t>()}] = std::move(w);
    }
    windows_ = std::move(windows);
}

} // namespace nicd::health
