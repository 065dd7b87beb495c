#include "counter_access.hpp"

#include "vendor_catalog.hpp"

#include <fmt/format.h>

namespace nicd::sim {

std::string stalledKey(const fs::path& root, const fs::path& file)
{
    return fs::relative(file, root).string();
}

CounterRef locateCounter(const fs::path& root, NodeState& st, const std::string& dev,
                         const std::string& counter, uint32_t port)
{
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed (nicd-sim inject DIR restore " + dev + ")");
    uint32_t p = port == 0 ? 1 : port;
    auto pd = root / d.ib_dir / "ports" / std::to_string(p);
    if (!fs::is_directory(pd))
        throw SimError(fmt::format("{} has no port {}", dev, p));
    if (counter.empty() || counter.find('/') != std::string::npos)
        throw SimError(fmt::format("'{}' is not a counter name", counter));
    for (const char* group : {"counters", "hw_counters"}) {
        auto file = pd / group / counter;
        bool stalled_here = d.stalled && std::string(group) == "counters" &&
                            st.stalled_values[dev].contains(stalledKey(root, file));
        if (stalled_here || fs::is_regular_file(file))
            return {dev, p, group, counter, file, "", counterSpec(d.vendor, group, counter)};
    }
    for (const auto& nd : d.ethtool_netdevs)
        for (const auto& [name, value] : readEthtool(root, nd))
            if (name == counter)
                return {dev,
                        p,
                        "ethtool:" + nd,
                        counter,
                        ethtoolFile(root, nd),
                        nd,
                        counterSpec(d.vendor, "ethtool", counter)};
    throw SimError(fmt::format("{} port {} has no counter '{}' in counters/, hw_counters/ or the "
                               "ethtool statistics of its netdevs",
                               dev, p, counter));
}

uint64_t readCounter(const fs::path& root, const NodeState& st, const CounterRef& c)
{
    if (!c.netdev.empty()) {
        for (const auto& [name, value] : readEthtool(root, c.netdev))
            if (name == c.name)
                return value;
        throw SimError(c.netdev + " has no ethtool statistic '" + c.name + "'");
    }
    if (auto it = st.stalled_values.find(c.dev); it != st.stalled_values.end())
        if (auto v = it->second.find(stalledKey(root, c.file)); v != it->second.end())
            return v->second;
    return readNumber(c.file);
}

void writeCounter(const fs::path& root, NodeState& st, const CounterRef& c, uint64_t value)
{
    if (!c.netdev.empty()) {
        auto stats = readEthtool(root, c.netdev);
        for (auto& [name, v] : stats)
            if (name == c.name)
                v = value;
        writeEthtool(root, c.netdev, stats);
        return;
    }
    if (auto it = st.stalled_values.find(c.dev); it != st.stalled_values.end())
        if (auto v = it->second.find(stalledKey(root, c.file)); v != it->second.end()) {
            v->second = value;
            return;
        }
    writeNumber(root, c.file, value);
}

uint64_t advanceKeyed(const NodeState& st, const std::string& key, const CounterSpec& spec,
                      uint64_t value, uint64_t inc)
{
    if (auto it = st.wrap32.find(key); it != st.wrap32.end() && it->second)
        return advanceCounter(value, inc, 32, Overflow::Wrap);
    return advanceCounter(value, inc, spec.bits, spec.overflow);
}

} // namespace nicd::sim
