#include "provision/port_selection.hpp"

#include "inventory/nic_roles.hpp"

#include <fnmatch.h>

#include <optional>

namespace nicd::provision {

namespace {

constexpr int kIbPortActive = 4;

std::optional<std::string> firstMatch(const std::vector<std::string>& globs,
                                      const std::string& name)
{
    for (const auto& g : globs)
        if (fnmatch(g.c_str(), name.c_str(), 0) == 0)
            return g;
    return std::nullopt;
}

// Empty: provision it. Otherwise why not.
std::string skipReason(const SelectionInput& in, const Device& d, const Port& p,
                       const std::vector<std::string>& targets)
{
    const auto& cfg = in.config.provision;
    if (d.plugin.empty())
        return "no plugin manages this device";
    if (auto g = firstMatch(cfg.exclude_devices, d.ibdev))
        return "excluded by ExcludeDevices=" + *g;
    if (in.config.provisionFor(d.ibdev).mode == ProvisionMode::Off)
        return "Mode=off";
    if (d.function == DeviceFunction::VirtualFunction)
        return "virtual function (QoS belongs to its PF)";
    if (p.link_layer == "InfiniBand")
        return "InfiniBand port (DSCP trust, PFC, ECN and RoCE ToS do not apply)";
    if (p.link_layer != "Ethernet")
        return "link layer unknown";
    if (d.function == DeviceFunction::Lag && cfg.bonds == BondPolicy::Skip)
        return "RoCE LAG device (Bonds=skip)";
    if (d.function == DeviceFunction::BondMember && cfg.bonds == BondPolicy::Skip)
        return "member of bond " + d.bond_master + " (Bonds=skip)";
    if (targets.empty())
        return d.function == DeviceFunction::Lag
                   ? "the members of bond " + d.bond_master + " are unknown"
                   : "no netdev";
    for (const auto& n : targets) {
        if (auto g = firstMatch(cfg.exclude_netdevs, n))
            return "netdev " + n + " excluded by ExcludeNetdevs=" + *g;
        if (inventory::isManagementNetdev(n, in.default_route_netdevs, in.config))
            return "netdev " + n +
                   " carries the default route (a management NIC); name it in IncludeNetdevs= "
                   "to provision it";
    }
    if (p.state != kIbPortActive)
        return "waiting: link is " + (p.state_name.empty() ? "not up" : p.state_name) +
               "; provisioned when it comes up";
    for (const auto& n : targets) {
        auto it = in.netdevs.find(n);
        if (it != in.netdevs.end() && it->second.operstate != "up" &&
            it->second.operstate != "unknown")
            return "waiting: netdev " + n + " is " + it->second.operstate +
                   "; provisioned when it comes up";
    }
    return {};
}

} // namespace

plugin::v1::QosDesired desiredFor(const Config& config, const std::string& ibdev)
{
    auto s = config.provisionFor(ibdev);
    plugin::v1::QosDesired q;
    q.trust_dscp = s.trust == TrustMode::Dscp;
    q.pfc_priorities = s.pfc_priorities;
    q.roce_tos = s.roce_tos;
    q.dry_run = config.provision.dry_run;
    q.ecn = s.ecn;
    q.cnp_dscp = s.cnp_dscp;
    q.cnp_priority = s.cnp_priority;
    return q;
}

std::vector<PortPlan> planPorts(const SelectionInput& in)
{
    std::vector<PortPlan> plans;
    for (const auto& d : in.inventory.devices) {
        for (const auto& p : d.ports) {
            PortPlan plan;
            plan.device = d.ibdev;
            plan.port = p.num;
            plan.mode = in.config.provisionFor(d.ibdev).mode;
            plan.desired = desiredFor(in.config, d.ibdev);
            plan.target = p;
            if (d.function == DeviceFunction::Lag) {
                auto it = in.bond_slaves.find(d.bond_master);
                plan.target.netdevs =
                    it == in.bond_slaves.end() ? std::vector<std::string>{} : it->second;
            }
            plan.reason = skipReason(in, d, p, plan.target.netdevs);
            plan.managed = plan.reason.empty();
            plans.push_back(std::move(plan));
        }
    }
    return plans;
}

} // namespace nicd::provision
