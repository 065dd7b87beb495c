// What to do about a condition, as a machine reads it: one value of a fixed set, in snake_case,
// on every condition (the textfile's `action` label, the bus's condition and event rows, nicctl).
// The set is a contract: adding a value is fine, renaming or removing one breaks every fleet
// that routes on it. docs/conditions.md lists each condition code with its action.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nicd {

enum class Action : uint8_t {
    None,                      // informational: nothing to do
    CheckCable,                // reseat/inspect the cable and its connectors
    ReplaceCableOrTransceiver, // the physical link is degrading: swap cable or optic
    CheckSwitchPort,           // the link partner (switch port, subnet manager) is at fault
    CheckQosConfig,            // PFC/trust/buffers on NIC or switch do not hold
    CheckCongestionConfig,     // ECN/DCQCN or PFC storms: the fabric's congestion control
    CheckCooling,              // airflow, fans, temperature
    CheckWorkload,             // the host side (a stuck consumer, CPU, NUMA) drops or stalls
    ResetNic,                  // a function-level or firmware reset (mlxfwreset, devlink reload)
    ReseatNic,                 // physical: the card, its slot or riser
    ReplaceNic,                // the NIC itself is failing
    UpdateFirmware,            // firmware/driver mismatch or a failed load
    RebootNode,                // the kernel or driver state is beyond a NIC reset
    CheckNetworkConfig,        // the host's addressing or MTU (IP address, GID, MTU)
    CheckHostConfig,           // the host's software or firmware setup (modules, BIOS, PCIe)
};

inline constexpr std::array kAllActions{
    Action::None,
    Action::CheckCable,
    Action::ReplaceCableOrTransceiver,
    Action::CheckSwitchPort,
    Action::CheckQosConfig,
    Action::CheckCongestionConfig,
    Action::CheckCooling,
    Action::CheckWorkload,
    Action::ResetNic,
    Action::ReseatNic,
    Action::ReplaceNic,
    Action::UpdateFirmware,
    Action::RebootNode,
    Action::CheckNetworkConfig,
    Action::CheckHostConfig,
};

const char* toString(Action a);
// The action named `name` (exactly as toString writes it), or nullopt.
std::optional<Action> parseAction(std::string_view name);

} // namespace nicd
