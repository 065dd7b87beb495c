// Devices, ports and netdevs: identity as _info series, link state as gauges.
#include "textfile/render.hpp"

#include <string>

namespace nicd::textfile {

void renderInventoryMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    const auto& devices = snap.inventory.devices;
    w.family("nicd_device_info", MetricType::Gauge,
             "RDMA device identity; value 1. role is compute, storage or management (what the NIC "
             "is for); function is pf, vf, lag or bond-member; plugin is empty when no plugin "
             "manages the device.");
    for (const auto& d : devices) {
        std::string numa = d.numa_node ? std::to_string(*d.numa_node) : "";
        w.sample({{"device", d.ibdev},
                  {"pci_address", d.pci_address},
                  {"driver", d.driver},
                  {"fw_version", d.fw_ver},
                  {"board_id", d.board_id},
                  {"hca_type", d.hca_type},
                  {"role", toString(d.role)},
                  {"function", toString(d.function)},
                  {"plugin", d.plugin},
                  {"numa_node", numa}},
                 1.0);
    }
    w.family("nicd_port_info", MetricType::Gauge, "RDMA port identity; value 1.");
    for (const auto& d : devices)
        for (const auto& p : d.ports) {
            auto port = std::to_string(p.num);
            w.sample({{"device", d.ibdev},
                      {"port", port},
                      {"link_layer", p.link_layer},
                      {"rate", p.rate}},
                     1.0);
        }
    w.family("nicd_port_rate_bytes_per_second", MetricType::Gauge,
             "Port signalling rate from sysfs 'rate', in bytes per second.");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            if (p.rate_gbps) {
                auto port = std::to_string(p.num);
                w.sample({{"device", d.ibdev}, {"port", port}}, *p.rate_gbps * 1e9 / 8.0);
            }
    w.family("nicd_port_state", MetricType::Gauge,
             "IB port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER.");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            if (p.state) {
                auto port = std::to_string(p.num);
                w.sample({{"device", d.ibdev}, {"port", port}}, static_cast<double>(*p.state));
            }
    // An active port's physical state is LinkUp: nicd_port_state says it already.
    w.family(
        "nicd_port_phys_state", MetricType::Gauge,
        "IB physical port state: 2 Polling, 3 Disabled, 4 PortConfigurationTraining, 5 LinkUp, "
        "6 LinkErrorRecovery, 7 PhyTest; of a port that is not ACTIVE (Counters=all: every "
        "port).");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            if (p.phys_state && (all || !p.active())) {
                auto port = std::to_string(p.num);
                w.sample({{"device", d.ibdev}, {"port", port}}, static_cast<double>(*p.phys_state));
            }
    w.family("nicd_port_planes", MetricType::Gauge,
             "Planes of a multi-plane (XDR) port: the ports of its SMI sub-device that "
             "belong to it; absent for a port without one.");
    for (const auto& d : devices)
        for (const auto& p : d.ports) {
            size_t planes = 0;
            for (const auto& plane : d.planes)
                planes += plane.native_port == p.num ? 1 : 0;
            if (planes > 0)
                w.sample({{"device", d.ibdev}, {"port", std::to_string(p.num)}},
                         static_cast<double>(planes));
        }
    w.family("nicd_netdev_up", MetricType::Gauge, "1 when the netdev's operstate is up, else 0.");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs) {
                auto it = snap.netdevs.find(nd);
                if (it == snap.netdevs.end())
                    continue;
                auto port = std::to_string(p.num);
                w.sample({{"device", d.ibdev}, {"port", port}, {"netdev", nd}},
                         it->second.operstate == "up" ? 1.0 : 0.0);
            }
    w.family("nicd_netdev_carrier", MetricType::Gauge,
             "1 when the netdev has carrier, 0 when not; absent when the link is administratively "
             "down.");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs) {
                auto it = snap.netdevs.find(nd);
                if (it == snap.netdevs.end() || !it->second.carrier)
                    continue;
                auto port = std::to_string(p.num);
                w.sample({{"device", d.ibdev}, {"port", port}, {"netdev", nd}},
                         *it->second.carrier ? 1.0 : 0.0);
            }
    w.family("nicd_port_neighbor_info", MetricType::Gauge,
             "The LLDP neighbour heard on the port (the switch port it is cabled to), 1; one "
             "series per neighbour, none without lldpd.");
    for (const auto& d : devices)
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                if (const auto* heard = snap.neighbors.neighborsOf(nd))
                    for (const auto& n : *heard)
                        w.sample({{"device", d.ibdev},
                                  {"port", std::to_string(p.num)},
                                  {"netdev", nd},
                                  {"chassis_id", n.chassis_id},
                                  {"system_name", n.system_name},
                                  {"port_id", n.port_id}},
                                 1.0);
}

} // namespace nicd::textfile
