// Link and device faults: link down/up, device removal and return, a wedged firmware.
#include "node_state.hpp"
#include "sim.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace nicd::sim {

namespace {

fs::path netdevDir(const fs::path& root, const std::string& nd)
{
    return root / "sys/class/net" / nd;
}

void setLink(const fs::path& root, const std::string& dev, uint32_t port, bool up)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is removed");
    bool found = false;
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
        if (port != 0 && pe.path().filename() != std::to_string(port))
            continue;
        found = true;
        bool was_up = readText(pe.path() / "state").starts_with("4");
        writeText(pe.path() / "state", up ? "4: ACTIVE\n" : "1: DOWN\n");
        writeText(pe.path() / "phys_state", up ? "5: LinkUp\n" : "3: Disabled\n");
        if (was_up && !up && !d.stalled)
            writeNumber(pe.path() / "counters/link_downed",
                        readNumber(pe.path() / "counters/link_downed") + 1);
    }
    if (!found)
        throw SimError(fmt::format("{} has no port {}", dev, port));
    auto netdevs = d.ethtool_netdevs;
    for (const auto& nd : d.netdevs)
        if (std::find(netdevs.begin(), netdevs.end(), nd) == netdevs.end())
            netdevs.push_back(nd);
    for (const auto& nd : netdevs) {
        auto dir = netdevDir(root, nd);
        if (!fs::exists(dir))
            continue;
        writeText(dir / "operstate", up ? "up\n" : "down\n");
        writeText(dir / "carrier", up ? "1\n" : "0\n");
        auto eth = simDir(root) / "ethtool" / nd;
        if (!up && fs::exists(eth)) {
            auto stats = readEthtool(eth);
            for (auto& [n, v] : stats)
                if (n == "link_down_events_phy")
                    ++v;
            writeEthtool(eth, stats);
        }
    }
}

} // namespace

void linkDown(const fs::path& root, const std::string& dev, uint32_t port)
{
    setLink(root, dev, port, false);
}

void linkUp(const fs::path& root, const std::string& dev, uint32_t port)
{
    setLink(root, dev, port, true);
}

// The RDMA device unregisters: its directory and class link disappear; the tree is kept aside
// so restore brings back the identical device.
void remove(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed)
        throw SimError(dev + " is already removed");
    auto aside = simDir(root) / "removed" / dev;
    fs::create_directories(aside.parent_path());
    fs::remove_all(aside);
    fs::rename(root / d.ib_dir, aside);
    fs::remove(root / "sys/class/infiniband" / dev);
    d.removed = true;
    st.save(root);
}

void restore(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (!d.removed)
        throw SimError(dev + " is not removed");
    fs::rename(simDir(root) / "removed" / dev, root / d.ib_dir);
    relativeSymlink(root / d.ib_dir, root / "sys/class/infiniband" / dev);
    d.removed = false;
    st.save(root);
}

void stall(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (d.removed || d.stalled)
        throw SimError(dev + (d.removed ? " is removed" : " is already stalled"));
    auto& saved = st.stalled_values[dev];
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec))
        for (const auto& f : fs::directory_iterator(pe.path() / "counters", ec)) {
            auto rel = fs::relative(f.path(), root).string();
            saved[rel] = readNumber(f.path());
            fs::remove(f.path());
            if (::mkfifo(f.path().c_str(), 0444) != 0)
                throw SimError("cannot create FIFO " + f.path().string());
        }
    d.stalled = true;
    st.save(root);
}

void unstall(const fs::path& root, const std::string& dev)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    auto& d = st.device(dev);
    if (!d.stalled)
        throw SimError(dev + " is not stalled");
    for (const auto& [rel, v] : st.stalled_values[dev]) {
        // Answer a reader blocked on the FIFO (as a firmware that finally replies), then put
        // the regular file back.
        int fd = ::open((root / rel).c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            auto text = std::to_string(v) + "\n";
            (void)!::write(fd, text.data(), text.size());
            ::close(fd);
        }
        fs::remove(root / rel);
        writeNumber(root / rel, v);
    }
    st.stalled_values.erase(dev);
    d.stalled = false;
    st.save(root);
}

std::vector<std::string> list(const fs::path& root)
{
    NodeLock lock(root);
    auto st = NodeState::load(root);
    std::vector<std::string> out;
    for (const auto& [name, d] : st.devices) {
        std::string state = d.removed ? "removed" : "";
        if (!d.removed) {
            std::error_code ec;
            for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
                auto s = readText(pe.path() / "state");
                state += (state.empty() ? "" : ",") + pe.path().filename().string() + ":" +
                         s.substr(s.find(' ') + 1, s.find('\n') - s.find(' ') - 1);
            }
        }
        if (d.stalled)
            state += " stalled";
        std::string nds;
        for (const auto& n : d.netdevs)
            nds += (nds.empty() ? "" : ",") + n;
        out.push_back(fmt::format("{:<13} {:<4} {:<16} {}", name, d.role, state, nds));
    }
    return out;
}

} // namespace nicd::sim
