// What nicd knows about the node's RDMA hardware: devices, ports and their netdevs, as read from
// sysfs. Plain values; a value the kernel did not give us (missing file, garbage, EINVAL) is
// absent.
#pragma once

#include "model/role.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd {

struct Port {
    uint32_t num = 0;
    std::optional<int>
        state; // IB port state number: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER
    std::string state_name;        // "ACTIVE" (as the kernel names it)
    std::optional<int> phys_state; // 2 Polling, 3 Disabled, 5 LinkUp, ...
    std::string phys_state_name;   // "LinkUp"
    std::string link_layer;        // "Ethernet" or "InfiniBand"
    std::string rate;              // "400 Gb/sec (4X NDR)"
    std::optional<double> rate_gbps;
    std::vector<std::string> netdevs; // gid_attrs/ndevs, falling back to device/net/

    // The IB port state is ACTIVE or ACTIVE_DEFER: the port can carry traffic.
    bool active() const { return state && (*state == 4 || *state == 5); }
};

// A plane of a ConnectX-8 port in multi-plane mode: one port of the SMI sub-device that
// `rdma dev add <smi> type SMI parent <dev>` makes (same PCI function, no uverbs). Its `rate` is
// the plane's own (PTYS with the plane index); its state and phys_state are the native port's,
// the same on every plane (the kernel asks the shared vport context), so only the rate is judged.
struct PlanePort {
    std::string smi_device;   // "smi0": the SMI sub-device whose port this is
    uint32_t native_port = 1; // the parent's port it is a plane of
    Port port;                // num: the plane (the SMI device's port number); as read
};

// What kind of PCI function the device is.
enum class DeviceFunction : uint8_t {
    Physical,        // a PF, not bonded
    VirtualFunction, // has device/physfn
    Lag,             // the RoCE LAG device, as its plugin says (mlx5: mlx5_bond_<n>)
    BondMember,      // its netdev is enslaved to a bond (or, no plugin saying LAG, names it)
};

// An NVIDIA GPU on the PCI bus (vendor 0x10de, class 0x0300 or 0x0302): what roles are found by.
struct GpuFunction {
    std::string pci_address;       // "0000:1b:00.0"
    std::string pci_path;          // resolved: /sys/devices/pci0000:18/.../0000:1b:00.0
    std::optional<int> numa_node;  // absent when the kernel says -1
    std::string device_id{};       // the PCI device ID, "0x2330" (inventory/gpu_profiles.hpp)
    bool virtual_function = false; // an SR-IOV VF of a GPU (vGPU): no GPU of its own
    bool operator==(const GpuFunction&) const = default;
};

struct Device {
    std::string ibdev;       // "mlx5_0"
    std::string sysfs_path;  // <root>/sys/class/infiniband/mlx5_0 (the class link)
    std::string pci_address; // "0000:3b:00.0"; empty when not a PCI device
    std::string pci_path; // resolved device path: /sys/devices/pci0000:00/0000:00:01.0/0000:3b:00.0
    std::string driver;   // "mlx5_core"
    std::string fw_ver;
    std::string board_id;
    std::string hca_type;
    std::string node_guid;
    std::optional<int> numa_node; // absent when the kernel says -1
    DeviceFunction function = DeviceFunction::Physical;
    Role role = Role::Storage;
    std::string role_reason; // why this role ("shares PCIe switch ... with GPU 0000:1b:00.0")
    std::string bond_master; // set for BondMember and Lag (the bond netdev)
    // The PCI functions of the bond's slaves (bonding/slaves), sorted: for a RoCE LAG device,
    // the PFs it took over, whose own RDMA devices went away when the bond formed.
    std::vector<std::string> bond_functions{};
    std::string plugin;     // name of the plugin that manages it (attached); empty = unmanaged
    std::string claimed_by; // the plugin that claims it, attached or not (its attach may fail)
    std::vector<Port> ports;
    // Its ports' planes when it is a multi-plane parent with an SMI sub-device, by plane; the
    // SMI device is no device of the inventory (inventory/smi_devices.hpp).
    std::vector<PlanePort> planes{};
};

// An RDMA device [daemon] IgnoreDevices= names: listed so that an operator sees the setting took,
// never read (nothing under it is opened; its PCI address comes from a link's target).
struct IgnoredDevice {
    std::string ibdev;
    std::string pci_address; // empty when it has none
    std::string matched;     // the word of IgnoreDevices= that names it
};

struct Inventory {
    std::vector<Device> devices; // sorted by ibdev
    std::vector<GpuFunction> gpus;
    std::vector<IgnoredDevice> ignored; // sorted by ibdev; not in `devices`

    // By binary search (devices are sorted by ibdev); an inventory put together out of order
    // (a test's) is searched from end to end when that finds nothing.
    const Device* find(std::string_view ibdev) const
    {
        auto it =
            std::lower_bound(devices.begin(), devices.end(), ibdev,
                             [](const Device& d, std::string_view name) { return d.ibdev < name; });
        if (it != devices.end() && it->ibdev == ibdev)
            return &*it;
        for (const auto& d : devices)
            if (d.ibdev == ibdev)
                return &d;
        return nullptr;
    }
    // The PCI function of an ignored device: what is found of it elsewhere (a devlink dump that
    // covers every device) is left out too.
    bool ignoresFunction(std::string_view pci_address) const
    {
        return !pci_address.empty() &&
               std::any_of(ignored.begin(), ignored.end(),
                           [&](const IgnoredDevice& ig) { return ig.pci_address == pci_address; });
    }
};

// A network interface's link state as the kernel reports it.
struct NetdevState {
    std::string name;
    std::string operstate;       // "up", "down", "lowerlayerdown", "unknown", ...
    std::optional<bool> carrier; // absent when the link is admin down (EINVAL)
    std::optional<int> ifindex;

    bool operator==(const NetdevState&) const = default;
};

const char* toString(DeviceFunction function);

} // namespace nicd
