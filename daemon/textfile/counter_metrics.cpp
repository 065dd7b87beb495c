// Every counter read this cycle, one family per source and kind.
#include "textfile/render.hpp"

#include <map>
#include <string>
#include <vector>

namespace nicd {

namespace {

struct Family {
    const char* name;
    MetricType type;
    const char* help;
};

enum class Group {
    IbReceiveBytes,
    IbTransmitBytes,
    IbCounter,
    HwCounter,
    HwGauge,
    EthtoolCounter,
    EthtoolGauge,
    Other
};

const std::map<Group, Family>& families()
{
    static const std::map<Group, Family> f{
        {Group::IbReceiveBytes,
         {"nicd_ib_port_receive_bytes_total", MetricType::Counter,
          "Bytes received on the port (counters/port_rcv_data x 4)."}},
        {Group::IbTransmitBytes,
         {"nicd_ib_port_transmit_bytes_total", MetricType::Counter,
          "Bytes transmitted on the port (counters/port_xmit_data x 4)."}},
        {Group::IbCounter,
         {"nicd_ib_port_pma_total", MetricType::Counter,
          "IB PMA port counters from sysfs ports/N/counters, by kernel file name."}},
        {Group::HwCounter,
         {"nicd_port_hw_stat_total", MetricType::Counter,
          "Vendor driver counters from sysfs ports/N/hw_counters, by kernel file name."}},
        {Group::HwGauge,
         {"nicd_port_hw_value", MetricType::Gauge,
          "Vendor driver values from ports/N/hw_counters that are not counters (e.g. lifespan, "
          "ms)."}},
        {Group::EthtoolCounter,
         {"nicd_netdev_ethtool_total", MetricType::Counter,
          "Netdev driver statistics (ethtool -S), by statistic name."}},
        {Group::EthtoolGauge,
         {"nicd_netdev_ethtool_value", MetricType::Gauge,
          "Netdev driver statistics (ethtool -S) that are not counters."}},
        {Group::Other,
         {"nicd_plugin_sample", MetricType::Gauge,
          "Values plugins report from other sources, by source and name."}},
    };
    return f;
}

Group groupOf(const Sample& s)
{
    if (s.source == kSourceIbCounters) {
        if (s.name == "port_rcv_data_bytes")
            return Group::IbReceiveBytes;
        if (s.name == "port_xmit_data_bytes")
            return Group::IbTransmitBytes;
        return Group::IbCounter;
    }
    bool counter = s.kind == SampleKind::Counter;
    if (s.source == kSourceHwCounters)
        return counter ? Group::HwCounter : Group::HwGauge;
    if (s.source == kSourceEthtool)
        return counter ? Group::EthtoolCounter : Group::EthtoolGauge;
    return Group::Other;
}

} // namespace

void renderCounterMetrics(const Snapshot& snap, MetricWriter& w)
{
    std::map<Group, std::vector<std::pair<const DeviceSamples*, const Sample*>>> by_group;
    for (const auto& ds : snap.samples)
        for (const auto& s : ds.samples)
            by_group[groupOf(s)].emplace_back(&ds, &s);
    for (const auto& [group, fam] : families()) {
        w.family(fam.name, fam.type, fam.help);
        auto it = by_group.find(group);
        if (it == by_group.end())
            continue;
        for (const auto& [ds, s] : it->second) {
            auto port = std::to_string(s->port);
            switch (group) {
            case Group::IbReceiveBytes:
            case Group::IbTransmitBytes:
                w.sample({{"device", ds->ibdev}, {"port", port}}, s->value);
                break;
            case Group::IbCounter:
            case Group::HwCounter:
            case Group::HwGauge:
                w.sample({{"device", ds->ibdev}, {"port", port}, {"counter", s->name}}, s->value);
                break;
            case Group::EthtoolCounter:
            case Group::EthtoolGauge:
                w.sample({{"device", ds->ibdev},
                          {"port", port},
                          {"netdev", s->netdev},
                          {"stat", s->name}},
                         s->value);
                break;
            case Group::Other:
                w.sample({{"device", ds->ibdev},
                          {"port", port},
                          {"netdev", s->netdev},
                          {"source", s->source},
                          {"name", s->name}},
                         s->value);
                break;
            }
        }
    }
}

} // namespace nicd
