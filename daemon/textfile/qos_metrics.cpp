// RoCE QoS provisioning: compliance per port and setting, which ports nicd provisions, the last
// apply, and the writes and errors so far.
#include "textfile/render.hpp"

#include <string>

namespace nicd::textfile {

void renderQosMetrics(const Snapshot& snap, bool all, MetricWriter& w)
{
    const auto& q = snap.qos;
    // One sample a setting of every provisioned port: compliance for those the NIC has an
    // interface for, unsupported for the rest (neither compliant nor not).
    const auto settings = [&](bool unsupported, auto value) {
        for (const auto& [key, port] : q.ports)
            for (const auto& s : port.settings)
                if (s.unsupported() == unsupported)
                    w.sample({{"device", key.first},
                              {"port", std::to_string(key.second)},
                              {"setting", s.setting}},
                             value(s));
    };
    w.family("nicd_qos_compliant", MetricType::Gauge,
             "1 when the port's QoS setting (trust, pfc, ecn_np, ecn_rp, cnp_dscp, cnp_priority, "
             "roce_tos, traffic_class) reads back as configured, else 0; only ports nicd "
             "provisions, and only settings the kernel has an interface for.");
    settings(false, [](const auto& s) { return s.compliant ? 1.0 : 0.0; });
    w.family("nicd_qos_unsupported", MetricType::Gauge,
             "1 for a QoS setting of a port nicd provisions that its NIC gives nicd no interface "
             "for (the plugin reads it unsupported, e.g. ECN on an upstream driver): neither "
             "compliant nor not, and absent from nicd_qos_compliant.");
    settings(true, [](const auto&) { return 1.0; });
    w.family("nicd_qos_managed", MetricType::Gauge,
             "1 when nicd provisions the port's QoS, 0 when it skips it (VF, InfiniBand, LAG, "
             "management NIC, link down, excluded); the D-Bus QosStatus says why.");
    for (const auto& [key, port] : q.ports)
        w.sample({{"device", key.first}, {"port", std::to_string(key.second)}},
                 port.managed ? 1.0 : 0.0);
    w.family("nicd_qos_last_apply_timestamp_seconds", MetricType::Gauge,
             "Unix time of the last provisioning round that applied QoS (0: never).");
    w.sample(q.last_apply_seconds);
    w.family("nicd_qos_rounds_total", MetricType::Counter,
             "Provisioning rounds finished since nicd started, by kind (apply, verify, dry-run): "
             "periodic, after a link or DCB change, and for D-Bus Apply/Verify calls (calls made "
             "while a round of their kind waits to start share it).");
    for (const auto& [kind, n] : q.rounds_total)
        w.sample({{"kind", kind}}, n);
    w.family("nicd_qos_changes_total", MetricType::Counter,
             "QoS settings nicd wrote because they differed, since it started (Counters=all "
             "only: nicd logs each write).");
    const auto bySetting = [&](const auto& totals) {
        for (const auto& [key, n] : totals)
            w.sample({{"device", std::get<0>(key)},
                      {"port", std::to_string(std::get<1>(key))},
                      {"setting", std::get<2>(key)}},
                     n);
    };
    if (all)
        bySetting(q.changes_total);
    w.family("nicd_qos_errors_total", MetricType::Counter,
             "Errors reading or applying QoS, by setting (\"port\": the port as a whole), since "
             "nicd started.");
    bySetting(q.errors_total);
}

} // namespace nicd::textfile
