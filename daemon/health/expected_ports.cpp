#include "health/expected_ports.hpp"

#include "inventory/gpu_profiles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace nicd::health {

namespace {

constexpr size_t kNamedAtMost = 4; // ports named in a sentence; the rest are counted

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// "8 × NVIDIA H100 SXM5 80GB, 2 × NVIDIA A100 SXM4 80GB" of the GPUs with a profile, in the
// order of their first GPU; counts the GPUs of each shape and the lowest rate of each.
struct Found {
    std::string models;
    uint32_t per_gpu = 0;      // GPUs of a PerGpu profile
    uint32_t at_least_one = 0; // GPUs of an AtLeastOne profile
    uint32_t per_gpu_gbps = UINT32_MAX;
    uint32_t at_least_one_gbps = UINT32_MAX;
};

Found profiled(const std::vector<GpuFunction>& gpus)
{
    std::vector<std::pair<const inventory::GpuProfile*, uint32_t>> found; // profile, GPUs of it
    Found f;
    for (const auto& g : gpus) {
        const auto* p = g.virtual_function ? nullptr : inventory::gpuProfile(g.device_id);
        if (!p)
            continue;
        auto it = std::find_if(found.begin(), found.end(),
                               [&](const auto& x) { return x.first->name == p->name; });
        if (it == found.end())
            found.emplace_back(p, 1);
        else
            ++it->second;
        if (p->shape == inventory::GpuShape::PerGpu) {
            ++f.per_gpu;
            f.per_gpu_gbps = std::min(f.per_gpu_gbps, p->gbps);
        } else {
            ++f.at_least_one;
            f.at_least_one_gbps = std::min(f.at_least_one_gbps, p->gbps);
        }
    }
    for (const auto& [p, n] : found)
        f.models += fmt::format("{}{} × {}", f.models.empty() ? "" : ", ", n, p->name);
    return f;
}

// What the GPUs allow: with GPUs of an HGX-class profile, the HGX designs for them (a port per
// two GPUs, per GPU, two per GPU at half the rate); otherwise at least one port.
std::vector<InventoryCheck> autoExpectation(const std::vector<GpuFunction>& gpus)
{
    auto f = profiled(gpus);
    if (f.per_gpu == 0 && f.at_least_one == 0)
        return {};
    InventoryCheck c;
    c.role = Role::Compute;
    c.why = "auto: " + f.models;
    if (f.per_gpu > 0) {
        const double gbps = f.per_gpu_gbps;
        if (f.per_gpu > 1)
            c.designs.push_back({(f.per_gpu + 1) / 2, gbps, "a port per two GPUs"});
        c.designs.push_back({f.per_gpu, gbps, "a port per GPU"});
        c.designs.push_back({2 * f.per_gpu, gbps / 2, "two ports per GPU"});
    } else {
        c.designs.push_back({1, static_cast<double>(f.at_least_one_gbps), "at least one port"});
    }
    c.expected = c.designs.front().ports;
    c.min_gbps = c.designs.front().gbps;
    return {c};
}

// The design `c` is judged against on a node with c.present ports of its role: the first with
// at least as many ports, or the one with most.
void chooseDesign(InventoryCheck& c)
{
    if (c.designs.empty())
        return;
    size_t i = 0;
    while (i + 1 < c.designs.size() && c.designs[i].ports < c.present)
        ++i;
    c.expected = c.designs[i].ports;
    c.min_gbps = c.designs[i].gbps;
    c.design = c.designs[i].name;
}

// Why the port is not up ("" when it is).
std::string notUp(const Snapshot& snap, const Port& p)
{
    if (!p.active())
        return p.state_name.empty() ? "state unreadable" : "is " + lower(p.state_name);
    // An InfiniBand port is up when the port is: its IPoIB interface is often left down on
    // purpose (NCCL does not use it). A RoCE port needs its own netdev up, the first of its list;
    // a VLAN or macvlan on it that is down is someone's choice, not a missing port.
    if (p.link_layer == "InfiniBand" || p.netdevs.empty())
        return {};
    const auto& n = p.netdevs.front();
    if (auto it = snap.netdevs.find(n); it != snap.netdevs.end() && it->second.operstate != "up")
        return fmt::format("{} is {}", n, it->second.operstate);
    return {};
}

// "a, b, c, d and 3 more".
std::string named(const std::vector<std::string>& items)
{
    std::string out;
    for (size_t i = 0; i < items.size() && i < kNamedAtMost; ++i)
        out += (i == 0 ? "" : ", ") + items[i];
    if (items.size() > kNamedAtMost)
        out += fmt::format(" and {} more", items.size() - kNamedAtMost);
    return out;
}

} // namespace

