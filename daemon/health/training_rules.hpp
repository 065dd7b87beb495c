// Links and firmware that came up below what they should be, after a reseat, a riser swap or a
// partial update:
//   pcie_link_degraded (degraded, reseat_nic): the NIC's PCIe link trained below the lower of
//     what the NIC and the port above it can do, in speed or width (PcieTraining=).
//   pcie_path_degraded (degraded, reseat_nic): a link above the NIC's own, between a PCIe
//     switch and the port above it, trained below what both ends can do, naming the hop
//     (PcieTraining=).
//   port_rate_degraded (degraded, check_cable): an active port slower than the fastest active
//     port of its peers — same board_id, function and link layer (PortRatePeers=).
//   plane_rate_degraded (degraded, check_cable): a plane of a multi-plane port (ConnectX-8, an
//     SMI sub-device's port) slower than the fastest plane of the same port (PortRatePeers=).
//   firmware_drift (degraded, update_firmware): a device whose fw_ver differs from what most of
//     its peers of the same board_id run (a tie goes to the newest) (FirmwarePeers=).
//   firmware_below_baseline (degraded, update_firmware): a device whose fw_ver misses its board's
//     baseline ([health] FirmwareMin=, FirmwareAllowed=; firmware_baseline.hpp), whatever
//     [signals] says. Drift compares a card with its peers on the node, the baseline with what
//     the fleet asks: a node whose every card missed a rollout shows no drift, only this; a card
//     left behind on an otherwise updated node may raise both (two findings, one action).
#pragma once

#include "health/rule_family.hpp"

#include <string>
#include <string_view>

namespace nicd::health {

// "28.39.1002" < "28.40.1000": dotted numbers compared part by part.
bool olderFirmware(std::string_view a, std::string_view b);

class TrainingRules : public StatelessRuleFamily {
public:
    const char* name() const override { return "training"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
};

} // namespace nicd::health
