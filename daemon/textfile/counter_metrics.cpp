// The counters read this cycle that [textfile] Counters= keeps (textfile/counter_budget.hpp): one
// family per source and kind (counter or gauge), so that each family has one label set and one
// type.
#include "textfile/counter_budget.hpp"
#include "textfile/render.hpp"

#include <array>
#include <charconv>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace nicd::textfile {

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
           "Values in sysfs hw_counters that are not counters (ib_core's lifespan, in ms)."},
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

Group groupOf(const SeriesKey& s)
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

constexpr size_t kGroups = static_cast<size_t>(Group::Count);

// What a layout's series are to the textfile, worked out once per layout, lossless priorities and
// render (devices of one kind share their layouts): which are written, the family of each, in
// groups, and its name as a label value. A series the budget leaves out costs nothing more.
struct LayoutLines {
    std::array<std::vector<uint32_t>, kGroups> by_group; // series indices, in layout order
    std::vector<std::string> names;                      // escaped, where escaping changes them
    std::vector<uint8_t> escaped;                        // names[i] holds series i's name
    std::vector<std::string> sources;                    // escaped (for the "other" families)
    bool duplicates = false;                             // two series with the same labels
    bool pma_families = false; // a series of the IB PMA families (a plugin's "counters")
};

LayoutLines linesOf(const SampleLayout& layout, const LayoutMeanings* meanings,
                    const CounterBudget& budget, uint8_t lossless)
{
    LayoutLines l;
    const size_t n = layout.series.size();
    l.names.resize(n);
    l.escaped.resize(n);
    l.sources.resize(n);
    std::set<std::tuple<size_t, uint32_t, uint32_t, std::string_view, std::string_view>> seen;
    for (size_t i = 0; i < n; ++i) {
        const SeriesKey& k = layout.series[i];
        if (k.source == kSourceNicd)
            continue; // the plugin telling the daemon (nicd_dropped_files)
        if (!budget.keeps(k.source, k.name, meaningAt(meanings, i), lossless))
            continue;
        const Group g = groupOf(k);
        l.by_group[static_cast<size_t>(g)].push_back(static_cast<uint32_t>(i));
        std::string e = MetricWriter::escapeLabelValue(k.name);
        if (e != k.name) {
            l.names[i] = std::move(e);
            l.escaped[i] = 1;
        }
        if (g == Group::OtherCounter || g == Group::OtherGauge)
            l.sources[i] = MetricWriter::escapeLabelValue(k.source);
        if (!seen.emplace(static_cast<size_t>(g), k.port, k.netdev, k.name, k.source).second)
            l.duplicates = true;
        if (k.source == kSourceIbCounters)
            l.pma_families = true;
    }
    return l;
}

// A device's label values, escaped once per render.
struct DeviceLabels {
    std::string device;
    std::vector<std::string> pma_netdevs, plugin_netdevs;
    bool checked = false; // write through the checked path (possible repeated series)
    uint8_t lossless = 0; // its lossless priorities, as the budget sees them
};

std::vector<std::string> escapedAll(const std::vector<std::string>& values)
{
    std::vector<std::string> out;
    out.reserve(values.size());
    for (const auto& v : values)
        out.push_back(MetricWriter::escapeLabelValue(v));
    return out;
}

void writeChecked(MetricWriter& w, const Family& f, const DeviceSamples& ds, const SampleBatch& b,
                  const SeriesKey& k, uint64_t value)
{
    char port_text[12];
    auto [end, ec] = std::to_chars(port_text, port_text + sizeof port_text, k.port);
    std::string_view port(port_text, static_cast<size_t>(end - port_text));
    const std::string& netdev = b.netdevOf(k);
    switch (f.labels) {
    case LabelSet::DevicePort:
        w.sample({{"device", ds.ibdev}, {"port", port}}, value);
        break;
    case LabelSet::Counter:
        w.sample({{"device", ds.ibdev}, {"port", port}, {"counter", k.name}}, value);
        break;
    case LabelSet::NetdevStat:
        w.sample({{"device", ds.ibdev}, {"port", port}, {"netdev", netdev}, {"stat", k.name}},
                 value);
        break;
    case LabelSet::SourceName:
        w.sample({{"device", ds.ibdev},
                  {"port", port},
                  {"netdev", netdev},
                  {"source", k.source},
                  {"name", k.name}},
                 value);
        break;
    }
}

