// ConnectX-8 multi-plane ports: the SMI sub-device that `rdma dev add smi0 type SMI parent mlx5_0`
// makes is an ibdev of its own in /sys/class/infiniband, one port per plane, on the same PCI
// function as its parent and with no uverbs device (ib_uverbs refuses a sub-device). No sysfs file
// names its type or parent (only RDMA netlink does), so it is told by that: of the ibdevs on one
// PCI function, the one a uverbs entry names is the NIC, one that none names is its planes. Its
// ports are the parent's planes, not a NIC's ports: they go to the parent (Device::planes) and the
// SMI device leaves the device list (no inventory count, port check, readiness check or series).
// Without ib_uverbs (no infiniband_verbs to list) nothing is told apart and every ibdev stays.
#pragma once

#include "model/inventory.hpp"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace nicd::inventory {

// The ibdevs that <pci_path>/infiniband_verbs/uverbs*/ibdev name; empty when none can be read.
std::set<std::string> uverbsDevices(const std::filesystem::path& pci_path);

// Moves every SMI sub-device of `inv.devices` (read as devices by the walk) into its parent's
// `planes`, or, when its parent is in `inv.ignored`, into `inv.ignored` too. Only a PCI function
// with two ibdevs or more is asked for its uverbs devices. Returns the SMI devices' names.
std::vector<std::string> attachPlanes(Inventory& inv);

// The parent's port that plane `plane` of `planes` belongs to (the kernel's
// smi_to_native_portnum: planes are dealt to the native ports in order); 1 when it cannot say.
uint32_t nativePortOf(uint32_t plane, size_t planes, size_t native_ports);

} // namespace nicd::inventory
