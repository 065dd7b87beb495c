// Discovery of RDMA devices, ports and netdevs from sysfs, as the kernel lays it out:
// /sys/class/infiniband/<ibdev> links to /sys/devices/<pci path>/<bdf>/infiniband/<ibdev>, whose
// `device` link is the PCI function (driver, numa_node, physfn, net/). Fixture trees where the
// class entry is a plain directory work too (what cannot be found is absent).
#pragma once

#include "config/host_paths.hpp"
#include "inventory/ignore_list.hpp"
#include "model/inventory.hpp"

#include <filesystem>
#include <string_view>

namespace nicd::inventory {

// Every entry of <root>/sys/class/infiniband, sorted by name. Never throws; a value that cannot
// be read is absent, a broken device is listed with what could be read and never hides the
// others. An entry that resolves to nothing (a device unregistering right now) is left out.
//
// Roles: VirtualFunction when device/physfn exists; BondMember when a port's netdev has a `master`
// that is a bond (bonding/slaves), or is a bond itself; bond_master names the bond. Which of those
// is a RoCE LAG device (DeviceFunction::Lag) is its plugin's word (PluginManager::assign).
//
// A device `ignore` names goes to Inventory::ignored instead: decided from its name, or from the
// PCI address its `device` link resolves to (readlink and stat, no open), before anything under
// it is read; the GPU scan skips its PCI function too.
Inventory discoverInventory(const HostPaths& paths, const IgnoreList& ignore = {});

// Re-reads the port attributes that change at run time (state, phys_state, rate) from
// `port_dir` (…/ports/<n>) into `port`; unreadable ones become absent.
void readPortLinkState(const std::filesystem::path& port_dir, Port& port);

// The same one attribute at a time, for a reader that keeps the files open: which names are
// the run-time attributes, clearing them, and setting one from its file's text.
bool isPortLinkAttribute(std::string_view name);
void clearPortLinkState(Port& port);
void setPortLinkAttribute(Port& port, std::string_view name, std::string_view text);

} // namespace nicd::inventory
