// `nicd-sim tick`: every counter advances as if time passed.
#include "counter_access.hpp"
#include "signal_state.hpp"

#include <cmath>

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
        for (const auto& nd : d.ethtool_netdevs) {
            auto stats = readEthtool(root_, nd);
            for (auto& [stat, value] : stats) {
                auto spec = counterSpec("ethtool", stat);
                auto key = counterKey(name, 1, "ethtool:" + nd, stat);
                value = advanceKeyed(st_, key, spec, value, increment(key, spec, d, up));
            }
            writeEthtool(root_, nd, stats);
        }
    }

private:
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
        auto spec = counterSpec(group, counter);
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
        writeNumber(root_, file, advanceKeyed(st_, key, spec, readNumber(file), inc));
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
    NodeLock lock(root);
    auto st = NodeState::load(root);
    Ticker ticker(root, st, seconds);
    for (const auto& [name, d] : st.devices)
        if (!d.removed)
            ticker.device(name, d);
    refreshFecCaptures(root, st);
    st.save(root);
}

} // namespace nicd::sim
