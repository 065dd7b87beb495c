// Link faults: a port loses its link (cable pulled, peer down) and regains it; a link that drops
// and never trains again; a flapping link; an IPoIB netdev that does not come up on an ACTIVE
// InfiniBand port.
#include "counter_access.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace nicd::sim {

namespace {

void bump(const fs::path& file, const fs::path& root)
{
    if (fs::is_regular_file(file))
        writeNumber(root, file, readNumber(file) + 1);
}

// The netdev's link as the kernel shows it: operstate, carrier, speed, duplex, carrier_changes.
void setNetdevLink(const fs::path& root, const std::string& netdev, bool up)
{
    auto dir = root / "sys/class/net" / netdev;
    if (!fs::exists(dir))
        return;
    bool was_up = readText(dir / "carrier").starts_with("1");
    if (was_up == up)
        return;
    writeText(root, dir / "operstate", up ? "up\n" : "down\n");
    writeText(root, dir / "carrier", up ? "1\n" : "0\n");
    size_t lanes = 1;
    if (fs::exists(dir / "bonding/slaves")) {
        auto slaves = readText(dir / "bonding/slaves");
        lanes = static_cast<size_t>(std::count(slaves.begin(), slaves.end(), ' ')) + 1;
    }
    writeText(root, dir / "speed", up ? std::to_string(400000 * lanes) + "\n" : "-1\n");
    if (fs::exists(dir / "duplex"))
        writeText(root, dir / "duplex", up ? "full\n" : "unknown\n");
    bump(dir / "carrier_changes", root);
}

// How a port's link changes: it comes up, goes down (bumping the link-down counters), or drops
// without a link-down recorded, polling for its partner.
enum class LinkChange : uint8_t { Up, Down, Drop };

void setLink(const fs::path& root, NodeState& st, const std::string& dev, uint32_t port,
             LinkChange change)
{
    const bool up = change == LinkChange::Up;
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed (nicd-sim inject DIR restore " + dev + ")");
    bool found = false;
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
        auto p = static_cast<uint32_t>(std::stoul(pe.path().filename().string()));
        if (port != 0 && p != port)
            continue;
        found = true;
        bool was_up = readText(pe.path() / "state").starts_with("4");
        if (change == LinkChange::Drop)
            writeText(root, pe.path() / "phys_state", "2: Polling\n"); // a down port too
        if (was_up == up)
            continue;
        writeText(root, pe.path() / "state", up ? "4: ACTIVE\n" : "1: DOWN\n");
        if (change != LinkChange::Drop)
            writeText(root, pe.path() / "phys_state", up ? "5: LinkUp\n" : "3: Disabled\n");
        if (change == LinkChange::Down) {
            auto c = locateCounter(root, st, dev, "link_downed", p);
            writeCounter(root, st, c,
                         advanceKeyed(st, c.key(), c.spec, readCounter(root, st, c), 1));
        }
    }
    if (!found)
        throw SimError(fmt::format("{} has no port {}", dev, port));
    auto netdevs = d.netdevs;
    for (const auto& nd : d.ethtool_netdevs)
        if (std::find(netdevs.begin(), netdevs.end(), nd) == netdevs.end())
            netdevs.push_back(nd);
    for (const auto& nd : netdevs) {
        bool changes = fs::exists(root / "sys/class/net" / nd / "carrier") &&
                       readText(root / "sys/class/net" / nd / "carrier").starts_with("1") != up;
        setNetdevLink(root, nd, up);
        if (!changes || change != LinkChange::Down || !fs::exists(ethtoolFile(root, nd)))
            continue;
        auto stats = readEthtool(root, nd);
        const std::string link_down_events = vendorCatalog(d.vendor).counters.link_down_events;
        for (auto& [name, value] : stats)
            if (name == link_down_events)
                value = advanceKeyed(st, counterKey(dev, 1, "ethtool:" + nd, name),
                                     counterSpec(d.vendor, "ethtool", name), value, 1);
        writeEthtool(root, nd, stats);
    }
}

void changeLocked(const fs::path& root, const std::string& dev, uint32_t port, LinkChange how)
{
    LockedNode st(root);
    setLink(root, *st, dev, port, how);
    st.save();
}

} // namespace

void linkDown(const fs::path& root, const std::string& dev, uint32_t port)
{
    changeLocked(root, dev, port, LinkChange::Down);
}

void linkUp(const fs::path& root, const std::string& dev, uint32_t port)
{
    changeLocked(root, dev, port, LinkChange::Up);
}

void linkDrop(const fs::path& root, const std::string& dev, uint32_t port)
{
    changeLocked(root, dev, port, LinkChange::Drop);
}

void flap(const fs::path& root, const std::string& dev, int times, uint32_t port, double down_sec,
          double up_sec)
{
    if (times < 1 || times > 1000)
        throw SimError(fmt::format("flap {}: --times must be from 1 to 1000", dev));
    if (!(down_sec >= 0 && down_sec <= 3600 && up_sec >= 0 && up_sec <= 3600))
        throw SimError(fmt::format("flap {}: --down-sec and --up-sec must be from 0 to 3600", dev));
    auto hold = [](double sec) {
        if (sec > 0)
            std::this_thread::sleep_for(std::chrono::duration<double>(sec));
    };
    if (down_sec == 0 && up_sec == 0) { // at once, under one lock: the counters see every cycle
        LockedNode st(root);
        for (int i = 0; i < times; ++i) {
            setLink(root, *st, dev, port, LinkChange::Down);
            setLink(root, *st, dev, port, LinkChange::Up);
        }
        st.save();
        return;
    }
    for (int i = 0; i < times; ++i) {
        changeLocked(root, dev, port, LinkChange::Down);
        hold(down_sec);
        changeLocked(root, dev, port, LinkChange::Up);
        if (i + 1 < times)
            hold(up_sec);
    }
}

void ipoibDown(const fs::path& root, const std::string& dev, bool down)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    if (d.role != "ib")
        throw SimError(dev + " is no InfiniBand port: IPoIB is an InfiniBand port's netdev (the "
                             "default node's is mlx5_4's ib0)");
    for (const auto& nd : d.netdevs) {
        const auto dir = root / "sys/class/net" / nd;
        if (!fs::exists(dir) || readText(dir / "carrier").starts_with("0") == down)
            continue;
        // Admin up all along (carrier reads), the port ACTIVE: only IPoIB's own link changes.
        writeText(root, dir / "operstate", down ? "down\n" : "up\n");
        writeText(root, dir / "carrier", down ? "0\n" : "1\n");
        bump(dir / "carrier_changes", root);
    }
}

} // namespace nicd::sim
