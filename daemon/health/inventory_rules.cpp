#include "health/inventory_rules.hpp"

#include "health/boot_grace.hpp"
#include "health/expected_ports.hpp"
#include "log/log.hpp"

#include <set>
#include <utility>

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

// The action of what makes the node short: ports that are down are cables; a NIC that is not
// there is the card (whoever reseats it checks the down ports' cables too), or, where every NIC
// that is gone left the bus this boot (device_missing, reboot_node), a reboot that re-probes it.
std::pair<std::string, Action> shortCause(const InventoryCheck& c, const ConditionSet& conditions)
{
    const bool gone = missing(c) > c.ignored.size(); // more than IgnoreDevices= hides
    const bool down = !c.not_up.empty();
    constexpr const char* kDeliberate = "; after a deliberate change, set ExpectPorts=";
    if (!gone && !down)
        return {"the ports IgnoreDevices= takes out of sight are the ones missing: set "
                "ExpectPorts= to match, or stop ignoring them",
                Action::CheckHostConfig};
    bool left_bus = false;
    bool not_back = false;
    for (const auto& [key, cond] : conditions.active())
        if (cond.code == "device_missing") {
            left_bus = left_bus || cond.action == Action::RebootNode;
            not_back = not_back || cond.action != Action::RebootNode;
        }
    const bool reboot = gone && left_bus && !not_back;
    // The ports that are down say why themselves (port_down: a cable; port_not_active: the
    // switch or subnet manager): when they agree, theirs is the action.
    std::set<Action> port_actions;
    for (const auto& [ibdev, port] : c.not_up_ports)
        for (const char* code : {"port_down", "port_not_active"})
            if (auto it = conditions.active().find({ibdev, port, code});
                it != conditions.active().end())
                port_actions.insert(it->second.action);
    const Action down_action =
        port_actions.size() == 1 ? *port_actions.begin() : Action::CheckCable;
    const std::string down_advice =
        down_action == Action::CheckCable
            ? "check the cables of the ports that are down (each one's port_down says which)"
        : down_action == Action::CheckSwitchPort
            ? "check the switch ports (or the subnet manager) of the ports that are not active "
              "(each one's port_not_active says which)"
            : "see the ports that are not active (each one's port_not_active says what to do)";
    std::string advice =
        !gone    ? down_advice
        : reboot ? "a NIC left the bus this boot (device_missing): reboot the node to bring it "
                   "back, reseat it if it does not return"
                 : "a NIC is not there: reseat it (device_missing names one seen before)";
    if (gone && down)
        advice += ", and " + down_advice;
    return {advice + kDeliberate, !gone    ? down_action
                                  : reboot ? Action::RebootNode
                                           : Action::ReseatNic};
}

} // namespace

bool isInventoryCode(const std::string& code)
{
    return code.starts_with("inventory_short.") || code.starts_with("inventory_slow.");
}

void InventoryRules::evaluate(const Snapshot& snap, double now_mono, double now_real,
                              ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    if (expected_gpus_ != snap.inventory.gpus) {
        expected_ = expectedPorts(config.health.expect_ports, snap.inventory.gpus);
        expected_gpus_ = snap.inventory.gpus;
    }
    checks_ = expected_;
    countPorts(checks_, snap);
    // A GPU auto expects nothing of is said once, and again when the GPUs change.
    if (config.health.expect_ports.mode == ExpectMode::Auto) {
        if (auto unplaced = unplacedGpus(snap.inventory.gpus); unplaced != unplaced_) {
            if (!unplaced.empty())
                log::info({},
                          "ExpectPorts=auto expects no compute port of {}; set ExpectPorts= "
                          "to check this node's",
                          unplaced);
            unplaced_ = std::move(unplaced);
        }
    }
    if (inBootGrace(now_mono))
        return; // the drivers may not have probed every NIC yet (boot_grace.hpp)
    std::set<std::string> raised;
    for (const auto& c : checks_) {
        const std::string role = toString(c.role);
        if (isShort(c)) {
            raised.insert("inventory_short." + role);
            const auto [advice, action] = shortCause(c, conditions);
            conditions.raise(nodeCondition("inventory_short." + role,
                                           c.role == Role::Compute ? ConditionSeverity::Fatal
                                                                   : ConditionSeverity::Degraded,
                                           describe(c), advice, action),
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
