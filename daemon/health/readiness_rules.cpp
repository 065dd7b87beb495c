#include "health/readiness_rules.hpp"

#include "health/boot_grace.hpp"
#include "health/verdicts.hpp"

#include <set>

namespace nicd::health {

namespace {

struct Rule {
    const char* check;
    ConditionSeverity severity;
    Action action;
    const char* advice;
    const char* recovered;
};

// Why each is as severe as it is: docs/conditions.md, "Readiness of compute ports".
constexpr Rule kRules[] = {
    {"gid", ConditionSeverity::Fatal, Action::CheckNetworkConfig,
     "give the port's netdev its IP address (NCCL uses the RoCE v2 GID of one); on InfiniBand, "
     "check the subnet manager",
     "the port has a usable GID again"},
    {"mtu", ConditionSeverity::Degraded, Action::CheckNetworkConfig,
     "set the same MTU, large enough for a 4096-byte RoCE MTU, on every compute netdev (and "
     "their switch ports)",
     "the MTU matches again"},
    {"uverbs", ConditionSeverity::Fatal, Action::CheckHostConfig,
     "load ib_uverbs and let udev make /dev/infiniband/uverbs* (rdma-core's rules)",
     "the verbs device is back"},
    {"umad", ConditionSeverity::Degraded, Action::CheckHostConfig,
     "load ib_umad (rdma-core loads it for InfiniBand devices) and let udev make "
     "/dev/infiniband/umad* and issm*: the fabric tools (perfquery, ibdiagnet), a subnet manager "
     "and pods given these nodes need them",
     "the port's umad and issm devices are back"},
    {"gpudirect", ConditionSeverity::Degraded, Action::CheckHostConfig,
     "load nvidia_peermem, or use the NVIDIA open kernel modules (515 or later) on Linux 5.12 or "
     "later for dma-buf",
     "GPUDirect RDMA is possible again"},
    {"acs", ConditionSeverity::Degraded, Action::CheckHostConfig,
     "turn ACS redirect off on the PCIe switch (BIOS setting, or setpci at boot) or keep the "
     "IOMMU from enabling it",
     "no ACS redirect between the NIC and its GPUs"},
    {"numa", ConditionSeverity::Degraded, Action::CheckHostConfig,
     "move the NIC (or its role) to a slot on its GPUs' socket, or correct the BIOS's NUMA "
     "description",
     "the NIC shares a NUMA node with a GPU it serves"},
};

const Rule* ruleOf(const std::string& check)
{
    for (const auto& r : kRules)
        if (check == r.check)
            return &r;
    return nullptr;
}

const Rule* ruleOfCode(const std::string& code)
{
    for (const auto& r : kRules)
        if (code == readyCode(r.check))
            return &r;
    return nullptr;
}

} // namespace

void ReadinessRules::evaluate(const Snapshot& snap, double now_mono, double now_real,
                              ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    last_ = judgeReadiness(snap.inventory, snap.readiness, config.health.min_mtu);
    // A failed check raises its code on the port; a passed one recovers it. An unknown one does
    // neither: what was said stands until the check can tell again. In the first minutes after
    // boot (boot_grace.hpp) a failure raises nothing yet: the port's address may come from DHCP
    // after link-up, udev may not have made the uverbs node, nvidia_peermem may load later.
    const bool booting = inBootGrace(now_mono);
    std::set<ConditionKey> passed;
    for (const auto& [key, checks] : last_) {
        const auto& [device, port] = key;
        for (const auto& c : checks) {
            const auto* rule = ruleOf(c.check);
            if (!rule || c.verdict == ReadyCheck::Verdict::Unknown)
                continue;
            if (c.verdict != ReadyCheck::Verdict::Failed) {
                passed.insert({device, port, readyCode(c.check)});
                continue;
            }
            if (booting)
                continue;
            auto cond = signalCondition(readyCode(c.check), rule->severity, device, port, c.saw,
                                        rule->advice, rule->action);
            cond.source = ConditionSource::Readiness;
            conditions.raise(std::move(cond), now_real, out);
        }
    }
    conditions.recoverIf(
        [&](const Condition& c) { return passed.contains(keyOf(c)); },
        [](const Condition& c) { return std::string(ruleOfCode(c.code)->recovered); }, now_real,
        out);
    // A port no longer judged (no longer active: disabled, uncabled) keeps nothing: port_down
    // and the link rules say what it is now.
    conditions.recoverIf(
        [&](const Condition& c) {
            const auto* d = snap.inventory.find(c.device);
            return ruleOfCode(c.code) && d && judgedForReadiness(*d) &&
                   !last_.contains({c.device, c.port});
        },
        [](const Condition&) { return std::string("the port is no longer active"); }, now_real,
        out);
    // A device that is no longer judged (its role changed with a reload) keeps nothing.
    conditions.recoverIf(
        [&](const Condition& c) {
            const auto* d = snap.inventory.find(c.device);
            return ruleOfCode(c.code) && d && !judgedForReadiness(*d);
        },
        [](const Condition&) { return std::string("no longer a compute port"); }, now_real, out);
}

void ReadinessRules::rename(const std::string& from, const std::string& to)
{
    PortChecks moved;
    for (auto& [key, checks] : last_)
        moved[{key.first == from ? to : key.first, key.second}] = std::move(checks);
    last_ = std::move(moved);
}

} // namespace nicd::health
