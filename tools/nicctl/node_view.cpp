#include "node_view.hpp"

#include <io.nicd.Nicd1.Device.proxy.h>
#include <io.nicd.Nicd1.Manager.proxy.h>
#include <io.nicd.Nicd1.Plugin.proxy.h>
#include <io.nicd.Nicd1.Port.proxy.h>

#include <algorithm>

namespace nicctl {

namespace {

using bus::rowOf;
using bus::rowsOf;

constexpr const char* kManager = io::nicd::Nicd1::Manager_proxy::INTERFACE_NAME;
constexpr const char* kDevice = io::nicd::Nicd1::Device_proxy::INTERFACE_NAME;
constexpr const char* kPort = io::nicd::Nicd1::Port_proxy::INTERFACE_NAME;
constexpr const char* kPlugin = io::nicd::Nicd1::Plugin_proxy::INTERFACE_NAME;

using Properties = std::map<std::string, sdbus::Variant>;

template <typename T> T property(const Properties& props, const std::string& name, T fallback = {})
{
    auto it = props.find(name);
    if (it == props.end() || !it->second.containsValueOfType<T>())
        return fallback;
    return it->second.get<T>();
}

std::vector<bus::ConditionRow> conditionsOf(const Properties& props)
{
    return rowsOf(property<std::vector<bus::ConditionWire>>(props, "Conditions"));
}

DeviceView deviceOf(const Properties& p)
{
    DeviceView d;
    d.name = property<std::string>(p, "Name");
    d.pci_address = property<std::string>(p, "PciAddress");
    d.driver = property<std::string>(p, "Driver");
    d.plugin = property<std::string>(p, "Plugin");
    d.firmware = property<std::string>(p, "FirmwareVersion");
    d.role = property<std::string>(p, "Role");
    d.function = property<std::string>(p, "Function");
    d.netdevs = property<std::vector<std::string>>(p, "Netdevs");
    d.health = property<std::string>(p, "Health", "unknown");
    d.conditions = conditionsOf(p);
    d.signals.temperatures = property<std::map<std::string, double>>(p, "Temperatures");
    d.signals.temperature_limits = property<std::map<std::string, double>>(p, "TemperatureLimits");
    d.signals.pcie = rowOf(property<bus::PcieLinkWire>(p, "PcieLink"));
    d.signals.reporters = rowsOf(property<std::vector<bus::ReporterWire>>(p, "HealthReporters"));
    return d;
}

bus::PortValues portOf(const Properties& p)
{
    bus::PortValues v;
    v.device = property<std::string>(p, "Device");
    v.number = property<uint32_t>(p, "Number");
    v.state = property<std::string>(p, "State");
    v.phys_state = property<std::string>(p, "PhysState");
    v.link_layer = property<std::string>(p, "LinkLayer");
    v.rate = property<std::string>(p, "Rate");
    v.netdev = property<std::string>(p, "Netdev");
    v.operstate = property<std::string>(p, "OperState");
    v.health = property<std::string>(p, "Health", "unknown");
    v.conditions = conditionsOf(p);
    v.qos_status = property<std::string>(p, "QosStatus", "unknown");
    v.qos_desired = property<std::map<std::string, std::string>>(p, "QosDesired");
    v.qos_observed = property<std::map<std::string, std::string>>(p, "QosObserved");
    v.qos_compliant = property<std::map<std::string, bool>>(p, "QosCompliant");
    v.congestion = property<std::string>(p, "Congestion");
    v.uplinks = rowsOf(property<std::vector<bus::UplinkWire>>(p, "Uplinks"));
    v.ready = property<std::string>(p, "Ready");
    v.ready_checks = rowsOf(property<std::vector<bus::ReadyCheckWire>>(p, "ReadyChecks"));
    v.planes = rowsOf(property<std::vector<bus::PlaneWire>>(p, "Planes"));
    v.neighbors = rowsOf(property<std::vector<bus::NeighborWire>>(p, "Neighbors"));
    v.switch_qos = property<std::map<std::string, std::string>>(p, "SwitchQos");
    return v;
}

} // namespace

NodeView nodeViewOf(const ManagedObjects& objects)
{
    NodeView node;
    node.health = "unknown";
    node.node_health = "unknown";
    std::map<std::string, DeviceView> devices;
    std::vector<bus::PortValues> ports;
    for (const auto& [path, interfaces] : objects) {
        if (auto m = interfaces.find(kManager); m != interfaces.end()) { // when listed
            node.version = property<std::string>(m->second, "Version");
            node.health = property<std::string>(m->second, "Health", "unknown");
            node.node_health = property<std::string>(m->second, "NodeHealth", node.health);
            node.provision_mode = property<std::string>(m->second, "ProvisionMode");
            node.last_cycle_usec = property<uint64_t>(m->second, "LastCycleTimestamp");
        }
        if (auto d = interfaces.find(kDevice); d != interfaces.end()) {
            auto dev = deviceOf(d->second);
            devices[dev.name] = std::move(dev);
        }
        if (auto p = interfaces.find(kPort); p != interfaces.end())
            ports.push_back(portOf(p->second));
        if (auto p = interfaces.find(kPlugin); p != interfaces.end()) {
            bus::PluginValues plugin;
            plugin.name = property<std::string>(p->second, "Name");
            plugin.version = property<std::string>(p->second, "Version");
            plugin.state = property<std::string>(p->second, "State");
            plugin.last_error = property<std::string>(p->second, "LastError");
            node.plugins.push_back(std::move(plugin));
        }
    }
    for (auto& port : ports)
        if (auto it = devices.find(port.device); it != devices.end())
            it->second.ports.push_back(std::move(port));
    for (auto& [_, d] : devices) {
        std::sort(
            d.ports.begin(), d.ports.end(),
            [](const bus::PortValues& a, const bus::PortValues& b) { return a.number < b.number; });
        node.devices.push_back(std::move(d));
    }
    // mlx5_2 before mlx5_10: shorter names first, then by name.
    std::sort(
        node.devices.begin(), node.devices.end(), [](const DeviceView& a, const DeviceView& b) {
            return a.name.size() != b.name.size() ? a.name.size() < b.name.size() : a.name < b.name;
        });
    std::sort(
        node.plugins.begin(), node.plugins.end(),
        [](const bus::PluginValues& a, const bus::PluginValues& b) { return a.name < b.name; });
    return node;
}

void addNodeConditions(NodeView& node, const std::vector<bus::NodeConditionWire>& rows)
{
    for (const auto& r : rows) {
        auto c = rowOf(r);
        if (std::any_of(node.devices.begin(), node.devices.end(),
                        [&](const DeviceView& d) { return d.name == c.device; }))
            continue; // shown on its device's rows
        node.node_conditions.push_back(std::move(c));
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
