#include "neighbors/neighbor_twin.hpp"

#include "beneath.hpp"
#include "files.hpp"
#include "neighbor/lldpcli_json.hpp"
#include "neighbors/switch_tlvs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <tuple>

namespace nicd::sim {

namespace {

constexpr std::string_view kLeaf = "leaf-";
constexpr std::string_view kStorageLeaf = "storage-leaf-";
constexpr size_t kMaxLldpString = 255; // an LLDP TLV's string (lldpcli_json.hpp refuses longer)

uint64_t fnv1a(std::string_view text)
{
    uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : text)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}

// The number after `prefix` in `name` ("leaf-07" -> 7); 0 when `name` is not so.
unsigned numberAfter(std::string_view name, std::string_view prefix)
{
    if (!name.starts_with(prefix) || name.size() == prefix.size())
        return 0;
    unsigned n = 0;
    auto rest = name.substr(prefix.size());
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
    return ec == std::errc() && end == rest.data() + rest.size() ? n : 0;
}

std::string chassisMac(const std::string& switch_name)
{
    const uint64_t h = fnv1a(switch_name);
    return fmt::format("02:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", (h >> 32) & 0xFF, (h >> 24) & 0xFF,
                       (h >> 16) & 0xFF, (h >> 8) & 0xFF, h & 0xFF);
}

std::string mgmtAddress(const std::string& switch_name)
{
    if (unsigned n = numberAfter(switch_name, kLeaf); n > 0 && n < 65536)
        return fmt::format("10.{}.{}.1", n >> 8, n & 0xFF);
    if (unsigned k = numberAfter(switch_name, kStorageLeaf); k > 0 && k < 256)
        return fmt::format("10.255.{}.1", k);
    return fmt::format("10.254.{}.1", fnv1a(switch_name) % 254 + 1);
}

// The netdevs lldpd hears a device's ports on: a LAG's members (LLDP is link-local: each member
// hears its own switch port, never the bond), another Ethernet device's netdevs.
std::vector<std::string> lldpNetdevs(const SimDevice& d)
{
    if (d.role == "ib")
        throw SimError(d.name + " is InfiniBand: no LLDP there (lldpd runs on Ethernet ports)");
    if (d.role == "vf")
        throw SimError(d.name + " is a VF: lldpd hears the switch on its PF's uplink, not here");
    const auto& netdevs = d.role == "lag" ? d.ethtool_netdevs : d.netdevs;
    if (netdevs.empty())
        throw SimError(d.name + " has no netdev for lldpd to listen on");
    return netdevs;
}

bool hasLink(const fs::path& root, const std::string& netdev)
{
    try {
        return readText(root / "sys/class/net" / netdev / "operstate") == "up\n";
    } catch (const SimError&) {
        return false;
    }
}

void checkName(const std::string& what, const std::string& value)
{
    if (value.empty() || value.size() > kMaxLldpString ||
        std::any_of(value.begin(), value.end(),
                    [](unsigned char c) { return c < 0x20 || c == 0x7F; }))
        throw SimError(
            fmt::format("{} '{}': want 1 to {} printable bytes", what, value, kMaxLldpString));
}

NeighborMap parseTwin(const fs::path& file)
{
    try {
        return neighbor::parseLldpcliNeighbors(readText(file));
    } catch (const SimError&) {
        throw;
    } catch (const std::exception& e) {
        throw SimError(file.string() + ": not lldpcli's JSON: " + e.what());
    }
}

void writeTwin(const fs::path& root, const NeighborMap& neighbors)
{
    const auto file = neighborTwinFile(root);
    parentBeneath(root, file, true); // run/nicd-sim/lldp/, made beneath the node
    writeText(root, file, neighbor::toLldpcliJson(neighbors));
}

// The twin, under the node's lock, for a fault to change and write back.
class LockedTwin {
public:
    explicit LockedTwin(const fs::path& root) : root_(root), node_(root)
    {
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(neighborTwinFile(root), ec))) {
            if (fs::exists(fs::symlink_status(stoppedTwinFile(root), ec)))
                throw SimError("lldpd is stopped (nicd-sim inject " + root.string() +
                               " lldpd-stop-clear first)");
            throw SimError("no LLDP twin at " + neighborTwinFile(root).string() +
                           " (nicd-sim create writes one)");
        }
        twin_ = parseTwin(neighborTwinFile(root));
    }

    // The netdev lldpd hears DEV's port 1 on.
    std::string netdevOf(const std::string& dev)
    {
        return lldpNetdevs(node_->liveDevice(dev)).front();
    }
    NeighborMap& operator*() { return twin_; }
    NeighborMap* operator->() { return &twin_; }
    void save() { writeTwin(root_, twin_); }

