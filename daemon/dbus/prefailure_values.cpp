#include "dbus/prefailure_values.hpp"

#include "prefailure/devlink_health.hpp"
#include "text/printable.hpp"

#include <algorithm>
#include <string>

namespace nicd::dbus {

namespace {

// The lower of two limits, either of which may be unknown.
template <typename T> std::optional<T> lowerOf(std::optional<T> a, std::optional<T> b)
{
    if (a && b)
        return std::min(*a, *b);
    return a ? a : b;
}

PcieLinkRow pcieRowOf(const PcieLink& l)
{
    PcieLinkRow r;
    r.current_gts = l.current_gts.value_or(0);
    r.current_width = static_cast<uint32_t>(std::max(0, l.current_width.value_or(0)));
    r.capable_gts = lowerOf(l.max_gts, l.upstream_max_gts).value_or(0);
    r.capable_width =
        static_cast<uint32_t>(std::max(0, lowerOf(l.max_width, l.upstream_max_width).value_or(0)));
    return r;
}

void addFec(const FecStats& f, std::map<std::string, double>& out)
{
    for (const auto& [key, counter] : {std::pair{"fec_corrected_blocks", &f.corrected_blocks},
                                       {"fec_uncorrectable_blocks", &f.uncorrectable_blocks},
                                       {"fec_corrected_bits", &f.corrected_bits}})
        if (*counter)
            out[key] = static_cast<double>((*counter)->total);
}

void addModule(const ModuleDom& m, std::map<std::string, double>& out)
{
    if (m.temperature_celsius)
        out["module_temperature_celsius"] = *m.temperature_celsius;
    if (m.supply_volts)
        out["module_supply_volts"] = *m.supply_volts;
    for (size_t i = 0; i < m.lanes.size(); ++i) {
        const auto& lane = m.lanes[i];
        std::string prefix = "lane" + std::to_string(i + 1) + "_";
        for (const auto& [name, value] : {std::pair{"tx_bias_amperes", lane.tx_bias_amperes},
                                          {"tx_power_watts", lane.tx_power_watts},
                                          {"rx_power_watts", lane.rx_power_watts}})
            if (value)
                out[prefix + name] = *value;
    }
}

} // namespace

ReportersByPci reportersByPci(const Snapshot& snap)
{
    ReportersByPci out;
    for (const auto& r : snap.reporters)
        out.emplace(prefailure::pciAddressView(r.handle), &r);
    return out;
}

DeviceSignals deviceSignalsOf(const Device& d, const Snapshot& snap,
                              const ReportersByPci& reporters)
{
    DeviceSignals s;
    if (auto it = snap.temperatures.find(d.ibdev); it != snap.temperatures.end())
        for (const auto& sensor : it->second) {
            s.temperatures[printable(sensor.label)] = sensor.celsius;
            if (sensor.crit_celsius)
                s.temperature_limits[printable(sensor.label)] = *sensor.crit_celsius;
        }
    if (auto it = snap.pcie.find(d.ibdev); it != snap.pcie.end())
        s.pcie = pcieRowOf(it->second);
    if (!d.pci_address.empty()) {
        auto [first, last] = reporters.equal_range(d.pci_address);
        // In the snapshot's order, as before the index (equal_range's order is unspecified).
        std::vector<const HealthReporter*> mine;
        for (auto it = first; it != last; ++it)
            mine.push_back(it->second);
        std::sort(mine.begin(), mine.end());
        for (const auto* r : mine)
            s.reporters.push_back({printable(r->handle), printable(r->name), printable(r->state),
                                   r->errors, r->recovers});
    }
    return s;
}

std::vector<UplinkRow> uplinkRowsOf(const std::string& ibdev, uint32_t port, const Snapshot& snap)
{
    std::vector<UplinkRow> out;
    for (const auto& up : snap.uplinks) {
        if (up.ibdev != ibdev || up.port != port)
            continue;
        UplinkRow row;
        row.netdev = printable(up.netdev);
        if (auto f = snap.fec.find(up.netdev); f != snap.fec.end()) {
            row.fec_mode = printable(f->second.active);
            addFec(f->second, row.values);
        }
        if (auto b = snap.health.pre_fec_ber.find(up.netdev); b != snap.health.pre_fec_ber.end()) {
            row.values["fec_pre_ber"] = b->second.first;
            if (b->second.second > 0)
                row.values["fec_pre_ber_limit"] = b->second.second;
        }
        if (auto m = snap.modules.find(up.netdev); m != snap.modules.end()) {
            row.module = m->second.has_dom ? toString(m->second.standard) : "no-diagnostics";
            addModule(m->second, row.values);
        }
        out.push_back(std::move(row));
    }
    return out;
}

} // namespace nicd::dbus