std::string unplacedGpus(const std::vector<GpuFunction>& gpus)
{
    std::map<std::string, uint32_t> unknown; // device ID -> GPUs
    for (const auto& g : gpus)
        if (!g.virtual_function && !inventory::gpuProfile(g.device_id))
            ++unknown[g.device_id];
    std::string out;
    for (const auto& [id, n] : unknown)
        out += fmt::format("{}{} × GPU {}", out.empty() ? "" : ", ", n, id);
    if (!out.empty())
        out += " (no profile: a PCIe card's server carries a NIC per GPU, one per two, or none "
               "but the front end)";
    return out;
}

std::vector<InventoryCheck> expectedPorts(const ExpectPorts& setting,
                                          const std::vector<GpuFunction>& gpus)
{
    switch (setting.mode) {
    case ExpectMode::None:
        return {};
    case ExpectMode::Auto:
        return autoExpectation(gpus);
    case ExpectMode::Listed:
        break;
    }
    std::vector<InventoryCheck> out;
    for (const auto& e : setting.listed) {
        InventoryCheck c;
        c.role = e.role;
        c.expected = e.count;
        c.min_gbps = e.min_gbps;
        c.why = e.min_gbps > 0
                    ? fmt::format("ExpectPorts={}:{}@{:g}", toString(e.role), e.count, e.min_gbps)
                    : fmt::format("ExpectPorts={}:{}", toString(e.role), e.count);
        out.push_back(std::move(c));
    }
    return out;
}

void countPorts(std::vector<InventoryCheck>& checks, const Snapshot& snap)
{
    for (auto& c : checks) {
        c.up = c.at_rate = 0;
        c.present = 0;
        c.not_up.clear();
        c.not_up_ports.clear();
        c.slow.clear();
        c.no_device = snap.inventory.devices.empty();
        c.ignored.clear();
        for (const auto& ig : snap.inventory.ignored)
            c.ignored.push_back(ig.ibdev);
        for (const auto& d : snap.inventory.devices)
            if (d.role == c.role && d.function != DeviceFunction::VirtualFunction)
                c.present += static_cast<uint32_t>(d.ports.size());
        chooseDesign(c);
        for (const auto& d : snap.inventory.devices) {
            if (d.role != c.role || d.function == DeviceFunction::VirtualFunction)
                continue;
            for (const auto& p : d.ports) {
                auto where = fmt::format("{}/{}", d.ibdev, p.num);
                if (auto why = notUp(snap, p); !why.empty()) {
                    c.not_up.push_back(where + " " + why);
                    c.not_up_ports.emplace_back(d.ibdev, p.num);
                    continue;
                }
                ++c.up;
                if (c.min_gbps > 0 && p.rate_gbps && *p.rate_gbps < c.min_gbps)
                    c.slow.push_back(fmt::format("{} at {:g} Gb/s", where, *p.rate_gbps));
                else
                    ++c.at_rate;
            }
        }
    }
}

std::string describe(const InventoryCheck& c)
{
    auto out = fmt::format("expected {} {} port{}", c.expected, toString(c.role),
                           c.expected == 1 ? "" : "s");
    if (c.min_gbps > 0)
        out += fmt::format(" at ≥ {:g} Gb/s", c.min_gbps);
    out += " (" + c.why + (c.design.empty() ? "" : ", " + c.design) + "), ";
    if (c.no_device && c.ignored.empty())
        return out + "found no RDMA device";
    out += fmt::format("found {} up", c.up);
    if (c.up == 0 && c.not_up.empty() && c.ignored.empty())
        return out + fmt::format(" (no {} device)", toString(c.role));
    if (!c.slow.empty())
        out += fmt::format(", {} at that rate", c.at_rate);
    std::vector<std::string> why;
    if (isShort(c)) {
        if (const auto gone = missing(c); gone > 0 && c.present > 0)
            why.push_back(fmt::format("{} not there", gone));
        why.insert(why.end(), c.not_up.begin(), c.not_up.end());
        for (const auto& name : c.ignored)
            why.push_back(name + " is ignored (IgnoreDevices=)");
    }
    if (isSlow(c))
        why.insert(why.end(), c.slow.begin(), c.slow.end());
    if (!why.empty())
        out += " (" + named(why) + ")";
    return out;
}

} // namespace nicd::health
