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

// "auto: 8 × NVIDIA H100 SXM5 80GB" (models in the order of their first GPU).
std::vector<InventoryCheck> autoExpectation(const std::vector<GpuFunction>& gpus)
{
    std::vector<std::pair<const GpuProfile*, uint32_t>> found; // profile, GPUs of it
    for (const auto& g : gpus) {
        const auto* p = g.virtual_function ? nullptr : gpuProfile(g.device_id);
        if (!p)
            continue;
        auto it = std::find_if(found.begin(), found.end(),
                               [&](const auto& f) { return f.first->name == p->name; });
        if (it == found.end())
            found.emplace_back(p, 1);
        else
            ++it->second;
    }
    if (found.empty())
        return {};
    InventoryCheck c;
    c.role = Role::Compute;
    uint32_t per_gpu = 0;
    uint32_t per_node = 0;
    uint32_t gbps = UINT32_MAX;
    std::string models;
    for (const auto& [p, n] : found) {
        per_gpu += p->per_gpu * n;
        per_node = std::max(per_node, p->per_node);
        gbps = std::min(gbps, p->min_gbps);
        models += fmt::format("{}{} × {}", models.empty() ? "" : ", ", n, p->name);
    }
    c.expected = std::max(per_gpu, per_node);
    c.min_gbps = gbps;
    c.why = "auto: " + models;
    return {c};
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
        c.not_up.clear();
        c.slow.clear();
        c.no_device = snap.inventory.devices.empty();
        c.ignored.clear();
        for (const auto& ig : snap.inventory.ignored)
            c.ignored.push_back(ig.ibdev);
        for (const auto& d : snap.inventory.devices) {
            if (d.role != c.role || d.function == DeviceFunction::VirtualFunction)
                continue;
            for (const auto& p : d.ports) {
                auto where = fmt::format("{}/{}", d.ibdev, p.num);
                if (auto why = notUp(snap, p); !why.empty()) {
                    c.not_up.push_back(where + " " + why);
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
    out += " (" + c.why + "), ";
    if (c.no_device && c.ignored.empty())
        return out + "found no RDMA device";
    out += fmt::format("found {} up", c.up);
    if (c.up == 0 && c.not_up.empty() && c.ignored.empty())
        return out + fmt::format(" (no {} device)", toString(c.role));
    if (!c.slow.empty())
        out += fmt::format(", {} at that rate", c.at_rate);
    std::vector<std::string> why;
    if (isShort(c)) {
        why = c.not_up;
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
