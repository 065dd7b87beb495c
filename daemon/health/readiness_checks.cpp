#include "health/readiness_checks.hpp"

#include "readiness/gid_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace nicd::health {

namespace {

using Verdict = ReadyCheck::Verdict;

bool isInfiniBand(const Port& p)
{
    return p.link_layer == "InfiniBand";
}

// A link-local GID is said as such: its address is the MAC's, which a message need not carry
// (and a capture scrubs).
std::string gidLine(const GidEntry& g)
{
    const bool link_local = readiness::gidKind(g.gid) == readiness::GidKind::LinkLocal;
    std::string out = fmt::format("gid {}: {} {}", g.index, g.type.empty() ? "?" : g.type,
                                  link_local ? "link-local" : readiness::gidAddress(g.gid));
    if (!g.netdev.empty())
        out += " on " + g.netdev;
    return out;
}

// The first few used GIDs, for a failure's "what it saw".
std::string gidList(const std::vector<GidEntry>& gids)
{
    if (gids.empty())
        return "no GID in use";
    std::string out;
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < gids.size() && i < kShown; ++i)
        out += (i == 0 ? "" : "; ") + gidLine(gids[i]);
    if (gids.size() > kShown)
        out += fmt::format("; {} more", gids.size() - kShown);
    return out;
}

} // namespace

uint32_t roceMtuOf(uint32_t netdev_mtu)
{
    if (netdev_mtu < kRoceHeaderBytes)
        return 0;
    uint32_t room = netdev_mtu - kRoceHeaderBytes;
    for (uint32_t ib : {4096U, 2048U, 1024U, 512U, 256U})
        if (room >= ib)
            return ib;
    return 0;
}

std::optional<uint32_t> referenceMtu(const std::vector<uint32_t>& mtus)
{
    std::map<uint32_t, size_t> count;
    for (auto m : mtus)
        ++count[m];
    std::optional<uint32_t> best;
    size_t best_count = 0;
    for (const auto& [mtu, n] : count) // ascending: a later equal count is a larger MTU
        if (n >= best_count) {
            best = mtu;
            best_count = n;
        }
    return best;
}

ReadyCheck checkGid(const Port& port, const PortReadinessInputs* in)
{
    if (!in || !in->gids_listed)
        return readyCheck("gid", Verdict::Unknown,
                          "the port's GID table (ports/N/gids) was not read");
    if (isInfiniBand(port)) {
        auto gid0 = std::find_if(in->gids.begin(), in->gids.end(),
                                 [](const GidEntry& g) { return g.index == 0; });
        if (gid0 == in->gids.end())
            return readyCheck("gid", Verdict::Failed, "no port GID (gids/0 is all zeros)");
        if (!in->lid)
            return readyCheck("gid", Verdict::Unknown,
                              "port GID " + readiness::gidAddress(gid0->gid) + ", LID not read");
        if (*in->lid == 0)
            return readyCheck("gid", Verdict::Failed,
                              "no LID (the subnet manager has not assigned one)");
        return readyCheck(
            "gid", Verdict::Ok,
            fmt::format("port GID {}, LID 0x{:x}", readiness::gidAddress(gid0->gid), *in->lid));
    }
    for (const auto& g : in->gids)
        if (g.type == "RoCE v2" && readiness::carriesIpAddress(g.gid))
            return readyCheck("gid", Verdict::Ok, gidLine(g));
    return readyCheck("gid", Verdict::Failed,
                      "no RoCE v2 GID with an IP address (" + gidList(in->gids) + ")");
}

ReadyCheck checkMtu(const Port& port, const PortReadinessInputs* in,
                    std::optional<uint32_t> reference, uint32_t min_mtu)
{
    if (isInfiniBand(port)) {
        if (!in || !in->ib_active_mtu)
            return readyCheck("mtu", Verdict::Unknown,
                              "the InfiniBand active MTU is not in sysfs (nicd reads it through "
                              "ibv_query_port on a real node)");
        if (*in->ib_active_mtu < 4096)
            return readyCheck("mtu", Verdict::Failed,
                              fmt::format("active MTU {} (below 4096)", *in->ib_active_mtu));
        return readyCheck("mtu", Verdict::Ok, fmt::format("active MTU {}", *in->ib_active_mtu));
    }
    if (!in || !in->mtu)
        return readyCheck("mtu", Verdict::Unknown,
                          in && !in->mtu_netdev.empty()
                              ? "the MTU of " + in->mtu_netdev + " was not read"
                              : std::string("the port has no netdev"));
    const uint32_t mtu = *in->mtu;
    auto saw = fmt::format("MTU {} on {} (RoCE MTU {})", mtu, in->mtu_netdev, roceMtuOf(mtu));
    if (min_mtu > 0 && mtu < min_mtu)
        return readyCheck("mtu", Verdict::Failed,
                          fmt::format("{}: below [health] MinMtu={} (RoCE MTU {})", saw, min_mtu,
                                      roceMtuOf(min_mtu)));
    if (reference && mtu != *reference)
        return readyCheck("mtu", Verdict::Failed,
                          fmt::format("{}: the other compute ports use MTU {}", saw, *reference));
    return readyCheck("mtu", Verdict::Ok, saw);
}

