#include "dbus/object_values.hpp"

#include "config/config.hpp"
#include "neighbor/dcbx_tlv.hpp"
#include "neighbor/switch_qos_compare.hpp"
#include "text/printable.hpp"

#include <nicd/client/object_path.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace nicd::dbus {

uint64_t usecOf(double seconds)
{
    return seconds > 0 ? static_cast<uint64_t>(std::llround(seconds * 1e6)) : 0;
}

namespace {

ConditionRow rowOf(const Condition& c)
{
    ConditionRow r;
    r.device = printable(c.device);
    r.code = printable(c.code);
    r.severity = toString(c.severity);
    r.port = c.port;
    r.source = toString(c.source);
    r.message = printable(c.message);
    r.advice = printable(c.advice);
    r.since_usec = usecOf(c.first_seen);
    r.action = toString(c.action);
    return r;
}

std::string healthOf(const std::map<std::string, Health>& m, const std::string& key)
{
    auto it = m.find(key);
    return it == m.end() ? "unknown" : toString(it->second);
}

// Worst health of everything judged; "unknown" while devices exist but nothing was judged.
std::string overallHealth(const Snapshot& snap)
{
    const auto& h = snap.health;
    if (h.devices.empty() && h.ports.empty() && h.conditions.empty())
        return snap.inventory.devices.empty() ? toString(Health::Healthy) : "unknown";
    Health worst = Health::Healthy;
    auto take = [&worst](Health x) { worst = std::max(worst, x); };
    for (const auto& [_, x] : h.devices)
        take(x);
    for (const auto& [_, x] : h.ports)
        take(x);
    for (const auto& c : h.conditions)
        take(nicd::healthOf(c.severity));
    return toString(worst);
}

std::string qosStatusOf(const PortQosView& q)
{
    if (!q.status.empty())
        return q.status;
    if (q.settings.empty())
        return "unknown";
    // An unsupported setting is neither: the NIC gives nicd no interface for it.
    bool all = std::all_of(q.settings.begin(), q.settings.end(), [](const auto& kv) {
        return kv.second.compliant || kv.second.observed == QosSettingState::kUnsupported;
    });
    return all ? "compliant" : "noncompliant";
}

DeviceValues deviceValuesOf(const Device& d, const Snapshot& snap, const ReportersByPci& reporters)
{
    DeviceValues v;
    v.name = printable(d.ibdev);
    v.pci_address = printable(d.pci_address);
    v.driver = printable(d.driver);
    v.plugin = printable(d.plugin);
    v.firmware = printable(d.fw_ver);
    v.board_id = printable(d.board_id);
    v.hca_type = printable(d.hca_type);
    v.node_guid = printable(d.node_guid);
    v.numa_node = d.numa_node.value_or(-1);
    v.role = toString(d.role);
    v.role_reason = printable(d.role_reason);
    v.function = toString(d.function);
    v.bond_master = printable(d.bond_master);
    for (const auto& p : d.ports)
        for (const auto& n : p.netdevs)
            if (auto shown = printable(n);
                std::find(v.netdevs.begin(), v.netdevs.end(), shown) == v.netdevs.end())
                v.netdevs.push_back(std::move(shown));
    v.health = healthOf(snap.health.devices, d.ibdev);
    for (const auto& c : snap.health.conditions)
        if (c.device == d.ibdev)
            v.conditions.push_back(rowOf(c));
    v.signals = deviceSignalsOf(d, snap, reporters);
    return v;
}

// RoCE's DSCP on the port: its ToS as provisioning wants it (the roce_tos setting), >> 2; the
// default ToS 106 (DSCP 26) where the port has no such setting.
uint8_t roceDscpOf(const PortQosView& qos)
{
    unsigned tos = ProvisionSettings{}.roce_tos;
    if (auto it = qos.settings.find("roce_tos"); it != qos.settings.end()) {
        const std::string& d = it->second.desired;
        unsigned v = 0;
        auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
        if (ec == std::errc() && end == d.data() + d.size() && v < 256)
            tos = v;
    }
    return static_cast<uint8_t>(tos >> 2);
}

PortValues portValuesOf(const Device& d, const Port& p, const Snapshot& snap, const BusViews& views)
{
    PortValues v;
    v.device = printable(d.ibdev);
    v.number = p.num;
    v.state = printable(p.state_name);
    v.phys_state = printable(p.phys_state_name);
    v.link_layer = printable(p.link_layer);
    v.rate = printable(p.rate);
    if (!p.netdevs.empty()) {
        v.netdev = printable(p.netdevs.front());
        if (auto it = snap.netdevs.find(p.netdevs.front()); it != snap.netdevs.end())
            v.operstate = printable(it->second.operstate);
    }
    auto h = snap.health.ports.find({d.ibdev, p.num});
    v.health = h == snap.health.ports.end() ? "unknown" : toString(h->second);
    for (const auto& c : snap.health.conditions)
        if (c.device == d.ibdev && c.port == p.num)
            v.conditions.push_back(rowOf(c));
    PortQosView none;
    auto q = views.qos.find({d.ibdev, p.num});
    const PortQosView& qos = q == views.qos.end() ? none : q->second;
    v.qos_status = qosStatusOf(qos);
    for (const auto& [setting, s] : qos.settings) {
        v.qos_desired[printable(setting)] = printable(s.desired);
        v.qos_observed[printable(setting)] = printable(s.observed);
        v.qos_compliant[printable(setting)] = s.compliant;
    }
    if (auto c = snap.health.congestion.find({d.ibdev, p.num}); c != snap.health.congestion.end())
        v.congestion = c->second.state;
    v.uplinks = uplinkRowsOf(d.ibdev, p.num, snap);
    if (auto ready = portReady(snap.health, d.ibdev, p.num))
        v.ready = *ready ? "yes" : "no";
    if (auto r = snap.health.readiness.find({d.ibdev, p.num}); r != snap.health.readiness.end())
        for (const auto& c : r->second)
            v.ready_checks.push_back({c.check, toString(c.verdict), printable(c.saw)});
    for (const auto& plane : d.planes)
        if (plane.native_port == p.num)
            v.planes.push_back({plane.port.num, printable(plane.smi_device),
                                printable(plane.port.state_name), printable(plane.port.rate)});
    if (!p.netdevs.empty())
        if (const auto* heard = snap.neighbors.neighborsOf(p.netdevs.front())) {
            for (const auto& n : *heard)
                v.neighbors.push_back({printable(n.switchName()), printable(n.portName()),
                                       printable(n.chassis_id), printable(n.port_id),
                                       printable(n.mgmt_address), n.ttl_seconds});
            if (heard->size() == 1)
                for (auto& [setting, value] : neighbor::switchSettingValues(
                         neighbor::foldDcbxTlvs(heard->front().org_tlvs), roceDscpOf(qos)))
                    v.switch_qos[setting] = printable(value);
        }
    return v;
}

PluginValues pluginValuesOf(const PluginStatus& p)
{
    PluginValues v;
    v.name = printable(p.name);
    v.file = printable(p.file);
    v.version = printable(p.version);
    if (p.abi_major != 0 || p.abi_minor != 0)
        v.abi_version = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
    v.state = toString(p.state);
    v.last_error = printable(p.last_error);
    v.consecutive_failures = p.consecutive_failures;
    v.device_count = p.devices;
    return v;
}

// Appends `name` when the two values differ.
class Diff {
public:
    template <typename T> Diff& operator()(const char* name, const T& a, const T& b)
    {
        if (!(a == b))
            names_.emplace_back(name);
        return *this;
    }
    std::vector<std::string> take() { return std::move(names_); }

private:
    std::vector<std::string> names_;
};

} // namespace

