#include "health/inventory_rules.hpp"

#include "health/boot_grace.hpp"
#include "health/expected_ports.hpp"

#include <set>

namespace nicd::health {

namespace {

Condition nodeCondition(std::string code, ConditionSeverity severity, std::string message,
                        std::string advice, Action action)
{
    Condition c;
    c.code = std::move(code);
    c.severity = severity;
    c.source = ConditionSource::Inventory;
    c.message = std::move(message);
    c.advice = std::move(advice);
    c.action = action;
    return c;
}

} // namespace

bool isInventoryCode(const std::string& code)
{
    return code.starts_with("inventory_short.") || code.starts_with("inventory_slow.");
}

void InventoryRules::evaluate(const Snapshot& snap, const Config& config, double now_mono,
                              double now_real, ConditionSet& conditions, std::vector<Event>& out)
{
    checks_ = expectedPorts(config.health.expect_ports, snap.inventory.gpus);
    countPorts(checks_, snap);
    if (inBootGrace(now_mono))
        return; // the drivers may not have probed every NIC yet (boot_grace.hpp)
    std::set<std::string> raised;
    for (const auto& c : checks_) {
        const std::string role = toString(c.role);
        if (isShort(c)) {
            raised.insert("inventory_short." + role);
            conditions.raise(
                nodeCondition("inventory_short." + role,
                              c.role == Role::Compute ? ConditionSeverity::Fatal
                                                      : ConditionSeverity::Degraded,
                              describe(c),
                              "a port that is down: check its cable (its port_down says which); "
                              "a NIC that is not there: reseat it (device_missing names a NIC "
                              "seen before); after a deliberate change, set ExpectPorts=",
                              Action::ReseatNic),
                now_real, out);
        }
        if (isSlow(c)) {
            raised.insert("inventory_slow." + role);
            conditions.raise(nodeCondition("inventory_slow." + role, ConditionSeverity::Degraded,
                                           describe(c),
                                           "check the cables, transceivers and switch ports of "
                                           "the slow ports (they trained below the rate)",
                                           Action::CheckCable),
                             now_real, out);
        }
    }
    conditions.recoverIf(
        [&](const Condition& c) {
            return c.device.empty() && isInventoryCode(c.code) && !raised.contains(c.code);
        },
        [&](const Condition& c) {
            for (const auto& k : checks_)
                if (c.code.ends_with(std::string(".") + toString(k.role)))
                    return describe(k);
            return std::string("no longer expected");
        },
        now_real, out);
}

} // namespace nicd::health
