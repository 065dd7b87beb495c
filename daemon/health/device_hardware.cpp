#include "health/device_hardware.hpp"

#include "health/json_integers.hpp"

#include <fmt/format.h>

namespace nicd::health {

DeviceHardware hardwareOf(const Device& d)
{
    DeviceHardware h{d.ibdev, d.board_id, d.fw_ver, d.node_guid, d.role, {}};
    for (const auto& p : d.ports)
        if (p.rate_gbps)
            h.port_gbps[p.num] = *p.rate_gbps;
    return h;
}

bool sameHardware(const Device& d, const DeviceHardware& h)
{
    if (d.ibdev != h.name || d.board_id != h.board_id || d.fw_ver != h.fw_ver ||
        d.node_guid != h.node_guid || h.role != d.role)
        return false;
    size_t rated = 0;
    for (const auto& p : d.ports) {
        if (!p.rate_gbps)
            continue;
        ++rated;
        auto it = h.port_gbps.find(p.num);
        if (it == h.port_gbps.end() || it->second != *p.rate_gbps)
            return false;
    }
    return rated == h.port_gbps.size();
}

std::vector<HardwareChange> hardwareChanges(const std::string& pci_address,
                                            const DeviceHardware& before, const DeviceHardware& now,
                                            bool across_boot)
{
    auto differs = [](const std::string& a, const std::string& b) {
        return !a.empty() && !b.empty() && a != b;
    };
    const char* when = across_boot ? " since the last boot" : "";
    std::vector<HardwareChange> out;
    if (differs(before.board_id, now.board_id) || differs(before.node_guid, now.node_guid)) {
        std::string what = differs(before.board_id, now.board_id)
                               ? fmt::format("board {} -> {}", before.board_id, now.board_id)
                               : fmt::format("node GUID {} -> {}", before.node_guid, now.node_guid);
        out.push_back(
            {now.name, pci_address, "board_changed",
             fmt::format("{} (PCI {}) is another card{}: {}", now.name, pci_address, when, what)});
    }
    if (differs(before.fw_ver, now.fw_ver))
        out.push_back({now.name, pci_address, "firmware_changed",
                       fmt::format("{} (PCI {}) runs firmware {}{} (was {})", now.name, pci_address,
                                   now.fw_ver, when, before.fw_ver)});
    return out;
}

std::string describeHardware(const DeviceHardware& h)
{
    std::string out;
    auto add = [&out](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (h.role)
        add(toString(*h.role));
    if (!h.board_id.empty())
        add("board " + h.board_id);
    if (!h.fw_ver.empty())
        add("firmware " + h.fw_ver);
    std::map<double, uint32_t> rates; // Gb/s -> ports
    for (const auto& [port, gbps] : h.port_gbps)
        ++rates[gbps];
    for (const auto& [gbps, n] : rates)
        add(fmt::format("{} port{} at {:g} Gb/s", n, n == 1 ? "" : "s", gbps));
    return out;
}

void addHardwareJson(nlohmann::json& j, const DeviceHardware& h)
{
    j["last_name"] = h.name;
    j["board_id"] = h.board_id;
    j["fw_ver"] = h.fw_ver;
    j["node_guid"] = h.node_guid;
    j["role"] = h.role ? toString(*h.role) : "";
    auto ports = nlohmann::json::array();
    for (const auto& [port, gbps] : h.port_gbps)
        ports.push_back({port, gbps});
    j["ports"] = std::move(ports);
}

DeviceHardware hardwareFromJson(const nlohmann::json& j)
{
    DeviceHardware h;
    auto text = [&j](const char* key) {
        auto it = j.find(key);
        return it == j.end() ? std::string() : it->get<std::string>();
    };
    h.name = text("last_name");
    h.board_id = text("board_id");
    h.fw_ver = text("fw_ver");
    h.node_guid = text("node_guid");
    h.role = parseRole(text("role"));
    if (auto it = j.find("ports"); it != j.end())
        for (const auto& p : it->get<nlohmann::json::array_t>())
            h.port_gbps[getIntegers<uint32_t>(p.at(0))] = p.at(1).get<double>();
    return h;
}

} // namespace nicd::health
