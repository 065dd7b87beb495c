// Every counter read this cycle: one family per source and kind (counter or gauge), so that each
// family has one label set and one type.
#include "textfile/render.hpp"

#include <array>
#include <charconv>
#include <string>
#include <vector>

namespace nicd {

namespace {

enum class Group : uint8_t {
    IbReceiveBytes,
    IbTransmitBytes,
    IbReceivePackets,
    IbTransmitPackets,
    IbCounter,
    HwCounter,
    HwGauge,
    EthtoolCounter,
    EthtoolGauge,
    OtherCounter,
    OtherGauge,
    Count
};

// Which labels a group's samples carry, after device and port.
enum class LabelSet : uint8_t { DevicePort, Counter, NetdevStat, SourceName };

struct Family {
    Group group;
    const char* name;
    MetricType type;
    LabelSet labels;
    const char* help;
};

// In output order.
constexpr std::array kFamilies{
    Family{Group::IbReceiveBytes, "nicd_ib_port_receive_bytes_total", MetricType::Counter,
           LabelSet::DevicePort, "Bytes received on the port (counters/port_rcv_data x 4)."},
    Family{Group::IbTransmitBytes, "nicd_ib_port_transmit_bytes_total", MetricType::Counter,
           LabelSet::DevicePort, "Bytes transmitted on the port (counters/port_xmit_data x 4)."},
    Family{Group::IbReceivePackets, "nicd_ib_port_receive_packets_total", MetricType::Counter,
           LabelSet::DevicePort, "Packets received on the port (counters/port_rcv_packets)."},
    Family{Group::IbTransmitPackets, "nicd_ib_port_transmit_packets_total", MetricType::Counter,
           LabelSet::DevicePort, "Packets transmitted on the port (counters/port_xmit_packets)."},
    Family{Group::IbCounter, "nicd_ib_port_pma_total", MetricType::Counter, LabelSet::Counter,
           "Other IB PMA port counters from sysfs ports/N/counters, by kernel file name."},
    Family{Group::HwCounter, "nicd_port_hw_stat_total", MetricType::Counter, LabelSet::Counter,
           "Vendor driver counters from sysfs hw_counters, by kernel file name (port 0: the "
           "device's own hw_counters)."},
    Family{Group::HwGauge, "nicd_port_hw_value", MetricType::Gauge, LabelSet::Counter,
           "Values in sysfs hw_counters that are not counters (mlx5 lifespan, in ms)."},
    Family{Group::EthtoolCounter, "nicd_netdev_ethtool_total", MetricType::Counter,
           LabelSet::NetdevStat, "Netdev driver statistics (ethtool -S), by statistic name."},
    Family{Group::EthtoolGauge, "nicd_netdev_ethtool_value", MetricType::Gauge,
           LabelSet::NetdevStat, "Netdev driver statistics (ethtool -S) that are not counters."},
    Family{Group::OtherCounter, "nicd_source_stat_total", MetricType::Counter, LabelSet::SourceName,
           "Counters a plugin reports from other sources, by source and name."},
    Family{Group::OtherGauge, "nicd_source_value", MetricType::Gauge, LabelSet::SourceName,
           "Values a plugin reports from other sources, by source and name."},
};
static_assert(kFamilies.size() == static_cast<size_t>(Group::Count));

Group groupOf(const Sample& s)
{
    bool counter = s.kind == SampleKind::Counter;
    if (s.source == kSourceIbCounters && counter) {
        if (s.name == "port_rcv_data_bytes")
            return Group::IbReceiveBytes;
        if (s.name == "port_xmit_data_bytes")
            return Group::IbTransmitBytes;
        if (s.name == "port_rcv_packets")
            return Group::IbReceivePackets;
        if (s.name == "port_xmit_packets")
            return Group::IbTransmitPackets;
        return Group::IbCounter;
    }
    if (s.source == kSourceHwCounters)
        return counter ? Group::HwCounter : Group::HwGauge;
    if (s.source == kSourceEthtool)
        return counter ? Group::EthtoolCounter : Group::EthtoolGauge;
    return counter ? Group::OtherCounter : Group::OtherGauge;
}

void writeSample(MetricWriter& w, const Family& f, const DeviceSamples& ds, const Sample& s)
{
    char port_text[12];
    auto [port_end, ec] = std::to_chars(port_text, port_text + sizeof port_text, s.port);
    std::string_view port(port_text, static_cast<size_t>(port_end - port_text));
    switch (f.labels) {
    case LabelSet::DevicePort:
        w.sample({{"device", ds.ibdev}, {"port", port}}, s.value);
        break;
    case LabelSet::Counter:
        w.sample({{"device", ds.ibdev}, {"port", port}, {"counter", s.name}}, s.value);
        break;
    case LabelSet::NetdevStat:
        w.sample({{"device", ds.ibdev}, {"port", port}, {"netdev", s.netdev}, {"stat", s.name}},
                 s.value);
        break;
    case LabelSet::SourceName:
        w.sample({{"device", ds.ibdev},
                  {"port", port},
                  {"netdev", s.netdev},
                  {"source", s.source},
                  {"name", s.name}},
                 s.value);
        break;
    }
}

} // namespace

void renderCounterMetrics(const Snapshot& snap, MetricWriter& w)
{
    using Entry = std::pair<const DeviceSamples*, const Sample*>;
    std::array<std::vector<Entry>, static_cast<size_t>(Group::Count)> by_group;
    for (const auto& ds : snap.samples)
        for (const auto& s : ds.samples)
            by_group[static_cast<size_t>(groupOf(s))].emplace_back(&ds, &s);
    for (const auto& f : kFamilies) {
        w.family(f.name, f.type, f.help);
        for (const auto& [ds, s] : by_group[static_cast<size_t>(f.group)])
            writeSample(w, f, *ds, *s);
    }
}

} // namespace nicd