private:
    fs::path root_;
    LockedNode node_;
    NeighborMap twin_;
};

// DEV's first neighbour; SimError when it hears none.
LldpNeighbor& firstNeighbor(NeighborMap& twin, const std::string& dev, const std::string& netdev)
{
    auto it = twin.find(netdev);
    if (it == twin.end() || it->second.empty())
        throw SimError(fmt::format("{} ({}) hears no neighbour", dev, netdev));
    return it->second.front();
}

} // namespace

fs::path neighborTwinFile(const fs::path& root)
{
    return simDir(root) / "lldp/neighbors.json";
}

fs::path stoppedTwinFile(const fs::path& root)
{
    return simDir(root) / "lldp/neighbors.json.stopped";
}

LldpNeighbor switchPort(const std::string& switch_name, const std::string& port,
                        std::vector<OrgTlv> tlvs)
{
    LldpNeighbor n;
    n.chassis_id = chassisMac(switch_name);
    n.chassis_id_type = "mac";
    n.system_name = switch_name;
    n.port_id = port;
    n.port_id_type = "ifname";
    n.port_descr = port;
    n.mgmt_address = mgmtAddress(switch_name);
    n.ttl_seconds = kSwitchTtlSeconds;
    n.org_tlvs = std::move(tlvs);
    return n;
}

NeighborMap cabledNeighbors(const fs::path& root, const NodeState& st)
{
    NeighborMap out;
    const auto tlvs = switchDcbxTlvs();
    // Storage ports in PCI order (then by netdev: a LAG's members share its address).
    std::vector<std::tuple<std::string, std::string>> storage;
    for (const auto& [name, d] : st.devices) {
        if (d.role != "pf" && d.role != "lag")
            continue; // InfiniBand, VFs: no LLDP
        for (const auto& nd : lldpNetdevs(d)) {
            if (!hasLink(root, nd))
                continue; // uncabled: nothing heard
            if (d.rail > 0 && d.role == "pf")
                out[nd].push_back(switchPort(fmt::format("leaf-{:02}", d.rail), "swp1", tlvs));
            else
                storage.emplace_back(d.pci_address, nd);
        }
    }
    std::sort(storage.begin(), storage.end());
    int k = 0;
    for (const auto& [pci, nd] : storage)
        out[nd].push_back(switchPort("storage-leaf-01", fmt::format("swp{}", ++k), tlvs));
    return out;
}

void createNeighborTwin(const fs::path& root)
{
    LockedNode st(root);
    writeTwin(root, cabledNeighbors(root, *st));
}

NeighborMap readNeighborTwin(const fs::path& root)
{
    return parseTwin(neighborTwinFile(root));
}

void neighborSet(const fs::path& root, const std::string& dev, const std::string& switch_name,
                 const std::string& port)
{
    checkName("SWITCH", switch_name);
    checkName("PORT", port);
    LockedTwin twin(root);
    const auto nd = twin.netdevOf(dev);
    auto& list = (*twin)[nd];
    auto tlvs = list.empty() ? switchDcbxTlvs() : list.front().org_tlvs;
    auto n = switchPort(switch_name, port, std::move(tlvs));
    if (list.empty())
        list.push_back(std::move(n));
    else
        list.front() = std::move(n);
    twin.save();
}

