#include "model/action.hpp"

namespace nicd {

const char* toString(Action a)
{
    switch (a) {
    case Action::None:
        return "none";
    case Action::CheckCable:
        return "check_cable";
    case Action::ReplaceCableOrTransceiver:
        return "replace_cable_or_transceiver";
    case Action::CheckSwitchPort:
        return "check_switch_port";
    case Action::CheckQosConfig:
        return "check_qos_config";
    case Action::CheckCongestionConfig:
        return "check_congestion_config";
    case Action::CheckCooling:
        return "check_cooling";
    case Action::CheckWorkload:
        return "check_workload";
    case Action::ResetNic:
        return "reset_nic";
    case Action::ReseatNic:
        return "reseat_nic";
    case Action::ReplaceNic:
        return "replace_nic";
    case Action::UpdateFirmware:
        return "update_firmware";
    case Action::RebootNode:
        return "reboot_node";
    case Action::CheckNetworkConfig:
        return "check_network_config";
    case Action::CheckHostConfig:
        return "check_host_config";
    }
    return "none";
}

std::optional<Action> parseAction(std::string_view name)
{
    for (auto a : kAllActions)
        if (name == toString(a))
            return a;
    return std::nullopt;
}

} // namespace nicd
