#include "signal_state.hpp"

#include "files.hpp"
#include "module_image.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace nicd::sim {

namespace {

using nlohmann::ordered_json;

bool hasSignals(const fs::path& root, const SimDevice& d)
{
    return d.role != "vf" && fs::exists(root / "sys/bus/pci/devices" / d.pci_address / "hwmon");
}

uint64_t ethtoolValue(const fs::path& root, const std::string& netdev, const std::string& name)
{
    for (const auto& [stat, value] : readEthtool(root, netdev))
        if (stat == name)
            return value;
    return 0;
}

// What `ethtool --json -I --show-fec` prints for an mlx5 port in RS mode: totals only.
std::string fecJson(const std::string& netdev, uint64_t corrected_bits, uint64_t uncorrectable)
{
    ordered_json stats;
    stats["corrected_blocks"] = {{"total", corrected_bits / 3}};
    stats["uncorrectable_blocks"] = {{"total", uncorrectable}};
    stats["corrected_bits"] = {{"total", corrected_bits}};
    ordered_json dev;
    dev["ifname"] = netdev;
    dev["config"] = {"Auto"};
    dev["active"] = {"RS"};
    dev["statistics"] = stats;
    return ordered_json::array({dev}).dump(4) + "\n";
}

uint64_t uncorrectableIn(const fs::path& file)
{
    try {
        auto j = nlohmann::json::parse(readText(file));
        return j.at(0).at("statistics").at("uncorrectable_blocks").at("total").get<uint64_t>();
    } catch (const std::exception&) {
        return 0;
    }
}

ordered_json reporter(const char* name, bool recover_op, uint64_t grace)
{
    ordered_json r{{"reporter", name}, {"state", "healthy"}, {"error", 0}, {"recover", 0}};
    if (recover_op) {
        r["grace_period"] = grace;
        r["auto_recover"] = true;
    }
    r["auto_dump"] = true;
    return r;
}

} // namespace

std::string defaultModuleKind(const std::string& role, const std::string& netdev)
{
    if (role != "lag")
        return "cmis";
    return netdev.ends_with("0np0") ? "qsfp28" : "copper"; // the LAG: one optic, one DAC
}

void writeModule(const fs::path& root, const std::string& netdev, const std::string& kind,
                 bool rx_low)
{
    ModuleSpec spec = kind == "qsfp28" ? qsfp28Sr4() : ModuleSpec{};
    spec.copper = kind == "copper";
    if (rx_low && !spec.lanes.empty())
        spec.lanes[0].rx_power_mw =
            (spec.rx_power_mw_limits.low_alarm + spec.rx_power_mw_limits.low_warning) / 2;
    auto image = moduleImage(spec);
    writeText(root, moduleCaptureFile(root, netdev),
              std::string_view(reinterpret_cast<const char*>(image.data()), image.size()));
}

fs::path fecCaptureFile(const fs::path& root, const std::string& netdev)
{
    return simDir(root) / "ethtool-fec" / netdev;
}

fs::path moduleCaptureFile(const fs::path& root, const std::string& netdev)
{
    return simDir(root) / "module" / netdev;
}

fs::path devlinkHealthFile(const fs::path& root)
{
    return simDir(root) / "devlink-health.json";
}

std::vector<std::string> moduleNetdevs(const fs::path& root, const SimDevice& d)
{
    if (!hasSignals(root, d))
        return {};
    return d.role == "ib" ? d.netdevs : d.ethtool_netdevs;
}

std::vector<std::string> fecNetdevs(const fs::path& root, const SimDevice& d)
{
    return d.role == "ib" ? std::vector<std::string>{} : moduleNetdevs(root, d);
}

void createSignalState(const fs::path& root, const NodeState& st)
{
    fs::create_directories(simDir(root) / "ethtool-fec");
    fs::create_directories(simDir(root) / "module");
    ordered_json health = ordered_json::object();
    for (const auto& [name, d] : st.devices) {
        for (const auto& nd : fecNetdevs(root, d))
            writeText(root, fecCaptureFile(root, nd), fecJson(nd, 0, 0));
        for (const auto& nd : moduleNetdevs(root, d))
            writeModule(root, nd, defaultModuleKind(d.role, nd));
        if (!hasSignals(root, d))
            continue;
        if (vendorCatalog(d.vendor).health_reporters == HealthReporters::FirmwareOnly) {
            health["pci/" + d.pci_address] = {reporter("fw", true, 0)};
            continue;
        }
        health["pci/" + d.pci_address] = {
            reporter("fw", false, 0), reporter("fw_fatal", true, 60000),
            ordered_json{{"reporter", "vnic"}, {"state", "healthy"}, {"error", 0}, {"recover", 0}}};
        health["pci/" + d.pci_address + "/65535"] = {reporter("tx", true, 500),
                                                     reporter("rx", true, 500)};
    }
    writeText(root, devlinkHealthFile(root), ordered_json{{"health", health}}.dump() + "\n");
}

void refreshFecCaptures(const fs::path& root, const NodeState& st)
{
    for (const auto& [name, d] : st.devices)
        for (const auto& nd : fecNetdevs(root, d)) {
            auto file = fecCaptureFile(root, nd);
            if (!fs::exists(file))
                continue;
            writeText(
                root, file,
                fecJson(nd, ethtoolValue(root, nd, vendorCatalog(d.vendor).counters.corrected_bits),
                        uncorrectableIn(file)));
        }
}

} // namespace nicd::sim
