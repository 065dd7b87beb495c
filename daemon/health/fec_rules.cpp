#include "health/fec_rules.hpp"

#include "health/verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace nicd::health {

namespace {

// Pre-FEC BER limits. RS(544,514) "KP4" on 50G+ PAM4 lanes: 2.4e-4 (IEEE 802.3cm/bs); RS(528,514)
// "KR4" on 25G NRZ lanes: 5e-5 (commonly quoted); LLRS(272,257) and FireCode BASE-R: no published
// number found, so conservative design values (override with FecBerLimit=).
constexpr double kKp4Limit = 2.4e-4;
constexpr double kKr4Limit = 5e-5;
constexpr double kLlrsLimit = 1e-4;
constexpr double kBaseRLimit = 1e-5;
constexpr double kPam4LaneGbps = 50;  // lanes this fast use RS(544,514)
constexpr double kMinIntervalSec = 1; // reads closer than this give no BER

struct FecReading {
    double at = 0;
    std::optional<double> corrected;
    std::optional<double> uncorrectable;
    std::string mode;
    bool from_phy = false; // corrected bits from the fast cycle's ethtool -S, not the FEC read
};

// The uplink carries traffic now: its port was ACTIVE at the last slow read and its own netdev
// is up at this cycle (a LAG member can be down while the port stays ACTIVE; a link that just
// dropped shows here before the next slow read).
bool carriesTraffic(const Snapshot& snap, const Uplink& up)
{
    if (!up.active)
        return false;
    auto it = snap.netdevs.find(up.netdev);
    if (it == snap.netdevs.end())
        return true;
    return it->second.operstate == "up" && it->second.carrier.value_or(true);
}

std::optional<double> phyCorrectedBits(const Snapshot& snap, const Uplink& up, double& at)
{
    for (const auto& ds : snap.samples) {
        if (ds.ibdev != up.ibdev)
            continue;
        for (const auto& s : ds.samples())
            if (s.meaning == Meaning::FecCorrectedBits && s.netdev == up.netdev) {
                at = static_cast<double>(ds.monotonic_usec) / 1e6;
                return static_cast<double>(s.value);
            }
    }
    return std::nullopt;
}

std::optional<FecReading> readingOf(const Snapshot& snap, const Uplink& up)
{
    FecReading r;
    auto fec = snap.fec.find(up.netdev);
    if (fec != snap.fec.end()) {
        r.at = fec->second.read_at;
        r.mode = fec->second.active;
        if (fec->second.corrected_bits)
            r.corrected = static_cast<double>(fec->second.corrected_bits->total);
        if (fec->second.uncorrectable_blocks)
            r.uncorrectable = static_cast<double>(fec->second.uncorrectable_blocks->total);
    }
    if (!r.corrected) {
        double at = 0;
        if (auto bits = phyCorrectedBits(snap, up, at)) {
            r.corrected = bits;
            r.at = at;
            r.from_phy = true;
        }
    }
    if (!r.corrected && !r.uncorrectable)
        return std::nullopt;
    return r;
}

std::string formatWindow(double seconds)
{
    if (seconds == 1)
        return "second";
    if (seconds == 60)
        return "minute";
    if (seconds == 3600)
        return "hour";
    return fmt::format("{:g} s", seconds);
}

} // namespace

std::pair<double, std::string> fecBerLimit(std::string_view mode, std::optional<double> lane_gbps)
{
    if (mode == "RS")
        return lane_gbps && *lane_gbps >= kPam4LaneGbps
                   ? std::pair<double, std::string>{kKp4Limit, "RS(544,514)"}
                   : std::pair<double, std::string>{kKr4Limit, "RS(528,514)"};
    if (mode == "LLRS")
        return {kLlrsLimit, "LLRS(272,257)"};
    if (mode == "BaseR")
        return {kBaseRLimit, "BASE-R FEC"};
    return {0, ""};
}