// One batch's series of family `f`. Their labels are unique by construction (the device label
// differs between devices, and a layout was checked for repeats), so they skip the writer's
// per-sample check, and are assembled from pieces escaped once.
void writeBatch(MetricWriter& w, const Family& f, const DeviceSamples& ds, const SampleBatch& b,
                const LayoutLines& l, const std::string& device,
                const std::vector<std::string>& netdevs, bool checked)
{
    for (uint32_t i : l.by_group[static_cast<size_t>(f.group)]) {
        if (i >= b.values.size())
            break;
        const SeriesKey& k = b.layout->series[i];
        const uint64_t value = b.values[i];
        if (checked) {
            writeChecked(w, f, ds, b, k, value);
            continue;
        }
        char port_text[12];
        auto [end, ec] = std::to_chars(port_text, port_text + sizeof port_text, k.port);
        const std::string_view port(port_text, static_cast<size_t>(end - port_text));
        const std::string_view name = l.escaped[i] ? std::string_view(l.names[i]) : k.name;
        const std::string_view netdev =
            k.netdev == 0 || k.netdev > netdevs.size() ? std::string_view() : netdevs[k.netdev - 1];
        switch (f.labels) {
        case LabelSet::DevicePort:
            w.sampleEscaped({"device=\"", device, "\",port=\"", port, "\""}, value);
            break;
        case LabelSet::Counter:
            w.sampleEscaped({"device=\"", device, "\",port=\"", port, "\",counter=\"", name, "\""},
                            value);
            break;
        case LabelSet::NetdevStat:
            w.sampleEscaped({"device=\"", device, "\",port=\"", port, "\",netdev=\"", netdev,
                             "\",stat=\"", name, "\""},
                            value);
            break;
        case LabelSet::SourceName:
            w.sampleEscaped({"device=\"", device, "\",port=\"", port, "\",netdev=\"", netdev,
                             "\",source=\"", l.sources[i], "\",name=\"", name, "\""},
                            value);
            break;
        }
    }
}

} // namespace

void renderCounterMetrics(const Snapshot& snap, const CounterBudget& budget, MetricWriter& w)
{
    if (budget.nothing()) { // Counters=none: the families, empty
        for (const auto& f : kFamilies)
            w.family(f.name, f.type, f.help);
        return;
    }
    // The layouts of this snapshot, each worked out once per set of lossless priorities (devices
    // of one kind share theirs; the priorities matter to the default set only).
    std::map<std::tuple<const SampleLayout*, const LayoutMeanings*, uint8_t>, LayoutLines> layouts;
    auto linesFor = [&](const SampleBatch& b, const LayoutMeanings* meanings,
                        uint8_t lossless) -> const LayoutLines* {
        if (!b.layout)
            return nullptr;
        auto key = std::make_tuple(b.layout.get(), meanings, lossless);
        auto it = layouts.find(key);
        if (it == layouts.end())
            it = layouts.emplace(key, linesOf(*b.layout, meanings, budget, lossless)).first;
        return &it->second;
    };
    std::vector<DeviceLabels> labels(snap.samples.size());
    for (size_t d = 0; d < snap.samples.size(); ++d) {
        const auto& ds = snap.samples[d];
        auto& dl = labels[d];
        dl.lossless = budget.everything() ? 0 : budget.lossless(ds.ibdev);
        const LayoutLines* pma = linesFor(ds.pma, nullptr, dl.lossless);
        const LayoutLines* plugin = linesFor(ds.plugin, ds.meanings.get(), dl.lossless);
        dl.device = MetricWriter::escapeLabelValue(ds.ibdev);
        dl.pma_netdevs = escapedAll(ds.pma.netdevs);
        dl.plugin_netdevs = escapedAll(ds.plugin.netdevs);
        // A repeat within a layout, or a plugin's series in the PMA families: the checked path.
        dl.checked =
            (pma && pma->duplicates) || (plugin && (plugin->duplicates || plugin->pma_families));
    }
    for (const auto& f : kFamilies) {
        w.family(f.name, f.type, f.help);
        for (size_t d = 0; d < snap.samples.size(); ++d) {
            const auto& ds = snap.samples[d];
            const auto& dl = labels[d];
            if (const LayoutLines* pma = linesFor(ds.pma, nullptr, dl.lossless))
                writeBatch(w, f, ds, ds.pma, *pma, dl.device, dl.pma_netdevs, dl.checked);
            if (const LayoutLines* plugin = linesFor(ds.plugin, ds.meanings.get(), dl.lossless))
                writeBatch(w, f, ds, ds.plugin, *plugin, dl.device, dl.plugin_netdevs, dl.checked);
        }
    }
}

} // namespace nicd::textfile
