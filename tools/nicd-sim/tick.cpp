// `nicd-sim tick`: every counter advances as if time passed.
#include "counter_access.hpp"
#include "ethtool_catalog.hpp"
#include "signal_state.hpp"
#include "vendor_catalog.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

namespace nicd::sim {

namespace {

// Increments at or above this are rounded; below it the fraction is carried to the next tick so
// slow rates (0.5/s ticked every second) still add up exactly.
constexpr double kCarryBelow = 1e4;

class Ticker {
public:
    Ticker(const fs::path& root, NodeState& st, double seconds)
        : root_(root), st_(st), seconds_(seconds)
    {
    }

    void device(const std::string& name, const SimDevice& d)
    {
        std::error_code ec;
        for (const auto& pe : fs::directory_iterator(root_ / d.ib_dir / "ports", ec)) {
            uint32_t port = static_cast<uint32_t>(std::stoul(pe.path().filename().string()));
            bool up = portUp(pe.path());
            for (const char* group : {"counters", "hw_counters"})
                for (const auto& f : fs::directory_iterator(pe.path() / group, ec))
                    sysfsCounter(name, d, port, group, f.path(), up);
        }
        bool up = portUp(root_ / d.ib_dir / "ports/1");
        for (const auto& nd : d.ethtool_netdevs)
            ethtool(name, d, nd, up);
    }

private:
    // A netdev's statistics: those with a rate (or an injection) advance; a per-channel one is
    // its channel's share of the software total the driver sums it into, so that the channels
    // add up to the total as on a real netdev. Thousands of lines: only the few that move cost
    // more than a look-up.
    void ethtool(const std::string& name, const SimDevice& d, const std::string& nd, bool up)
    {
        auto stats = readEthtool(root_, nd);
        const auto& catalog = vendorCatalog(d.vendor);
        const std::string group = "ethtool:" + nd;
        const auto injected = injectedNames(counterKey(name, 1, group, ""));
        struct PerChannel {
            size_t index;
            std::string total;
        };
        std::vector<PerChannel> per_channel;
        std::unordered_map<std::string_view, uint64_t> totals;
        for (size_t i = 0; i < stats.size(); ++i) {
            auto& [stat, value] = stats[i];
            const bool keyed = injected.contains(stat);
            if (auto total = catalog.channel_total(stat); !total.empty() && !keyed) {
                per_channel.push_back({i, std::move(total)});
                continue;
            }
            const CounterSpec* spec = catalog.ethtool_statistic(stat);
            if (keyed || (spec && spec->rate > 0)) {
                const CounterSpec s = spec ? *spec : counterSpec(d.vendor, "ethtool", stat);
                auto key = counterKey(name, 1, group, stat);
                value = advanceKeyed(st_, key, s, value, increment(key, s, d, up));
            }
            totals.emplace(stat, value);
        }
        std::unordered_map<std::string_view, unsigned> channels; // per total, and then the next
        for (const auto& c : per_channel)
            ++channels[c.total];
        std::unordered_map<std::string_view, unsigned> next;
        for (const auto& c : per_channel) {
            auto total = totals.find(c.total);
            unsigned channel = next[c.total]++;
            if (total == totals.end())
                continue; // a statistic the driver keeps per channel only (txN_stopped)
            auto& value = stats[c.index].second;
            value = std::max(value, channelShare(total->second, channel, channels[c.total]));
        }
        writeEthtool(root_, nd, stats);
    }

    // The statistics of a netdev's key prefix that an injection made climb (or wrap), by name.
    std::set<std::string, std::less<>> injectedNames(const std::string& prefix) const
    {
        std::set<std::string, std::less<>> out;
        auto collect = [&](const auto& map) {
            for (auto it = map.lower_bound(prefix);
                 it != map.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it)
                out.insert(it->first.substr(prefix.size()));
        };
        collect(st_.rates);
        collect(st_.carry);
        collect(st_.wrap32);
        return out;
    }

    static bool portUp(const fs::path& port_dir)
    {
        try {
            return readText(port_dir / "state").starts_with("4");
        } catch (const SimError&) {
            return false;
        }
    }

    void sysfsCounter(const std::string& name, const SimDevice& d, uint32_t port,
                      const std::string& group, const fs::path& file, bool up)
    {
        auto counter = file.filename().string();
        auto spec = counterSpec(d.vendor, group, counter);
        if (spec.setting)
            return;
        auto key = counterKey(name, port, group, counter);
        auto inc = increment(key, spec, d, up);
        if (inc == 0)
            return;
        // A stalled device's counters/ are FIFOs: never open them, advance the kept values.
        if (auto s = st_.stalled_values.find(name); s != st_.stalled_values.end())
            if (auto it = s->second.find(stalledKey(root_, file)); it != s->second.end()) {
                it->second = advanceKeyed(st_, key, spec, it->second, inc);
                return;
            }
        if (!fs::is_regular_file(file))
            return;
        uint64_t value = 0;
        try {
            value = readNumber(file);
        } catch (const SimError&) {
            if (readsNoPma(file)) // no such counter (noPmaCounter): it stays so
                return;
            throw;
        }
        writeNumber(root_, file, advanceKeyed(st_, key, spec, value, inc));
    }

    uint64_t increment(const std::string& key, const CounterSpec& spec, const SimDevice& d, bool up)
    {
        auto injected = st_.rates.find(key);
        double rate = injected != st_.rates.end() ? injected->second : up ? spec.rate * d.load : 0;
        double add = rate * seconds_;
        if (add <= 0)
            return 0;
        if (add >= kCarryBelow)
            return static_cast<uint64_t>(std::llround(add));
        auto carried = st_.carry.find(key);
        if (carried != st_.carry.end())
            add += carried->second;
        double whole = std::floor(add);
        if (add - whole > 0)
            st_.carry[key] = add - whole;
        else if (carried != st_.carry.end())
            st_.carry.erase(carried);
        return static_cast<uint64_t>(whole);
    }

    const fs::path& root_;
    NodeState& st_;
    double seconds_;
};

} // namespace

void tick(const fs::path& root, double seconds)
{
    if (!(seconds >= 0) || seconds > 1e7)
        throw SimError("tick: --seconds must be from 0 to 1e7");
    LockedNode st(root);
    Ticker ticker(root, *st, seconds);
    for (const auto& [name, d] : st->devices)
        if (!d.removed)
            ticker.device(name, d);
    refreshFecCaptures(root, *st);
    st.save();
}

} // namespace nicd::sim
