// One provisioning round over the planned ports, through the plugins (worker thread): verify
// only, apply (compare, write what differs, read back) or a dry run (say what would change).
// Ports in Mode=verify are only verified, whatever the round.
#pragma once

#include "provision/port_selection.hpp"

#include <nicd/plugin/plugin.h>

#include <functional>
#include <string>
#include <vector>

namespace nicd::plugins {
class PluginManager;
}

namespace nicd::provision {

enum class RoundKind : uint8_t { Verify, Apply, DryRun };
const char* toString(RoundKind kind);

struct PortOutcome {
    PortPlan plan;
    bool attempted = false;       // managed, and the plugin was asked
    bool applied = false;         // applyQos was called (not only verifyQos)
    plugin::v1::QosReport report; // per setting, as read back
    std::string error;            // the plugin's status when it failed as a whole
};

struct Round {
    RoundKind kind = RoundKind::Verify;
    std::vector<PortOutcome> ports;
};

// Asks the plugin of `dev` to verify (`write` false) or apply `desired` on `port`.
using QosCall = std::function<plugin::v1::Status(const Device& dev, const Port& port,
                                                 const plugin::v1::QosDesired& desired,
                                                 plugin::v1::QosReport& out, bool write)>;

// The plugin manager called directly (nicd --once: nothing else runs meanwhile).
QosCall directQosCall(plugins::PluginManager& plugins);

Round runRound(const QosCall& call, const Inventory& inventory, std::vector<PortPlan> plans,
               RoundKind kind);

// A round that could not ask the plugins (a call is still out past its deadline): every managed
// port gets `why` as its error, nothing is read or written.
Round heldRound(std::vector<PortPlan> plans, RoundKind kind, const std::string& why);

} // namespace nicd::provision