TreeValues treeValuesOf(const Snapshot& snap, const BusViews& views, std::string_view version)
{
    TreeValues t;
    auto& m = t.manager;
    m.version = std::string(version);
    m.health = overallHealth(snap);
    m.node_health = m.health == "unknown" ? m.health : toString(snap.health.node);
    m.device_count = static_cast<uint32_t>(snap.inventory.devices.size());
    m.plugin_count = static_cast<uint32_t>(snap.plugins.size());
    m.condition_count = static_cast<uint32_t>(snap.health.conditions.size());
    for (const auto& c : snap.health.conditions)
        m.conditions.push_back(rowOf(c));
    m.last_event_seq = snap.health.last_event_seq;
    m.cycle = snap.cycle;
    m.last_cycle_usec = usecOf(snap.timestamp_seconds);
    m.provision_mode = views.provision_mode;
    m.last_apply_usec = views.last_apply_usec;
    m.last_apply_result = printable(views.last_apply_result);
    m.last_reload_usec = views.last_reload_usec;
    m.last_reload_result = printable(views.last_reload_result);

    const auto reporters = reportersByPci(snap);
    for (const auto& d : snap.inventory.devices) {
        t.devices.emplace(devicePath(d.ibdev), deviceValuesOf(d, snap, reporters));
        for (const auto& p : d.ports) {
            t.ports.emplace(portPath(d.ibdev, p.num), portValuesOf(d, p, snap, views));
            ++m.port_count;
        }
    }
    for (const auto& p : snap.plugins)
        t.plugins.emplace(pluginPath(p.name), pluginValuesOf(p));
    return t;
}

