// What nicd remembers of a device's hardware, by PCI address, across boots (issue 28: inventory
// across boots): the board (its PSID, board_id), the firmware, the card's node GUID, the role it
// had and its ports' rates, and the name it last had. KnownDevices (device_identity.hpp) keeps one
// per device that has a PCI address of its own (not a VF); a NIC of the last boot that is absent
// in this one is device_missing, and a firmware or board that differs when the device is seen
// again is an event (firmware_changed, board_changed).
//
// No serial number: the kernel shows none under /sys/class/infiniband, and the PCI VPD that holds
// one is a binary format read through config cycles (slow on some devices, root's alone). The node
// GUID is burned into each card by its maker: another GUID on the same address is another card.
// Pure.
#pragma once

#include "model/inventory.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nicd::health {

struct DeviceHardware {
    std::string name;      // the name it last had
    std::string board_id;  // "MT_0000000838"
    std::string fw_ver;    // "28.41.1000"
    std::string node_guid; // "b83f:d203:005a:1a00"
    std::optional<Role> role;
    std::map<uint32_t, double> port_gbps; // by port number, where the rate was read
    bool operator==(const DeviceHardware&) const = default;
};

// The hardware of `d` as read this cycle.
DeviceHardware hardwareOf(const Device& d);
// Whether `d` shows exactly `h` (no copy made: called per device per cycle).
bool sameHardware(const Device& d, const DeviceHardware& h);

// A known device's firmware or board that differs from what was remembered: an event.
struct HardwareChange {
    std::string device; // its name now
    std::string pci_address;
    std::string code; // firmware_changed, board_changed
    std::string message;
    bool operator==(const HardwareChange&) const = default;
};
// What changed from `before` to `now` on `pci_address` (a value empty on either side, unread,
// is no change). `across_boot`: the device was last seen at an earlier boot.
std::vector<HardwareChange> hardwareChanges(const std::string& pci_address,
                                            const DeviceHardware& before, const DeviceHardware& now,
                                            bool across_boot);

// "board MT_0000000838, firmware 28.41.1000, 1 port at 400 Gb/s" (what is known of it).
std::string describeHardware(const DeviceHardware& h);

// The fields of `h` added to a known device's JSON object `j`; hardwareFromJson reads them back
// (each optional: a state file of an earlier nicd has none). Throws nlohmann::json::exception
// (or std::runtime_error) on a malformed field.
void addHardwareJson(nlohmann::json& j, const DeviceHardware& h);
DeviceHardware hardwareFromJson(const nlohmann::json& j);

} // namespace nicd::health
