// Pure comparison of what a switch port advertises about its DCB in LLDP (SwitchDcb, decoded by
// dcbx_tlv.hpp) with the host's RoCE QoS: the places where the two ends disagree in a way that
// costs RoCE (pauses ignored, lossless traffic on a lossy priority, a class starved of bandwidth,
// both ends willing, so that neither decides what DCBX settles on). Each mismatch names the setting
// and both sides in words an SRE reads. Where the switch advertises nothing for a setting there is
// nothing to compare: many switches send no DCBX, or no Application Priority TLV, and that is no
// mismatch.
#pragma once

#include "neighbor/dcbx_tlv.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::neighbor {

// The host's side, as nicd configures it ([provision]).
struct HostQos {
    std::vector<uint8_t> pfc_priorities;  // PFC-enabled priorities, 0-7 (others are ignored)
    uint8_t roce_tos = 106;               // RoCE's ToS; its DSCP is roce_tos >> 2 (106 -> 26)
    bool trust_dscp = true;               // false: the host classifies by PCP
    bool willing = false;                 // the host's DCBX willing bit (nicd sets it off)
    std::optional<uint8_t> roce_priority; // the priority the host sends RoCE on, when known

    uint8_t roceDscp() const { return static_cast<uint8_t>(roce_tos >> 2); }
};

struct QosMismatch {
    // "pfc": the PFC priorities differ; "app_dscp": the switch maps RoCE's DSCP to a priority
    // the host has no PFC on, or to another than the host's RoCE priority; "trust": the switch
    // classifies by DSCP and the host does not; "ets": RoCE's priority is in an ETS class with
    // 0 % of the bandwidth; "willing": both ends willing.
    std::string setting;
    std::string switch_value; // e.g. "3,4"
    std::string host_value;   // e.g. "3"
    std::string message;      // e.g. "leaf-07 swp12 enables PFC on 3,4; this host on 3"

    bool operator==(const QosMismatch&) const = default;
};

// Every mismatch, in the order pfc, app_dscp, trust, ets, willing. `switch_port` names the switch
// and its port as messages say them ("leaf-07 swp12"). The IEEE TLVs are compared where the
// switch sent them; else its CEE DCBX PFC and Priority Group sub-TLVs.
std::vector<QosMismatch> compareSwitchQos(const SwitchDcb& advertised, const HostQos& host,
                                          std::string_view switch_port);

// What the switch advertises for the host's QoS settings, by the setting's name as the plugins
// report it: "pfc" (its PFC priorities, "3,4"), "trust" ("dscp" when its Application Priority
// TLV maps DSCPs), "roce_tos" (where it puts RoCE's DSCP: "DSCP 26 -> 3"), "ets" (RoCE's class
// and share: "priority 3 in TC 3: ETS, 50 %"). A setting the switch says nothing of is absent.
// What `nicctl verify` shows beside the host's values (its SWITCH column).
std::map<std::string, std::string> switchSettingValues(const SwitchDcb& advertised,
                                                       uint8_t roce_dscp);

} // namespace nicd::neighbor
