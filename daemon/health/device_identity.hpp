// A device is its hardware, not its name: the PCI address of its function (DESIGN.md §7, "devices
// are identified by PCI address (+ port), names are labels"). udev's rdma_rename (rdma-core's
// persistent naming: mlx5_0 -> rocep26s0f0) renames a device under a running nicd, or between two
// of its runs; the name stays the label everything shows, but what nicd knows of the device
// (conditions, counter baselines, port history, kernel hits, windows) follows the hardware.
//
// KnownDevices is the hardware seen this boot (persisted with the link rules): each device's PCI
// address and last name. findRenames() compares it with a new inventory and says which names
// moved; the health engine moves every holder's state along them (HealthEngine::followRenames),
// then the link rules raise device_missing for hardware that is gone. A device without a PCI
// address (software RDMA: rxe, siw) keeps its identity by name, and so do devices that share one
// address (nothing tells them apart).
//
// Across boots (issue 28) the list is kept with each device's hardware (device_hardware.hpp):
// a new boot starts from the last boot's devices, marked `earlier_boot` until they are seen in
// this one (fromEarlierBoot), so a NIC that did not come back is missing. Only an operator
// forgets one (forgetMissing: nicctl forget, accept-inventory).
//
// A RoCE LAG (issue 38) takes over its PFs: when the bond forms, their RDMA devices go and one
// LAG device (mlx5_bond_0) comes, on the first PF's address. The PCI functions of the LAG
// device's bond slaves (lagFunctions) count as present, within a boot and across boots: a PF
// seen before the bond formed is remembered, never missing while the LAG holds it.
#pragma once

#include "health/device_hardware.hpp"
#include "model/inventory.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

struct KnownDevice {
    std::string pci_address;   // empty: known by name only (no PCI function, or a state file of
                               // a nicd that kept names only, until the name is seen again)
    std::string name;          // the last name it had
    bool vf = false;           // VFs come and go with SR-IOV: followed, never missing
    bool earlier_boot = false; // seen at an earlier boot, not yet in this one
    bool operator==(const KnownDevice&) const = default;
};

// The PCI functions the RoCE LAG devices of `inv` hold (Device::bond_functions of each
// DeviceFunction::Lag device). Pure.
std::set<std::string> lagFunctions(const Inventory& inv);

struct DeviceRename {
    std::string from;
    std::string to;
    std::string pci_address;
    // The hardware is gone and another device now has its name: what was known of it moves to
    // its PCI address as the label (`to`), so that the device with the name starts clean.
    bool gone = false;
    bool operator==(const DeviceRename&) const = default;
};

// Pure. The names of `known` that now belong to other hardware: a known PCI address that the one
// device of `now` on it has under another name is a rename; a known address no device of `now`
// has, whose name a device of `now` has, is a device gone whose name was reused (`gone`: not for
// VFs, which are forgotten). Sorted by PCI address; each `from` and each `to` appears once.
std::vector<DeviceRename> findRenames(const std::vector<KnownDevice>& known, const Inventory& now);

class KnownDevices {
public:
    const std::vector<KnownDevice>& devices() const { return devices_; }
    // findRenames() of what is known and `now`.
    std::vector<DeviceRename> renames(const Inventory& now) const;
    // The device known as `from` is now called `to`.
    void rename(const std::string& from, const std::string& to);
    // The known devices (not VFs) whose hardware `inv` does not have: no device on their PCI
    // address, or none of their name when known by name only.
    std::vector<KnownDevice> missing(const Inventory& inv) const;
    // Forgets the devices IgnoreDevices= names (by PCI address, or by name when known so):
    // ignoring is not removal, so they are never missing.
    void forget(const std::vector<IgnoredDevice>& ignored);
    // Takes in every device of `inv` under its current name, by its PCI address when it has one
    // of its own (so also one known by name only until now), with its hardware; keeps the
    // missing ones; forgets VFs that are gone. Call after the renames of `inv` were followed.
    // Returns what changed in the hardware of devices seen before (firmware, board).
    std::vector<HardwareChange> update(const Inventory& inv);

    // The remembered hardware of the device on `pci_address` (nullptr: none).
    const DeviceHardware* hardware(const std::string& pci_address) const;
    // Operator action: forgets the known device that `inv` lacks whose name or PCI address is
    // `device` (none: there is no such device), or with `device` empty every one `inv` lacks;
    // returns those forgotten.
    std::vector<KnownDevice> forgetMissing(const std::string& device, const Inventory& inv);

    // [{"pci_address": "0000:1a:00.0", "name": "mlx5_0", "vf": false, "earlier_boot": false,
    //   "last_name": "mlx5_0", "board_id": ..., "fw_ver": ..., "node_guid": ..., "role": ...,
    //   "ports": [[1, 400.0]]}, ...] (the hardware fields where known); fromJson also reads the
    // names-only list of earlier versions (["mlx5_0", ...]). Throws nlohmann::json::exception on
    // anything else.
    nlohmann::json toJson() const;
    static KnownDevices fromJson(const nlohmann::json& j);
    // What a new boot starts from: the devices of the saved list `j` that have hardware of their
    // own (a PCI address; not VFs, not software devices known by name), each `earlier_boot`.
    static KnownDevices fromEarlierBoot(const nlohmann::json& j);

private:
    // Whether `inv` has the names and addresses, in order, of the one update() last took in. Then
    // nothing was renamed (update() took the names in) and what is missing is known: a cycle on
    // an unchanged node pays one comparison per device, no lookup and no allocation.
    bool sameAsLastUpdate(const Inventory& inv) const;
    std::vector<KnownDevice> findMissing(const Inventory& inv) const;
    // Whether `k`, a device of the last boot, is a card `inv` has at another PCI address (its
    // node GUID: buses renumbered by a firmware update or a card added): not missing, forgotten.
    bool movedCard(const KnownDevice& k, const Inventory& inv) const;

    std::vector<KnownDevice> devices_; // sorted by address, then name (by name only: first)
    std::map<std::string, DeviceHardware> hardware_;        // by PCI address, for devices_ with one
    std::vector<std::pair<std::string, std::string>> last_; // (name, address) per device
    std::vector<DeviceHardware> last_hardware_;             // per device, as update() took it
    std::set<std::string> last_lag_functions_;              // lagFunctions() of that inventory
    bool have_last_ = false;
    std::vector<KnownDevice> last_missing_;
};

} // namespace nicd::health
