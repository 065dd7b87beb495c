// Counters that advance with time, and the counter faults: bursts, steady climbs, 32-bit wraps,
// resets.
#include "counter_catalog.hpp"
#include "node_state.hpp"
#include "sim.hpp"

#include <cmath>
#include <limits>

namespace nicd::sim {

namespace {

// A counter's key in state.json: "<dev>|<port>|<dir>|<name>", dir being counters, hw_counters
// or ethtool:<netdev>.
std::string key(const std::string& dev, uint32_t port, const std::string& dir,
                const std::string& name)
{
    return dev + "|" + std::to_string(port) + "|" + dir + "|" + name;
}

uint64_t advance(uint64_t v, double add, bool wraps32)
{
    if (add <= 0)
        return v;
    auto inc = static_cast<uint64_t>(std::llround(add));
    if (wraps32)
        return (v + inc) & 0xffffffffULL;
    if (v > std::numeric_limits<uint64_t>::max() - inc)
        return std::numeric_limits<uint64_t>::max(); // saturate
    return v + inc;
}

bool portUp(const fs::path& port_dir)
{
    try {
        return readText(port_dir / "state").starts_with("4");
    } catch (const SimError&) {
        return false;
    }
}

struct Location {
    fs::path file;   // a counters/ or hw_counters/ file, or the ethtool stats file
    std::string dir; // counters, hw_counters, ethtool:<netdev>
    uint32_t port = 1;
    std::string stat; // for ethtool
};

Location locate(const fs::path& root, NodeState& st, const std::string& dev,
                const std::string& counter, uint32_t port)
{
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed (nicd-sim inject restore " + dev + ")");
    uint32_t p = port == 0 ? 1 : port;
    auto pd = root / d.ib_dir / "ports" / std::to_string(p);
    if (!fs::exists(pd))
        throw SimError(dev + " has no port " + std::to_string(p));
    for (const char* dir : {"counters", "hw_counters"})
        if (fs::exists(pd / dir / counter))
            return {pd / dir / counter, dir, p, {}};
    for (const auto& nd : d.ethtool_netdevs) {
        auto f = simDir(root) / "ethtool" / nd;
        for (const auto& [n, v] : readEthtool(f))
            if (n == counter)
                return {f, "ethtool:" + nd, p, counter};
    }
    throw SimError(dev + " port " + std::to_string(p) + " has no counter '" + counter +
                   "' in counters/, hw_counters/ or its ethtool statistics");
}

void addAt(const Location& loc, uint64_t n, bool wraps32)
{
    if (loc.stat.empty()) {
        writeNumber(loc.file, advance(readNumber(loc.file), static_cast<double>(n), wraps32));
        return;
    }
    auto stats = readEthtool(loc.file);
    for (auto& [name, v] : stats)
        if (name == loc.stat)
            v = advance(v, static_cast<double>(n), wraps32);
    writeEthtool(loc.file, stats);
}

} // namespace

void tick(const fs::path& root, double seconds)
{
    if (seconds < 0)
        throw SimError("tick: seconds must not be negative");
    NodeLock lock(root);
    auto st = NodeState::load(root);
    for (auto& [name, d] : st.devices) {
        if (d.removed)
            continue;
        std::error_code ec;
        for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
            uint32_t port = static_cast<uint32_t>(std::stoul(pe.path().filename().string()));
            bool up = portUp(pe.path());
            for (const char* dir : {"counters", "hw_counters"}) {
                if (d.stalled && std::string(dir) == "counters")
                    continue;
                for (const auto& f : fs::directory_iterator(pe.path() / dir, ec)) {
                    auto cname = f.path().filename().string();
                    auto k = key(name, port, dir, cname);
                    double rate =
                        st.rates.contains(k) ? st.rates[k] : (up ? defaultRate(dir, cname) : 0);
                    if (rate > 0)
                        writeNumber(f.path(),
                                    advance(readNumber(f.path()), rate * seconds, st.width32[k]));
                }
            }
        }
        for (const auto& nd : d.ethtool_netdevs) {
            auto file = simDir(root) / "ethtool" / nd;
            auto stats = readEthtool(file);
            bool up = portUp(root / d.ib_dir / "ports/1");
            for (auto& [sname, v] : stats) {
                auto k = key(name, 1, "ethtool:" + nd, sname);
                double rate =
                    st.rates.contains(k) ? st.rates[k] : (up ? defaultRate("ethtool", sname) : 0);
                v = advance(v, rate * seconds, st.width32[k]);
            }
            writeEthtool(file, stats);
        }
    }
}

void addToCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint64_t n, uint32_t port)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto loc = locate(root, st, dev, counter, port);
    addAt(loc, n, st.width32[key(dev, loc.port, loc.dir, counter)]);
}

void setRate(const fs::path& root, const std::string& dev, const std::string& counter,
             double per_second, uint32_t port)
{
    if (per_second < 0)
        throw SimError("rate must not be negative");
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto loc = locate(root, st, dev, counter, port);
    st.rates[key(dev, loc.port, loc.dir, counter)] = per_second;
    st.save(root);
}

void wrap(const fs::path& root, const std::string& dev, const std::string& counter, uint32_t port)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto loc = locate(root, st, dev, counter, port);
    auto k = key(dev, loc.port, loc.dir, counter);
    st.width32[k] = true;
    const uint64_t near_top = 0xffffffffULL - 1000;
    if (loc.stat.empty()) {
        writeNumber(loc.file, near_top);
    } else {
        auto stats = readEthtool(loc.file);
        for (auto& [name, v] : stats)
            if (name == loc.stat)
                v = near_top;
        writeEthtool(loc.file, stats);
    }
    st.save(root);
}

void resetCounters(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed");
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec))
        for (const char* dir : {"counters", "hw_counters"})
            for (const auto& f : fs::directory_iterator(pe.path() / dir, ec))
                if (f.path().filename() != "lifespan" && fs::is_regular_file(f.path()))
                    writeNumber(f.path(), 0);
    for (const auto& nd : d.ethtool_netdevs) {
        auto file = simDir(root) / "ethtool" / nd;
        auto stats = readEthtool(file);
        for (auto& [n, v] : stats)
            v = 0;
        writeEthtool(file, stats);
    }
}

uint64_t counterValue(const fs::path& root, const std::string& dev, const std::string& counter,
                      uint32_t port)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto loc = locate(root, st, dev, counter, port);
    if (loc.stat.empty())
        return readNumber(loc.file);
    for (const auto& [n, v] : readEthtool(loc.file))
        if (n == loc.stat)
            return v;
    return 0;
}

} // namespace nicd::sim
