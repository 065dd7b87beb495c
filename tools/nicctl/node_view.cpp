#include "node_view.hpp"

#include <algorithm>

namespace nicctl {

namespace {

constexpr const char* kManager = "io.nicd.Nicd1.Manager";
constexpr const char* kDevice = "io.nicd.Nicd1.Device";
constexpr const char* kPort = "io.nicd.Nicd1.Port";
constexpr const char* kPlugin = "io.nicd.Nicd1.Plugin";

using Properties = std::map<std::string, sdbus::Variant>;

template <typename T> T read(const Properties& props, const std::string& name, T fallback = {})
{
    auto it = props.find(name);
    if (it == props.end() || !it->second.containsValueOfType<T>())
        return fallback;
    return it->second.get<T>();
}

using ConditionWire = sdbus::Struct<std::string, std::string, uint32_t, std::string, std::string,
                                    std::string, uint64_t, std::string>;

std::vector<ConditionView> conditionsOf(const Properties& props)
{
    std::vector<ConditionView> out;
    for (const auto& c : read<std::vector<ConditionWire>>(props, "Conditions"))
        out.push_back({std::get<0>(c), std::get<1>(c), std::get<2>(c), std::get<3>(c),
                       std::get<4>(c), std::get<5>(c), std::get<6>(c), std::get<7>(c)});
    return out;
}

using PcieWire = sdbus::Struct<double, uint32_t, double, uint32_t>;
using ReporterWire = sdbus::Struct<std::string, std::string, std::string, uint64_t, uint64_t>;
using ReadyCheckWire = sdbus::Struct<std::string, std::string, std::string>;
using UplinkWire =
    sdbus::Struct<std::string, std::string, std::string, std::map<std::string, double>>;

DeviceView deviceOf(const Properties& p)
{
    DeviceView d;
    d.name = read<std::string>(p, "Name");
    d.pci_address = read<std::string>(p, "PciAddress");
    d.driver = read<std::string>(p, "Driver");
    d.plugin = read<std::string>(p, "Plugin");
    d.firmware = read<std::string>(p, "FirmwareVersion");
    d.role = read<std::string>(p, "Role");
    d.function = read<std::string>(p, "Function");
    d.netdevs = read<std::vector<std::string>>(p, "Netdevs");
    d.health = read<std::string>(p, "Health", "unknown");
    d.conditions = conditionsOf(p);
    d.temperatures = read<std::map<std::string, double>>(p, "Temperatures");
    d.temperature_limits = read<std::map<std::string, double>>(p, "TemperatureLimits");
    auto pcie = read<PcieWire>(p, "PcieLink");
    d.pcie = {std::get<0>(pcie), std::get<1>(pcie), std::get<2>(pcie), std::get<3>(pcie)};
    for (const auto& r : read<std::vector<ReporterWire>>(p, "HealthReporters"))
        d.reporters.push_back(
            {std::get<0>(r), std::get<1>(r), std::get<2>(r), std::get<3>(r), std::get<4>(r)});
    return d;
}

PortView portOf(const Properties& p)
{
    PortView v;
    v.number = read<uint32_t>(p, "Number");
    v.state = read<std::string>(p, "State");
    v.phys_state = read<std::string>(p, "PhysState");
    v.link_layer = read<std::string>(p, "LinkLayer");
    v.rate = read<std::string>(p, "Rate");
    v.netdev = read<std::string>(p, "Netdev");
    v.operstate = read<std::string>(p, "OperState");
    v.health = read<std::string>(p, "Health", "unknown");
    v.conditions = conditionsOf(p);
    v.qos_status = read<std::string>(p, "QosStatus", "unknown");
    v.qos_desired = read<std::map<std::string, std::string>>(p, "QosDesired");
    v.qos_observed = read<std::map<std::string, std::string>>(p, "QosObserved");
    v.qos_compliant = read<std::map<std::string, bool>>(p, "QosCompliant");
    v.congestion = read<std::string>(p, "Congestion");
    for (const auto& u : read<std::vector<UplinkWire>>(p, "Uplinks"))
        v.uplinks.push_back({std::get<0>(u), std::get<1>(u), std::get<2>(u), std::get<3>(u)});
    v.ready = read<std::string>(p, "Ready");
    for (const auto& c : read<std::vector<ReadyCheckWire>>(p, "ReadyChecks"))
        v.ready_checks.push_back({std::get<0>(c), std::get<1>(c), std::get<2>(c)});
    return v;
}

} // namespace

NodeView nodeViewOf(const ManagedObjects& objects)
{
    NodeView node;
    node.health = "unknown";
    node.node_health = "unknown";
    std::map<std::string, DeviceView> devices;
    std::vector<std::pair<std::string, PortView>> ports; // (device, port)
    for (const auto& [path, interfaces] : objects) {
        if (auto m = interfaces.find(kManager); m != interfaces.end()) { // when listed
            node.version = read<std::string>(m->second, "Version");
            node.health = read<std::string>(m->second, "Health", "unknown");
            node.node_health = read<std::string>(m->second, "NodeHealth", node.health);
            node.provision_mode = read<std::string>(m->second, "ProvisionMode");
            node.last_cycle_usec = read<uint64_t>(m->second, "LastCycleTimestamp");
        }
        if (auto d = interfaces.find(kDevice); d != interfaces.end()) {
            auto dev = deviceOf(d->second);
            devices[dev.name] = std::move(dev);
        }
        if (auto p = interfaces.find(kPort); p != interfaces.end())
            ports.emplace_back(read<std::string>(p->second, "Device"), portOf(p->second));
        if (auto p = interfaces.find(kPlugin); p != interfaces.end())
            node.plugins.push_back(
                {read<std::string>(p->second, "Name"), read<std::string>(p->second, "Version"),
                 read<std::string>(p->second, "State"), read<std::string>(p->second, "LastError")});
    }
    for (auto& [device, port] : ports)
        if (auto it = devices.find(device); it != devices.end())
            it->second.ports.push_back(std::move(port));
    for (auto& [_, d] : devices) {
        std::sort(d.ports.begin(), d.ports.end(),
                  [](const PortView& a, const PortView& b) { return a.number < b.number; });
        node.devices.push_back(std::move(d));
    }
    // mlx5_2 before mlx5_10: shorter names first, then by name.
    std::sort(
        node.devices.begin(), node.devices.end(), [](const DeviceView& a, const DeviceView& b) {
            return a.name.size() != b.name.size() ? a.name.size() < b.name.size() : a.name < b.name;
        });
    std::sort(node.plugins.begin(), node.plugins.end(),
              [](const PluginView& a, const PluginView& b) { return a.name < b.name; });
    return node;
}

void addNodeConditions(NodeView& node, const std::vector<NodeConditionWire>& rows)
{
    for (const auto& r : rows) {
        const auto& device = std::get<0>(r);
        if (std::any_of(node.devices.begin(), node.devices.end(),
                        [&](const DeviceView& d) { return d.name == device; }))
            continue; // shown on its device's rows
        node.node_conditions.push_back(
            {device,
             {std::get<1>(r), std::get<2>(r), std::get<3>(r), std::get<4>(r), std::get<5>(r),
              std::get<6>(r), std::get<7>(r), std::get<8>(r)}});
    }
}

int healthExitCode(const std::string& health)
{
    if (health == "healthy")
        return 0;
    if (health == "fatal")
        return 2;
    return 1;
}

} // namespace nicctl