std::optional<std::map<std::string, uint64_t>> countersOf(const Snapshot& snap,
                                                          const std::string& device, uint32_t port)
{
    auto dev = std::find_if(snap.inventory.devices.begin(), snap.inventory.devices.end(),
                            [&](const Device& d) { return d.ibdev == device; });
    if (dev == snap.inventory.devices.end())
        return std::nullopt;
    if (port != 0 && std::none_of(dev->ports.begin(), dev->ports.end(),
                                  [&](const Port& p) { return p.num == port; }))
        return std::nullopt;
    std::map<std::string, uint64_t> out;
    for (const auto& ds : snap.samples)
        if (ds.ibdev == device)
            for (const auto& s : ds.samples())
                if (s.port == port && s.source != kSourceNicd)
                    out[printable(s.source + "." + s.name)] = s.value;
    return out;
}

std::vector<std::string> changedProperties(const ManagerValues& a, const ManagerValues& b)
{
    return Diff()("Health", a.health, b.health)("NodeHealth", a.node_health, b.node_health)(
               "DeviceCount", a.device_count,
               b.device_count)("PortCount", a.port_count,
                               b.port_count)("PluginCount", a.plugin_count, b.plugin_count)(
               "ConditionCount", a.condition_count,
               b.condition_count)("Conditions", a.conditions,
                                  b.conditions)("LastEventSeq", a.last_event_seq, b.last_event_seq)(
               "ProvisionMode", a.provision_mode,
               b.provision_mode)("LastApplyTimestamp", a.last_apply_usec, b.last_apply_usec)(
               "LastApplyResult", a.last_apply_result,
               b.last_apply_result)("LastReloadTimestamp", a.last_reload_usec, b.last_reload_usec)(
               "LastReloadResult", a.last_reload_result, b.last_reload_result)
        .take();
}

std::vector<std::string> changedProperties(const DeviceValues& a, const DeviceValues& b)
{
    return Diff()("Driver", a.driver, b.driver)("Plugin", a.plugin, b.plugin)(
               "FirmwareVersion", a.firmware, b.firmware)("BoardId", a.board_id, b.board_id)(
               "HcaType", a.hca_type, b.hca_type)("NodeGuid", a.node_guid, b.node_guid)(
               "NumaNode", a.numa_node, b.numa_node)("Role", a.role, b.role)(
               "RoleReason", a.role_reason, b.role_reason)("Function", a.function, b.function)(
               "BondMaster", a.bond_master, b.bond_master)("Netdevs", a.netdevs, b.netdevs)(
               "Health", a.health, b.health)("Conditions", a.conditions, b.conditions)(
               "Temperatures", a.signals.temperatures, b.signals.temperatures)(
               "TemperatureLimits", a.signals.temperature_limits, b.signals.temperature_limits)(
               "PcieLink", a.signals.pcie, b.signals.pcie)("HealthReporters", a.signals.reporters,
                                                           b.signals.reporters)
        .take();
}

std::vector<std::string> changedProperties(const PortValues& a, const PortValues& b)
{
    return Diff()("State", a.state, b.state)("PhysState", a.phys_state, b.phys_state)(
               "LinkLayer", a.link_layer, b.link_layer)("Rate", a.rate, b.rate)(
               "Netdev", a.netdev, b.netdev)("OperState", a.operstate, b.operstate)(
               "Health", a.health, b.health)("Conditions", a.conditions, b.conditions)(
               "QosStatus", a.qos_status, b.qos_status)("QosDesired", a.qos_desired, b.qos_desired)(
               "QosObserved", a.qos_observed, b.qos_observed)("QosCompliant", a.qos_compliant,
                                                              b.qos_compliant)(
               "Congestion", a.congestion, b.congestion)("Uplinks", a.uplinks, b.uplinks)(
               "Ready", a.ready, b.ready)("ReadyChecks", a.ready_checks, b.ready_checks)(
               "Planes", a.planes, b.planes)("Neighbors", a.neighbors,
                                             b.neighbors)("SwitchQos", a.switch_qos, b.switch_qos)
        .take();
}

std::vector<std::string> changedProperties(const PluginValues& a, const PluginValues& b)
{
    return Diff()("File", a.file, b.file)("Version", a.version,
                                          b.version)("AbiVersion", a.abi_version, b.abi_version)(
               "State", a.state, b.state)("LastError", a.last_error, b.last_error)(
               "ConsecutiveFailures", a.consecutive_failures,
               b.consecutive_failures)("DeviceCount", a.device_count, b.device_count)
        .take();
}

bool identityChanged(const DeviceValues& a, const DeviceValues& b)
{
    return a.name != b.name || a.pci_address != b.pci_address;
}

bool identityChanged(const PortValues& a, const PortValues& b)
{
    return a.device != b.device || a.number != b.number;
}

bool identityChanged(const PluginValues& a, const PluginValues& b)
{
    return a.name != b.name;
}

} // namespace nicd::dbus