void FecRules::evaluate(const Snapshot& snap, double now_mono, double now_real,
                        ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    const auto& sc = config.signals;
    Verdicts margin, uncorrectable;
    std::set<std::string> seen;
    // Per port: every uplink of it has a measured BER now (a LAG's members all must).
    std::map<std::pair<std::string, uint32_t>, bool> measured;
    for (const auto& up : snap.uplinks) {
        if (up.link_layer != "Ethernet" || !sc.enable)
            continue;
        auto r = readingOf(snap, up);
        if (!r)
            continue;
        seen.insert(up.netdev);
        Track& t = tracks_[up.netdev];
        std::optional<double> lane_gbps;
        if (up.rate_gbps && up.lanes)
            lane_gbps = *up.rate_gbps / *up.lanes;
        auto [mode_limit, fec_name] = fecBerLimit(r->mode, lane_gbps);
        const bool live = carriesTraffic(snap, up);
        // Reads closer than kMinIntervalSec (two --once runs in a row) keep the last BER and
        // baseline: too short a time for a ratio. PHY counters come every fast cycle: their
        // windows are as long as the FEC reads' ([signals] IntervalSec=).
        const double min_window =
            r->from_phy ? std::max(kMinIntervalSec, sc.interval_ms / 1000.0) : kMinIntervalSec;
        if (r->at != t.at && (t.at == 0 || r->at - t.at >= min_window || r->at < t.at)) {
            double dt = r->at - t.at;
            t.ber = -1;
            if (r->corrected && t.corrected >= 0 && *r->corrected >= t.corrected && t.at > 0 &&
                dt >= kMinIntervalSec && up.rate_gbps && *up.rate_gbps > 0 && live)
                t.ber = (*r->corrected - t.corrected) / (*up.rate_gbps * 1e9 * dt);
            if (r->uncorrectable && t.uncorrectable >= 0 && *r->uncorrectable > t.uncorrectable) {
                t.growth.emplace_back(r->at, *r->uncorrectable - t.uncorrectable);
                t.held_until = now_mono + kHoldSec;
            }
            // No baseline across a link that is down: the next window starts when it is up.
            t.corrected = live ? r->corrected.value_or(-1) : -1;
            t.uncorrectable = r->uncorrectable.value_or(-1);
            t.at = r->at;
            t.limit = sc.fec_ber_limit.value_or(mode_limit);
        }
        uncorrectable.judged(up.ibdev, up.port);
        // The margin is judged only on a measured BER: while the link is down, and for the first
        // read after, what was said of it stands rather than recovering as if the margin had
        // come back (the link's own condition says it is down).
        bool& all = measured.try_emplace({up.ibdev, up.port}, true).first->second;
        all = all && live && t.ber >= 0;
        if (live && t.ber >= 0 && t.limit > 0 && t.ber > sc.fec_margin_fraction * t.limit) {
            auto limit_name = sc.fec_ber_limit ? std::string("FecBerLimit=") : fec_name;
            margin.raise(signalCondition(
                "fec_margin", ConditionSeverity::Degraded, up.ibdev, up.port,
                fmt::format("{}: pre-FEC BER {:.2e} is {:.0f}% of what {} corrects ({:.1e}); "
                            "raised above {:g}%",
                            up.netdev, t.ber, 100 * t.ber / t.limit, limit_name, t.limit,
                            100 * sc.fec_margin_fraction),
                "no packet is lost yet, but the link's error margin is running out: replace the "
                "cable or transceiver at the next maintenance window",
                Action::ReplaceCableOrTransceiver));
        }
        const auto& fatal = sc.fec_uncorrectable_fatal;
        std::erase_if(t.growth, [&](const auto& g) { return g.first < t.at - fatal.window_sec; });
        if (now_mono < t.held_until) {
            double recent = 0;
            for (const auto& g : t.growth)
                recent += g.second;
            bool is_fatal = recent > fatal.count;
            uncorrectable.raise(signalCondition(
                "fec_uncorrectable",
                is_fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded, up.ibdev,
                up.port,
                fmt::format("{}: {:g} uncorrectable FEC blocks in the last {} (fatal above {:g}); "
                            "held {:g} s after the last",
                            up.netdev, recent, formatWindow(fatal.window_sec), fatal.count,
                            kHoldSec),
                "packets are lost on this link: replace the cable or transceiver",
                Action::ReplaceCableOrTransceiver));
        }
    }
    std::erase_if(tracks_, [&](const auto& kv) { return !seen.contains(kv.first); });
    for (const auto& [port, all] : measured)
        if (all)
            margin.judged(port.first, port.second);
    margin.apply(
        conditions, [](const std::string& code) { return code == "fec_margin"; },
        [](const Condition&) { return std::string("the pre-FEC BER is back within the margin"); },
        now_real, out);
    uncorrectable.apply(
        conditions, [](const std::string& code) { return code == "fec_uncorrectable"; },
        [](const Condition&) {
            return fmt::format("no uncorrectable FEC blocks for {:g} s", kHoldSec);
        },
        now_real, out);
}

void FecRules::annotate(HealthReport& report) const
{
    for (const auto& [netdev, t] : tracks_)
        if (t.ber >= 0)
            report.pre_fec_ber[netdev] = {t.ber, t.limit};
}

void FecRules::appendJson(std::string& out) const
{
    auto j = nlohmann::json::object();
    for (const auto& [netdev, t] : tracks_)
        j[netdev] = {{"corrected", t.corrected},
                     {"uncorrectable", t.uncorrectable},
                     {"at", t.at},
                     {"ber", t.ber},
                     {"limit", t.limit},
                     {"growth", t.growth},
                     {"held_until", t.held_until}};
    appendJsonText(out, j);
}

void FecRules::restore(const nlohmann::json& j)
{
    std::map<std::string, Track> tracks;
    for (const auto& [netdev, x] : j.items()) {
        Track t;
        t.corrected = x.at("corrected").get<double>();
        t.uncorrectable = x.at("uncorrectable").get<double>();
        t.at = x.at("at").get<double>();
        t.ber = x.at("ber").get<double>();
        t.limit = x.at("limit").get<double>();
        t.growth = x.at("growth").get<std::vector<std::pair<double, double>>>();
        t.held_until = x.at("held_until").get<double>();
        tracks[netdev] = std::move(t);
    }
    tracks_ = std::move(tracks);
}

} // namespace nicd::health
