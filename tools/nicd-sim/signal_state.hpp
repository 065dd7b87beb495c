// The simulated node's pre-failure signals, in what the real tools print (DESIGN.md, "simulated
// sources"), so a capture from a real node replays the same way:
//   DIR/run/nicd-sim/ethtool-fec/<netdev>   `ethtool --json -I --show-fec <netdev>`; RS FEC,
//                                           corrected_bits following the netdev's
//                                           rx_corrected_bits_phy (the same PPCNT register)
//   DIR/run/nicd-sim/module/<netdev>        the module EEPROM's bytes (module_image.hpp)
//   DIR/run/nicd-sim/devlink-health.json    `devlink -j health show`: fw, fw_fatal, vnic per
//                                           function, tx and rx on its uplink port (65535)
// and, in the sysfs tree itself, hwmon temp1 "asic" of each PF (tree_builder.hpp) and the PCIe
// link files of every function and root port. Only cards on a recent kernel have them: a card
// without hwmon (the uncabled one of the default node) has no signal at all, as on an old kernel.
#pragma once

#include "node_state.hpp"

#include <string>
#include <vector>

namespace nicd::sim {

fs::path fecCaptureFile(const fs::path& root, const std::string& netdev);
fs::path moduleCaptureFile(const fs::path& root, const std::string& netdev);
fs::path devlinkHealthFile(const fs::path& root);

// The netdevs with a module and (Ethernet only) FEC statistics; empty for a card without
// signals (no hwmon) and for VFs.
std::vector<std::string> moduleNetdevs(const fs::path& root, const SimDevice& d);
std::vector<std::string> fecNetdevs(const fs::path& root, const SimDevice& d);

// The module a netdev of the default node carries: "cmis" (a 400G QSFP112 optic), "qsfp28" (a
// 100G SFF-8636 optic) or "copper" (a passive DAC, no diagnostics).
std::string defaultModuleKind(const std::string& role, const std::string& netdev);
// Writes the module's EEPROM capture; `rx_low`: lane 1 receives between its low alarm and its
// low warning.
void writeModule(const fs::path& root, const std::string& netdev, const std::string& kind,
                 bool rx_low = false);

void createSignalState(const fs::path& root, const NodeState& st);
// After a tick: each FEC capture's corrected bits and blocks follow rx_corrected_bits_phy.
void refreshFecCaptures(const fs::path& root, const NodeState& st);

} // namespace nicd::sim
