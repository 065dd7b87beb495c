// The pre-failure signals: FEC, optical modules, temperature sensors, devlink health reporters
// and PCIe link training. Units are in the names (SI: watts, amperes, volts, celsius). By default
// the details are left out (Counters=all brings them back): thresholds, every lane but the worst,
// health reporters that are healthy and never reported, a PCIe maximum the link trained to.
#include "prefailure/devlink_health.hpp"
#include "textfile/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::textfile {

namespace {

struct Where {
    std::string device;
    std::string port;
};

std::map<std::string, Where> uplinkPlaces(const Snapshot& snap)
{
    std::map<std::string, Where> out;
    for (const auto& up : snap.uplinks)
        out[up.netdev] = {up.ibdev, std::to_string(up.port)};
    return out;
}

void renderFec(const Snapshot& snap, const std::map<std::string, Where>& at, bool all,
               MetricWriter& w)
{
    using Field = std::optional<FecCounter> FecStats::*;
    const std::tuple<const char*, Field, const char*, bool> counters[] = {
        {"nicd_fec_corrected_blocks_total", &FecStats::corrected_blocks,
         "FEC blocks (codewords) with errors the FEC corrected.", true},
        {"nicd_fec_uncorrectable_blocks_total", &FecStats::uncorrectable_blocks,
         "FEC blocks the FEC could not correct: lost frames.", true},
        {"nicd_fec_corrected_bit_errors_total", &FecStats::corrected_bits,
         "Bits the FEC corrected (the pre-FEC errors: nicd_fec_pre_ber_ratio is their rate); "
         "Counters=all only.",
         false},
    };
    for (const auto& [name, field, help, always] : counters) {
        w.family(name, MetricType::Counter, help);
        if (!all && !always)
            continue;
        for (const auto& [netdev, f] : snap.fec)
            if (auto it = at.find(netdev); it != at.end() && f.*field)
                w.sample(
                    {{"device", it->second.device}, {"port", it->second.port}, {"netdev", netdev}},
                    (f.*field)->total);
    }
    w.family("nicd_fec_info", MetricType::Gauge,
             "The active FEC mode of an uplink (RS, BaseR, LLRS, None); value 1.");
    for (const auto& [netdev, f] : snap.fec)
        if (auto it = at.find(netdev); it != at.end())
            w.sample({{"device", it->second.device},
                      {"port", it->second.port},
                      {"netdev", netdev},
                      {"mode", f.active}},
                     1.0);
    w.family("nicd_fec_pre_ber_ratio", MetricType::Gauge,
             "Pre-FEC bit error ratio between the last two FEC reads.");
    for (const auto& [netdev, ber] : snap.health.pre_fec_ber)
        if (auto it = at.find(netdev); it != at.end())
            w.sample({{"device", it->second.device}, {"port", it->second.port}, {"netdev", netdev}},
                     ber.first);
    w.family("nicd_fec_pre_ber_limit_ratio", MetricType::Gauge,
             "The pre-FEC bit error ratio the active FEC mode corrects (or FecBerLimit=).");
    for (const auto& [netdev, ber] : snap.health.pre_fec_ber)
        if (auto it = at.find(netdev); it != at.end() && ber.second > 0)
            w.sample({{"device", it->second.device}, {"port", it->second.port}, {"netdev", netdev}},
                     ber.second);
}

void renderThresholds(const char* name, const char* help, const DomThresholds ModuleDom::*field,
                      const Snapshot& snap, const std::map<std::string, Where>& at, bool all,
                      MetricWriter& w)
{
    w.family(name, MetricType::Gauge, help);
    if (!all) // the module's constants: nicd judges against them (optics_* conditions)
        return;
    for (const auto& [netdev, m] : snap.modules) {
        auto it = at.find(netdev);
        if (it == at.end() || !m.has_dom)
            continue;
        // The alarms only: nicd judges the warnings itself (optics_* conditions), and both are
        // in `nicctl show` and on D-Bus; four levels of five quantities were 20 series a port.
        const auto& t = m.*field;
        for (const auto& [level, v] :
             {std::pair{"high_alarm", t.high_alarm}, {"low_alarm", t.low_alarm}})
            if (v)
                w.sample({{"device", it->second.device},
                          {"port", it->second.port},
                          {"netdev", netdev},
                          {"level", level}},
                         *v);
    }
}

// The lane of a module a quantity is worst on: the one nearest either alarm threshold, as a
// share of the span between them; without both thresholds, the weakest light or the highest
// bias (a laser ages by drawing more). The first such lane where two are as bad.
std::optional<size_t> worstLane(const ModuleDom& m, const std::optional<double> ModuleLane::*field,
                                const DomThresholds& t, bool high_is_bad)
{
    std::optional<size_t> worst;
    double worst_score = 0;
    for (size_t i = 0; i < m.lanes.size(); ++i) {
        const auto& v = m.lanes[i].*field;
        if (!v)
            continue;
        double score = 0;
        if (t.low_alarm && t.high_alarm && *t.high_alarm > *t.low_alarm)
            score =
                std::min(*v - *t.low_alarm, *t.high_alarm - *v) / (*t.high_alarm - *t.low_alarm);
        else
            score = high_is_bad ? -*v : *v;
        if (!worst || score < worst_score) {
            worst = i;
            worst_score = score;
        }
    }
    return worst;
}

void renderModules(const Snapshot& snap, const std::map<std::string, Where>& at, bool all,
                   MetricWriter& w)
{
    w.family("nicd_module_info", MetricType::Gauge,
             "The module in an uplink's cage: SFF-8024 identifier, management standard, and "
             "whether it has diagnostics (copper cables do not); value 1.");
    for (const auto& [netdev, m] : snap.modules)
        if (auto it = at.find(netdev); it != at.end())
            w.sample({{"device", it->second.device},
                      {"port", it->second.port},
                      {"netdev", netdev},
                      {"identifier", fmt::format("{:#04x}", m.identifier)},
                      {"standard", toString(m.standard)},
                      {"diagnostics", m.has_dom ? "yes" : "no"}},
                     1.0);
    using Scalar = std::optional<double> ModuleDom::*;
    for (const auto& [name, field, help, always] :
         {std::tuple<const char*, Scalar, const char*, bool>{"nicd_module_temperature_celsius",
                                                             &ModuleDom::temperature_celsius,
                                                             "Module temperature.", true},
          {"nicd_module_supply_volts", &ModuleDom::supply_volts,
           "Module supply voltage (Counters=all only: nicd judges it against the module's "
           "thresholds).",
           false}}) {
        w.family(name, MetricType::Gauge, help);
        if (!all && !always)
            continue;
        for (const auto& [netdev, m] : snap.modules)
            if (auto it = at.find(netdev); it != at.end() && m.*field)
                w.sample(
                    {{"device", it->second.device}, {"port", it->second.port}, {"netdev", netdev}},
                    *(m.*field));
    }
    using Lane = std::optional<double> ModuleLane::*;
    using Limits = const DomThresholds ModuleDom::*;
    for (const auto& [name, field, limits, high_is_bad, help] :
         {std::tuple<const char*, Lane, Limits, bool, const char*>{
              "nicd_module_tx_bias_amperes", &ModuleLane::tx_bias_amperes, &ModuleDom::tx_bias,
              true,
              "Laser bias current of a lane: the lane nearest its alarm thresholds (Counters=all: "
              "every lane)."},
          {"nicd_module_tx_power_watts", &ModuleLane::tx_power_watts, &ModuleDom::tx_power, false,
           "Optical power a lane transmits: the lane nearest its alarm thresholds (Counters=all: "
           "every lane)."},
          {"nicd_module_rx_power_watts", &ModuleLane::rx_power_watts, &ModuleDom::rx_power, false,
           "Optical power a lane receives: the lane nearest its alarm thresholds (Counters=all: "
           "every lane)."}}) {
        w.family(name, MetricType::Gauge, help);
        for (const auto& [netdev, m] : snap.modules) {
            auto it = at.find(netdev);
            if (it == at.end())
                continue;
            auto worst = all ? std::nullopt : worstLane(m, field, m.*limits, high_is_bad);
            for (size_t i = 0; i < m.lanes.size(); ++i)
                if (m.lanes[i].*field && (all || worst == i))
                    w.sample({{"device", it->second.device},
                              {"port", it->second.port},
                              {"netdev", netdev},
                              {"lane", std::to_string(i + 1)}},
                             *(m.lanes[i].*field));
        }
    }
    renderThresholds("nicd_module_temperature_threshold_celsius",
                     "The module's own temperature thresholds.", &ModuleDom::temperature, snap, at,
                     all, w);
    renderThresholds("nicd_module_supply_threshold_volts", "The module's own supply thresholds.",
                     &ModuleDom::supply, snap, at, all, w);
    renderThresholds("nicd_module_tx_bias_threshold_amperes",
                     "The module's own laser bias thresholds.", &ModuleDom::tx_bias, snap, at, all,
                     w);
    renderThresholds("nicd_module_tx_power_threshold_watts",
                     "The module's own TX power thresholds.", &ModuleDom::tx_power, snap, at, all,
                     w);
    renderThresholds("nicd_module_rx_power_threshold_watts",
                     "The module's own RX power thresholds.", &ModuleDom::rx_power, snap, at, all,
                     w);
}

void renderTemperatures(const Snapshot& snap, bool all, MetricWriter& w)
{
    using Field = std::optional<double> TemperatureSensor::*;
    w.family("nicd_device_temperature_celsius", MetricType::Gauge,
             "A temperature sensor of the NIC's hwmon (sensor asic: the ASIC).");
    for (const auto& [ibdev, sensors] : snap.temperatures)
        for (const auto& s : sensors)
            w.sample({{"device", ibdev}, {"sensor", s.label}}, s.celsius);
    for (const auto& [name, field, help] :
         {std::tuple<const char*, Field, const char*>{
              "nicd_device_temperature_crit_celsius", &TemperatureSensor::crit_celsius,
              "The sensor's critical threshold (the firmware's warning, below shutdown); "
              "Counters=all only."},
          {"nicd_device_temperature_highest_celsius", &TemperatureSensor::highest_celsius,
           "The highest temperature the sensor saw since the driver loaded; Counters=all only."}}) {
        w.family(name, MetricType::Gauge, help);
        if (!all)
            continue;
        for (const auto& [ibdev, sensors] : snap.temperatures)
            for (const auto& s : sensors)
                if (s.*field)
                    w.sample({{"device", ibdev}, {"sensor", s.label}}, *(s.*field));
    }
}

void renderReporters(const Snapshot& snap, bool all, MetricWriter& w)
{
    // A reporter that is healthy and never reported is five series a port saying nothing.
    std::vector<const HealthReporter*> shown;
    for (const auto& r : snap.reporters)
        if (all || !r.healthy || r.errors > 0 || r.recovers > 0)
            shown.push_back(&r);
    std::map<std::string_view, std::string_view> by_pci;
    for (const auto& d : snap.inventory.devices)
        by_pci.emplace(d.pci_address, d.ibdev);
    auto deviceOf = [&](const std::string& handle) {
        auto it = by_pci.find(prefailure::pciAddressView(handle));
        return it == by_pci.end() ? std::string_view() : it->second;
    };
    w.family("nicd_devlink_reporter_healthy", MetricType::Gauge,
             "1 when the devlink health reporter is healthy, 0 in error; a reporter healthy "
             "with no error and no recovery since the driver loaded is left out of the three "
             "reporter families unless Counters=all.");
    for (const auto* r : shown)
        w.sample({{"device", deviceOf(r->handle)}, {"handle", r->handle}, {"reporter", r->name}},
                 r->healthy ? 1.0 : 0.0);
    w.family("nicd_devlink_reporter_errors_total", MetricType::Counter,
             "Errors the devlink health reporter has reported since the driver loaded.");
    for (const auto* r : shown)
        w.sample({{"device", deviceOf(r->handle)}, {"handle", r->handle}, {"reporter", r->name}},
                 r->errors);
    w.family("nicd_devlink_reporter_recovers_total", MetricType::Counter,
             "Recoveries the devlink health reporter has made since the driver loaded.");
    for (const auto* r : shown)
        w.sample({{"device", deviceOf(r->handle)}, {"handle", r->handle}, {"reporter", r->name}},
                 r->recovers);
}

// A maximum equal to what the link trained to says nothing the current value does not: by
// default only a maximum the link fell short of is written.
void renderPcie(const Snapshot& snap, bool all, MetricWriter& w)
{
    w.family("nicd_pcie_link_speed_transfers_per_second", MetricType::Gauge,
             "PCIe link speed per lane: current (trained), max (the NIC's), upstream_max (the port "
             "above it); a maximum equal to current only with Counters=all.");
    for (const auto& [ibdev, l] : snap.pcie)
        for (const auto& [which, v] : {std::pair{"current", l.current_gts},
                                       {"max", l.max_gts},
                                       {"upstream_max", l.upstream_max_gts}})
            if (v && (all || std::string_view(which) == "current" || v != l.current_gts))
                w.sample({{"device", ibdev}, {"which", which}}, *v * 1e9);
    w.family("nicd_pcie_link_width_lanes", MetricType::Gauge,
             "PCIe link width: current (trained), max (the NIC's), upstream_max; a maximum equal "
             "to current only with Counters=all.");
    for (const auto& [ibdev, l] : snap.pcie)
        for (const auto& [which, v] : {std::pair{"current", l.current_width},
                                       {"max", l.max_width},
                                       {"upstream_max", l.upstream_max_width}})
            if (v && (all || std::string_view(which) == "current" || v != l.current_width))
                w.sample({{"device", ibdev}, {"which", which}}, static_cast<double>(*v));
}

// The signals change on their own interval (a minute), the textfile every cycle: what was
// rendered is kept with the inputs it came from and appended again while they are the same, so
// the fast cycle pays for a comparison, not for formatting thousands of samples. Per thread: the
// daemon renders on its loop only.
struct PrefailureText {
    std::vector<Uplink> uplinks;
    std::map<std::string, FecStats> fec;
    std::map<std::string, ModuleDom> modules;
    std::map<std::string, std::vector<TemperatureSensor>> temperatures;
    std::map<std::string, PcieLink> pcie;
    std::vector<HealthReporter> reporters;
    std::map<std::string, std::pair<double, double>> pre_fec_ber;
    std::vector<std::pair<std::string, std::string>> devices; // (PCI address, ibdev)
    bool all = false;
    MetricWriter text;
    bool valid = false;
};

std::vector<std::pair<std::string, std::string>> devicesOf(const Snapshot& snap)
{
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(snap.inventory.devices.size());
    for (const auto& d : snap.inventory.devices)
        out.emplace_back(d.pci_address, d.ibdev);
    return out;
}

bool sameInputs(const PrefailureText& c, const Snapshot& snap,
                const std::vector<std::pair<std::string, std::string>>& devices, bool all)
{
    return c.valid && c.all == all && c.uplinks == snap.uplinks && c.fec == snap.fec &&
           c.modules == snap.modules && c.temperatures == snap.temperatures &&
           c.pcie == snap.pcie && c.reporters == snap.reporters &&
           c.pre_fec_ber == snap.health.pre_fec_ber && c.devices == devices;
}

} // namespace

void renderPrefailureMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    static thread_local PrefailureText cache;
    auto devices = devicesOf(snap);
    if (!sameInputs(cache, snap, devices, all)) {
        MetricWriter fresh;
        auto at = uplinkPlaces(snap);
        renderFec(snap, at, all, fresh);
        renderModules(snap, at, all, fresh);
        renderTemperatures(snap, all, fresh);
        renderReporters(snap, all, fresh);
        renderPcie(snap, all, fresh);
        cache = PrefailureText{snap.uplinks,
                               snap.fec,
                               snap.modules,
                               snap.temperatures,
                               snap.pcie,
                               snap.reporters,
                               snap.health.pre_fec_ber,
                               std::move(devices),
                               all,
                               std::move(fresh),
                               true};
    }
    w.append(cache.text);
}

} // namespace nicd::textfile
