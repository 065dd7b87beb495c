// Readiness of the compute ports: 1 when NCCL can use the port at full rate (no ready.* condition
// on it), 0 when not; only ports the readiness checks judge (health/readiness_checks.hpp).
#include "textfile/render.hpp"

#include <set>
#include <string>

namespace nicd::textfile {

void renderReadinessMetrics(const Snapshot& snap, MetricWriter& w)
{
    const auto& h = snap.health;
    std::set<std::pair<std::string, uint32_t>> ports;
    for (const auto& [key, _] : h.readiness)
        ports.insert(key);
    for (const auto& c : h.conditions)
        if (c.code.starts_with("ready."))
            ports.emplace(c.device, c.port);
    w.family("nicd_port_ready", MetricType::Gauge,
             "1 when a compute port is ready for NCCL (no ready.* condition: a usable GID, "
             "matching MTU, a verbs device, on InfiniBand the umad/issm devices, GPUDirect "
             "RDMA, no ACS redirect, a near NUMA node), "
             "0 when not. Only compute ports that are up are judged.");
    for (const auto& [device, port] : ports) {
        auto number = std::to_string(port);
        w.sample({{"device", device}, {"port", number}},
                 portReady(h, device, port).value_or(false) ? 1.0 : 0.0);
    }
}

} // namespace nicd::textfile