ReadyCheck checkUverbs(const Device& device, const VerbsDeviceInputs* in)
{
    if (!in)
        return readyCheck("uverbs", Verdict::Unknown,
                          "not read (the tree has no /sys/class/infiniband_verbs)");
    if (!in->listed)
        return readyCheck("uverbs", Verdict::Failed,
                          (device.pci_address.empty()
                               ? std::string("no /sys/class/infiniband_verbs")
                               : "no infiniband_verbs under " + device.pci_address) +
                              " (is ib_uverbs loaded?)");
    if (in->name.empty())
        return readyCheck("uverbs", Verdict::Failed,
                          "no uverbs device names " + device.ibdev + " (is ib_uverbs loaded?)");
    if (!in->dev_node)
        return readyCheck("uverbs", Verdict::Failed,
                          in->name + " in sysfs, but no /dev/infiniband/" + in->name +
                              " (udev did not make it)");
    return readyCheck("uverbs", Verdict::Ok, in->name + " (/dev/infiniband/" + in->name + ")");
}

ReadyCheck checkUmad(const Device& device, const Port& port, const PortReadinessInputs* in,
                     bool node_issm)
{
    if (!isInfiniBand(port))
        return readyCheck("umad", Verdict::Skipped, "not an InfiniBand port (no subnet manager)");
    if (!in || !in->mad)
        return readyCheck("umad", Verdict::Unknown,
                          "not read (the tree has no /sys/class/infiniband_mad)");
    const auto& mad = *in->mad;
    const auto where = fmt::format("{} port {}", device.ibdev, port.num);
    if (!mad.listed)
        return readyCheck("umad", Verdict::Failed,
                          (device.pci_address.empty()
                               ? std::string("no /sys/class/infiniband_mad")
                               : "no infiniband_mad under " + device.pci_address) +
                              " (is ib_umad loaded?)");
    if (mad.umad.empty())
        return readyCheck("umad", Verdict::Failed,
                          "no umad device names " + where + " (is ib_umad loaded?)");
    if (!mad.umad_node)
        return readyCheck("umad", Verdict::Failed,
                          mad.umad + " in sysfs, but no /dev/infiniband/" + mad.umad +
                              " (udev did not make it)");
    const auto umad = mad.umad + " (/dev/infiniband/" + mad.umad + ")";
    if (mad.sm_disabled && mad.issm.empty())
        return readyCheck("umad", Verdict::Ok,
                          umad + "; no issm: the port's cap_mask has IsSMDisabled, a multi-plane "
                                 "port (XDR) whose planes' SMI device has them");
    if (!node_issm)
        return readyCheck("umad", Verdict::Ok,
                          umad + "; no InfiniBand port of this node has an issm node, as on "
                                 "platforms that make none (GB300)");
    if (mad.issm.empty())
        return readyCheck("umad", Verdict::Failed,
                          umad + ", but no issm device names " + where +
                              " while other InfiniBand ports of this node have theirs");
    if (!mad.issm_node)
        return readyCheck("umad", Verdict::Failed,
                          umad + ", but " + mad.issm + " in sysfs has no /dev/infiniband/" +
                              mad.issm + " (udev did not make it)");
    return readyCheck("umad", Verdict::Ok, umad + ", " + mad.issm);
}

bool judgedForReadiness(const Device& d)
{
    return d.role == Role::Compute && d.function != DeviceFunction::VirtualFunction;
}

PortChecks judgeReadiness(const Inventory& inventory, const ReadinessInputs& in, uint32_t min_mtu)
{
    PortChecks out;
    if (!in.read)
        return out;
    auto judged = judgedForReadiness;
    auto active = [](const Port& p) { return p.state == 4; };
    auto inputsOf = [&](const Device& d, const Port& p) -> const PortReadinessInputs* {
        auto it = in.ports.find({d.ibdev, p.num});
        return it == in.ports.end() ? nullptr : &it->second;
    };
    std::vector<uint32_t> mtus; // every judged RoCE port's
    for (const auto& d : inventory.devices)
        if (judged(d))
            for (const auto& p : d.ports)
                if (const auto* pi = inputsOf(d, p); active(p) && !isInfiniBand(p) && pi && pi->mtu)
                    mtus.push_back(*pi->mtu);
    const auto reference = referenceMtu(mtus);
    // Whether the platform makes issm nodes: any InfiniBand port read with its own.
    const bool node_issm = std::any_of(in.ports.begin(), in.ports.end(), [](const auto& kv) {
        const auto& mad = kv.second.mad;
        return mad && !mad->issm.empty() && mad->issm_node;
    });
    const bool gpus = !inventory.gpus.empty();
    const GpuDirectInputs* gpudirect = in.gpudirect ? &*in.gpudirect : nullptr;
    for (const auto& d : inventory.devices) {
        if (!judged(d))
            continue;
        auto v = in.verbs.find(d.ibdev);
        auto pr = in.pairings.find(d.ibdev);
        const auto* pairs = pr == in.pairings.end() ? nullptr : &pr->second;
        for (const auto& p : d.ports) {
            if (!active(p))
                continue;
            const auto* pi = inputsOf(d, p);
            out[{d.ibdev, p.num}] = {
                checkGid(p, pi),
                checkMtu(p, pi, reference, min_mtu),
                checkUverbs(d, v == in.verbs.end() ? nullptr : &v->second),
                checkUmad(d, p, pi, node_issm),
                checkGpuDirect(gpudirect, gpus),
                checkAcs(d, pairs, in.bridges),
                checkNuma(d, pairs),
                checkGpuPath(d, pairs),
            };
        }
    }
    return out;
}

const char* readyCode(const std::string& check)
{
    if (check == "gid")
        return "ready.no_roce_gid";
    if (check == "mtu")
        return "ready.mtu_mismatch";
    if (check == "uverbs")
        return "ready.no_uverbs";
    if (check == "umad")
        return "ready.no_umad";
    if (check == "gpudirect")
        return "ready.no_gpudirect";
    if (check == "acs")
        return "ready.acs_redirect";
    if (check == "numa")
        return "ready.numa_far";
    return "ready.unknown";
}

} // namespace nicd::health
