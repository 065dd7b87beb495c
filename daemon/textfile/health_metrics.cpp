// Health: per device and port (0 healthy, 1 degraded, 2 fatal), each active condition, and how
// many health events happened.
#include "textfile/render.hpp"

#include <array>
#include <string>

namespace nicd::textfile {

void renderHealthMetrics(const Snapshot& snap, MetricWriter& w)
{
    const auto& h = snap.health;
    w.family("nicd_node_health", MetricType::Gauge,
             "Node verdict: 0 healthy, 1 degraded (something is not healthy), 2 fatal (a compute "
             "device is fatal: the training fabric is broken on this node).");
    w.sample({}, static_cast<double>(h.node));
    w.family("nicd_device_health", MetricType::Gauge,
             "Device health: 0 healthy, 1 degraded, 2 fatal (the worst of its ports and device "
             "conditions).");
    for (const auto& [dev, health] : h.devices)
        w.sample({{"device", dev}}, static_cast<double>(health));
    w.family("nicd_port_health", MetricType::Gauge, "Port health: 0 healthy, 1 degraded, 2 fatal.");
    for (const auto& [key, health] : h.ports) {
        auto port = std::to_string(key.second);
        w.sample({{"device", key.first}, {"port", port}}, static_cast<double>(health));
    }
    w.family("nicd_expected_ports", MetricType::Gauge,
             "RDMA ports of the role the node must have up ([health] ExpectPorts=); absent "
             "where nothing is expected.");
    for (const auto& c : h.inventory)
        w.sample({{"role", toString(c.role)}}, static_cast<double>(c.expected));
    w.family("nicd_up_ports", MetricType::Gauge,
             "RDMA ports of the role that are up (VFs left out), for each role with an "
             "expectation.");
    for (const auto& c : h.inventory)
        w.sample({{"role", toString(c.role)}}, static_cast<double>(c.up));
    w.family("nicd_up_ports_at_rate", MetricType::Gauge,
             "Of nicd_up_ports, the ports at least as fast as expected.");
    for (const auto& c : h.inventory)
        w.sample({{"role", toString(c.role)}}, static_cast<double>(c.at_rate));
    w.family("nicd_condition_active", MetricType::Gauge,
             "1 for each active condition; code says what (port_down, counter.symbol_error, ...), "
             "action what to do (docs/conditions.md), port 0 is the device as a whole, device \"\" "
             "the node (inventory_short.compute).");
    for (const auto& c : h.conditions) {
        auto port = std::to_string(c.port);
        w.sample({{"device", c.device},
                  {"port", port},
                  {"code", c.code},
                  {"severity", toString(c.severity)},
                  {"action", toString(c.action)}},
                 1.0);
    }
    w.family("nicd_condition_since_timestamp_seconds", MetricType::Gauge,
             "Unix time each active condition was first seen.");
    for (const auto& c : h.conditions) {
        auto port = std::to_string(c.port);
        w.sample({{"device", c.device}, {"port", port}, {"code", c.code}}, c.first_seen);
    }
    w.family(
        "nicd_kernel_errors_total", MetricType::Counter,
        "Kernel log lines recognised as driver errors, by device and code, since nicd started.");
    for (const auto& [key, n] : h.kernel_errors)
        w.sample({{"device", key.first}, {"code", key.second}}, n);
    w.family("nicd_kernel_errors_unmapped_total", MetricType::Counter,
             "Recognised driver error lines that name no device nicd knows.");
    w.sample({}, h.kernel_errors_unmapped);
    w.family("nicd_health_events_total", MetricType::Counter,
             "Health events since nicd started, by kind (raised, recovered, cleared, baseline, "
             "renamed, changed).");
    constexpr std::array kinds{EventKind::Raised,   EventKind::Recovered, EventKind::Cleared,
                               EventKind::Baseline, EventKind::Renamed,   EventKind::Changed};
    for (auto k : kinds) {
        auto it = h.events_total.find(toString(k));
        w.sample({{"kind", toString(k)}}, it == h.events_total.end() ? uint64_t{0} : it->second);
    }
}

} // namespace nicd::textfile
