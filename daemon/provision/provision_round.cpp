#include "provision/provision_round.hpp"

#include "plugins/plugin_manager.hpp"

namespace nicd::provision {

const char* toString(RoundKind kind)
{
    switch (kind) {
    case RoundKind::Verify:
        return "verify";
    case RoundKind::Apply:
        return "apply";
    case RoundKind::DryRun:
        return "dry-run";
    }
    return "unknown";
}

QosCall directQosCall(plugins::PluginManager& plugins)
{
    return [&plugins](const Device& dev, const Port& port, const plugin::v1::QosDesired& desired,
                      plugin::v1::QosReport& out, bool write) {
        return write ? plugins.applyQos(dev, port, desired, out)
                     : plugins.verifyQos(dev, port, desired, out);
    };
}

Round runRound(const QosCall& call, const Inventory& inventory, std::vector<PortPlan> plans,
               RoundKind kind)
{
    Round round;
    round.kind = kind;
    for (auto& plan : plans) {
        PortOutcome out;
        out.plan = std::move(plan);
        const Device* dev = out.plan.managed ? inventory.find(out.plan.device) : nullptr;
        if (dev) {
            out.attempted = true;
            auto desired = out.plan.desired;
            plugin::v1::Status st;
            bool write = kind != RoundKind::Verify && out.plan.mode == ProvisionMode::Enforce;
            if (write) {
                desired.dry_run = desired.dry_run || kind == RoundKind::DryRun;
                out.applied = true;
            }
            st = call(*dev, out.plan.target, desired, out.report, write);
            if (!st)
                out.error = st.message.empty() ? "failed" : st.message;
        }
        round.ports.push_back(std::move(out));
    }
    return round;
}

Round heldRound(std::vector<PortPlan> plans, RoundKind kind, const std::string& why)
{
    Round round;
    round.kind = kind;
    for (auto& plan : plans) {
        PortOutcome out;
        out.plan = std::move(plan);
        if (out.plan.managed) {
            out.attempted = true;
            out.error = why;
        }
        round.ports.push_back(std::move(out));
    }
    return round;
}

} // namespace nicd::provision
