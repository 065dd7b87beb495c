// PCI functions, their bridges and hwmon, netdevs and bonds, and the GPUs (see sysfs_walk.hpp).
#include "capture/sysfs_walk.hpp"
#include "config/host_paths.hpp"
#include "inventory/gpu_scan.hpp"
#include "inventory/sysfs_values.hpp"

#include <array>
#include <sstream>

namespace nicd::sim::capture {

namespace {

constexpr auto kFunctionFiles = std::to_array<const char*>({
    "vendor",
    "device",
    "class",
    "subsystem_vendor",
    "subsystem_device",
    "revision",
    "numa_node",
    "current_link_speed",
    "current_link_width",
    "max_link_speed",
    "max_link_width",
    "sriov_numvfs",
    "sriov_totalvfs",
});

constexpr auto kBridgeFiles = std::to_array<const char*>({
    "vendor",
    "device",
    "class",
    "current_link_speed",
    "current_link_width",
    "max_link_speed",
    "max_link_width",
});

constexpr auto kNetdevFiles = std::to_array<const char*>({
    "operstate",
    "carrier",
    "ifindex",
    "iflink",
    "dev_port",
    "dev_id",
    "phys_port_name",
    "type",
    "addr_len",
    "mtu",
    "speed",
    "duplex",
    "carrier_changes",
    "flags",
});

constexpr auto kBondingFiles =
    std::to_array<const char*>({"slaves", "mode", "xmit_hash_policy", "active_slave", "miimon"});

} // namespace

void SysfsWalk::bridge(const fs::path& dir)
{
    // Every bridge up to the host bridge (pci0000:19, which has no attributes nicd reads): nicd
    // judges each PCIe link on the way (prefailure/pcie_link.hpp).
    for (auto d = dir; sysfs::isPciAddress(d.filename().string()); d = d.parent_path())
        if (bridges_done_.insert(rel(d)).second)
            copyFiles(d, kBridgeFiles);
}

void SysfsWalk::hwmon(const fs::path& function_dir)
{
    for (const auto& h : list(function_dir / "hwmon")) {
        if (!h.starts_with("hwmon"))
            continue;
        auto dir = function_dir / "hwmon" / h;
        copyFile(dir / "name");
        for (const auto& f : list(dir))
            if (f.starts_with("temp"))
                copyFile(dir / f);
    }
}

void SysfsWalk::function(const fs::path& dir, bool with_netdevs, CapturedNode& node)
{
    const auto r = rel(dir);
    const bool first = functions_done_.insert(r).second;
    if (first) {
        tree_.dir(r);
        copyFiles(dir, kFunctionFiles);
        for (const auto& name : list(dir))
            if (name == "driver" || name == "physfn" || name.starts_with("virtfn"))
                copyLink(dir / name);
        if (auto driver = resolve(dir / "driver"))
            tree_.dir(rel(*driver));
        const auto bus_link = src_ / "sys/bus/pci/devices" / dir.filename();
        if (isSymlink(bus_link))
            copyLink(bus_link);
        bridge(dir.parent_path());
        bridgeConfigs(dir);
        verbs(dir);
        mads(dir);
        hwmon(dir);
        // A VF is one because its physfn exists: the PF's directory must be there too.
        if (auto pf = resolve(dir / "physfn"))
            function(*pf, false, node);
    }
    if (with_netdevs && functions_done_.insert(r + "/net").second)
        for (const auto& nd : list(dir / "net"))
            netdev(nd, node);
}

void SysfsWalk::netdev(const std::string& name, CapturedNode& node)
{
    if (!node.netdevs.insert(name).second)
        return;
    const auto link = src_ / "sys/class/net" / name;
    auto dir = resolve(link);
    if (!dir) {
        manifest_.skip("netdev", name, "not in sys/class/net (another namespace, renamed?)");
        node.netdevs.erase(name);
        return;
    }
    if (isSymlink(link))
        copyLink(link);
    copyFiles(*dir, kNetdevFiles);
    copyFile(*dir / "address", Scrub::HwAddress);
    for (const char* l : {"device", "master"})
        if (isSymlink(*dir / l))
            copyLink(*dir / l);
    if (auto fn = resolve(*dir / "device"); fn && sysfs::isPciAddress(fn->filename().string()))
        function(*fn, false, node); // a LAG's second member sits on a function of its own
    if (auto master = resolve(*dir / "master"))
        netdev(master->filename().string(), node);
    if (exists(*dir / "bonding/slaves")) {
        copyFiles(*dir / "bonding", kBondingFiles);
        const auto* slaves = tree_.find(rel(*dir / "bonding/slaves"));
        std::istringstream words(slaves ? slaves->data : std::string());
        std::vector<std::string> names;
        for (std::string s; words >> s;)
            names.push_back(s);
        node.bonds[name] = names;
        for (const auto& s : names)
            netdev(s, node);
    } else if (current_) {
        current_->netdevs.push_back(name); // a bond has no statistics, FEC, module or DCB
    }
    copyTree(*dir / "ecn", 3);
}

void SysfsWalk::gpus(CapturedNode& node)
{
    guard_ = nullptr;
    current_ = nullptr;
    for (const auto& g : inventory::readGpus(HostPaths(src_))) {
        fs::path dir(g.pci_path);
        if (!resolve(dir))
            continue;
        node.gpus.push_back(g.pci_address);
        if (!functions_done_.insert(rel(dir)).second)
            continue;
        copyFiles(dir, std::to_array({"vendor", "device", "class", "numa_node"}));
        bridgeConfigs(dir);
        const auto bus_link = src_ / "sys/bus/pci/devices" / g.pci_address;
        if (isSymlink(bus_link))
            copyLink(bus_link);
    }
}

} // namespace nicd::sim::capture