void neighborClear(const fs::path& root, const std::string& dev)
{
    LockedTwin twin(root);
    twin->erase(twin.netdevOf(dev));
    twin.save();
}

void neighborAdd(const fs::path& root, const std::string& dev, const std::string& switch_name,
                 const std::string& port)
{
    checkName("SWITCH", switch_name);
    checkName("PORT", port);
    LockedTwin twin(root);
    const auto nd = twin.netdevOf(dev);
    auto& list = (*twin)[nd];
    if (list.size() >= neighbor::kMaxNeighborsPerNetdev)
        throw SimError(
            fmt::format("{} ({}) hears {} neighbours already, lldpd's most", dev, nd, list.size()));
    list.push_back(switchPort(switch_name, port, switchDcbxTlvs()));
    twin.save();
}

void neighborAddClear(const fs::path& root, const std::string& dev)
{
    LockedTwin twin(root);
    const auto nd = twin.netdevOf(dev);
    if (auto it = twin->find(nd); it != twin->end() && it->second.size() > 1)
        it->second.resize(1);
    twin.save();
}

void cableSwap(const fs::path& root, const std::string& dev1, const std::string& dev2)
{
    LockedTwin twin(root);
    const auto a = twin.netdevOf(dev1);
    const auto b = twin.netdevOf(dev2);
    if (a == b)
        throw SimError(fmt::format("{} and {} are one port ({}): nothing to swap", dev1, dev2, a));
    auto take = [&twin](const std::string& nd) {
        std::vector<LldpNeighbor> list;
        if (auto it = twin->find(nd); it != twin->end()) {
            list = std::move(it->second);
            twin->erase(it);
        }
        return list;
    };
    auto la = take(a);
    auto lb = take(b);
    if (!lb.empty())
        (*twin)[a] = std::move(lb);
    if (!la.empty())
        (*twin)[b] = std::move(la);
    twin.save();
}

void switchPfcSet(const fs::path& root, const std::string& dev, uint8_t pfc_bitmap)
{
    LockedTwin twin(root);
    const auto nd = twin.netdevOf(dev);
    auto& n = firstNeighbor(*twin, dev, nd);
    auto pfc = pfcTlv(switchPfc(pfc_bitmap));
    auto it = std::find_if(n.org_tlvs.begin(), n.org_tlvs.end(), [](const OrgTlv& t) {
        return t.oui == neighbor::kIeee8021Oui && t.subtype == neighbor::kSubtypePfcConfig;
    });
    if (it != n.org_tlvs.end())
        *it = std::move(pfc);
    else
        n.org_tlvs.push_back(std::move(pfc));
    twin.save();
}

void switchPfcClear(const fs::path& root, const std::string& dev)
{
    LockedTwin twin(root);
    const auto nd = twin.netdevOf(dev);
    firstNeighbor(*twin, dev, nd).org_tlvs = switchDcbxTlvs();
    twin.save();
}

void lldpdStop(const fs::path& root, bool on)
{
    LockedNode node(root);
    const auto running = neighborTwinFile(root);
    const auto stopped = stoppedTwinFile(root);
    std::error_code ec;
    const bool is_running = fs::exists(fs::symlink_status(running, ec));
    const bool is_stopped = fs::exists(fs::symlink_status(stopped, ec));
    if (on) {
        if (is_stopped)
            throw SimError("lldpd is stopped already");
        if (!is_running)
            throw SimError("no LLDP twin at " + running.string() + " (nicd-sim create writes one)");
        renameBeneath(root, running, stopped);
        return;
    }
    if (!is_stopped)
        return;     // running already: nothing to restore
    if (is_running) // a twin written meanwhile (a capture's replay): the stopped one is stale
        unlinkBeneath(root, stopped);
    else
        renameBeneath(root, stopped, running);
}

} // namespace nicd::sim
