#include "inventory/sysfs_inventory.hpp"

#include "inventory/sysfs_values.hpp"
#include "log/log.hpp"

#include <algorithm>
#include <set>

namespace nicd {

namespace fs = std::filesystem;

namespace {

std::string linkBasename(const fs::path& link)
{
    std::error_code ec;
    auto target = fs::read_symlink(link, ec);
    if (ec)
        return {};
    return target.filename().string();
}

// The netdevs of one port: gid_attrs/ndevs/* first (what RoCE uses), else the PCI function's
// net/ entries, matched by dev_port when the device has several ports.
std::vector<std::string> portNetdevs(const fs::path& dev_dir, const fs::path& port_dir,
                                     uint32_t port, size_t port_count)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(port_dir / "gid_attrs/ndevs", ec)) {
        auto nd = sysfs::readValue(e.path());
        if (nd && std::find(out.begin(), out.end(), *nd) == out.end())
            out.push_back(*nd);
    }
    if (!out.empty()) {
        std::sort(out.begin(), out.end());
        return out;
    }
    for (const auto& e : fs::directory_iterator(dev_dir / "device/net", ec)) {
        auto name = e.path().filename().string();
        if (port_count > 1) {
            auto dev_port =
                sysfs::parseCounter(sysfs::readValue(e.path() / "dev_port").value_or(""));
            if (dev_port && *dev_port + 1 != port)
                continue;
        }
        out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Port readPort(const fs::path& dev_dir, const fs::path& port_dir, uint32_t num, size_t port_count)
{
    Port p;
    p.num = num;
    if (auto s = sysfs::parseNumberedState(sysfs::readValue(port_dir / "state").value_or(""))) {
        p.state = s->number;
        p.state_name = s->name;
    }
    if (auto s =
            sysfs::parseNumberedState(sysfs::readValue(port_dir / "phys_state").value_or(""))) {
        p.phys_state = s->number;
        p.phys_state_name = s->name;
    }
    p.link_layer = sysfs::readValue(port_dir / "link_layer").value_or("");
    p.rate = sysfs::readValue(port_dir / "rate").value_or("");
    p.rate_gbps = sysfs::parseRateGbps(p.rate);
    p.netdevs = portNetdevs(dev_dir, port_dir, num, port_count);
    return p;
}

// The bond a netdev is enslaved to, from /sys/class/net/<nd>/master.
std::string bondOf(const HostPaths& paths, const std::string& netdev)
{
    auto master = paths.sysClassNet() / netdev / "master";
    std::error_code ec;
    if (!fs::is_symlink(master, ec))
        return {};
    auto name = linkBasename(master);
    if (fs::exists(paths.sysClassNet() / name / "bonding", ec))
        return name;
    return {};
}

Device readDevice(const HostPaths& paths, const fs::path& dev_dir)
{
    Device d;
    d.ibdev = dev_dir.filename().string();
    d.sysfs_path = dev_dir.string();
    d.fw_ver = sysfs::readValue(dev_dir / "fw_ver").value_or("");
    d.board_id = sysfs::readValue(dev_dir / "board_id").value_or("");
    d.hca_type = sysfs::readValue(dev_dir / "hca_type").value_or("");
    d.node_guid = sysfs::readValue(dev_dir / "node_guid").value_or("");

    std::error_code ec;
    auto pci_dir = fs::canonical(dev_dir / "device", ec);
    if (!ec) {
        auto name = pci_dir.filename().string();
        if (sysfs::isPciAddress(name)) {
            d.pci_address = name;
            d.pci_path = pci_dir.string();
        }
        d.driver = linkBasename(dev_dir / "device/driver");
        auto numa = sysfs::readValue(dev_dir / "device/numa_node");
        int n = -1;
        if (numa && std::sscanf(numa->c_str(), "%d", &n) == 1 && n >= 0)
            d.numa_node = n;
        if (fs::exists(dev_dir / "device/physfn", ec))
            d.role = DeviceRole::VirtualFunction;
    }

    std::vector<std::pair<uint32_t, fs::path>> ports;
    for (const auto& e : fs::directory_iterator(dev_dir / "ports", ec)) {
        auto n = sysfs::parseCounter(e.path().filename().string());
        if (n && *n > 0 && *n < 256)
            ports.emplace_back(static_cast<uint32_t>(*n), e.path());
    }
    std::sort(ports.begin(), ports.end());
    for (const auto& [num, dir] : ports)
        d.ports.push_back(readPort(dev_dir, dir, num, ports.size()));

    if (d.ibdev.starts_with("mlx5_bond_")) {
        d.role = DeviceRole::Lag;
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                if (fs::exists(paths.sysClassNet() / nd / "bonding", ec))
                    d.bond_master = nd;
    } else if (d.role == DeviceRole::Physical) {
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                if (auto bond = bondOf(paths, nd); !bond.empty()) {
                    d.role = DeviceRole::BondMember;
                    d.bond_master = bond;
                }
    }
    return d;
}

} // namespace

Inventory discoverInventory(const HostPaths& paths)
{
    Inventory inv;
    std::error_code ec;
    auto cls = paths.sysClassInfiniband();
    for (const auto& e : fs::directory_iterator(cls, ec)) {
        try {
            inv.devices.push_back(readDevice(paths, e.path()));
        } catch (const std::exception& ex) {
            log::warn({.device = e.path().filename().string()}, "cannot read RDMA device {}: {}",
                      e.path().string(), ex.what());
        }
    }
    std::sort(inv.devices.begin(), inv.devices.end(),
              [](const Device& a, const Device& b) { return a.ibdev < b.ibdev; });
    return inv;
}

} // namespace nicd
