#include "inventory/sysfs_inventory.hpp"

#include "inventory/gpu_scan.hpp"
#include "inventory/port_netdevs.hpp"
#include "inventory/smi_devices.hpp"
#include "inventory/sysfs_values.hpp"
#include "log/log.hpp"

#include <algorithm>
#include <sstream>

namespace nicd::inventory {

namespace fs = std::filesystem;

namespace {

// Names in `dir`, sorted; empty when it cannot be listed.
std::vector<std::string> entryNames(const fs::path& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec))
        out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// Basename of a symlink's target ("mlx5_core" for device/driver); empty when not a link.
std::string linkTargetName(const fs::path& link)
{
    std::error_code ec;
    auto target = fs::read_symlink(link, ec);
    return ec ? std::string() : target.filename().string();
}

bool pathExists(const fs::path& p)
{
    std::error_code ec;
    return fs::exists(p, ec);
}

std::vector<std::string> readGidNetdevs(const fs::path& port_dir)
{
    auto dir = port_dir / "gid_attrs/ndevs";
    std::vector<std::pair<uint64_t, std::string>> by_index;
    for (const auto& entry : entryNames(dir)) {
        auto index = sysfs::parseCounter(entry);
        auto name = sysfs::readValue(dir / entry); // unused GIDs read EINVAL or empty
        if (index && name)
            by_index.emplace_back(*index, std::move(*name));
    }
    return gidNetdevs(std::move(by_index));
}

std::vector<FunctionNetdev> readFunctionNetdevs(const fs::path& dev_dir)
{
    std::vector<FunctionNetdev> out;
    auto net = dev_dir / "device/net";
    for (const auto& name : entryNames(net)) {
        FunctionNetdev nd{name, std::nullopt, std::nullopt};
        nd.dev_port = sysfs::parseCounter(sysfs::readValue(net / name / "dev_port").value_or(""));
        nd.dev_id = sysfs::parseHex(sysfs::readValue(net / name / "dev_id").value_or(""));
        // Legacy-mode mlx5 PFs answer EOPNOTSUPP here: absent, not a representor.
        nd.phys_port_name = sysfs::readValue(net / name / "phys_port_name").value_or("");
        out.push_back(std::move(nd));
    }
    return out;
}

Port readPort(const fs::path& port_dir, uint32_t num, size_t port_count,
              const std::vector<FunctionNetdev>& function_netdevs)
{
    Port p;
    p.num = num;
    readPortLinkState(port_dir, p);
    p.link_layer = sysfs::readValue(port_dir / "link_layer").value_or("");
    p.netdevs = readGidNetdevs(port_dir);
    if (p.netdevs.empty())
        p.netdevs = functionNetdevsOfPort(function_netdevs, num, port_count);
    return p;
}

std::vector<Port> readPorts(const fs::path& dev_dir)
{
    std::vector<std::pair<uint32_t, std::string>> nums;
    for (const auto& entry : entryNames(dev_dir / "ports"))
        if (auto n = sysfs::parseCounter(entry); n && *n > 0 && *n < 256)
            nums.emplace_back(static_cast<uint32_t>(*n), entry);
    std::sort(nums.begin(), nums.end());
    auto function_netdevs = readFunctionNetdevs(dev_dir);
    std::vector<Port> ports;
    ports.reserve(nums.size());
    for (const auto& [num, entry] : nums)
        ports.push_back(readPort(dev_dir / "ports" / entry, num, nums.size(), function_netdevs));
    return ports;
}

// A netdev is a bond when it has bonding/slaves.
bool isBond(const HostPaths& paths, const std::string& netdev)
{
    return pathExists(paths.sysClassNet() / netdev / "bonding/slaves");
}

// The bond `netdev` is enslaved to (its `master` upper device), or empty.
std::string bondOf(const HostPaths& paths, const std::string& netdev)
{
    auto master = linkTargetName(paths.sysClassNet() / netdev / "master");
    return !master.empty() && isBond(paths, master) ? master : std::string();
}

// The PCI function behind the device's `device` link, resolved: found through the links'
// targets alone (readlink, stat), nothing under the device is opened. Empty for a virtual device
// (rxe, siw) or a fixture without the link.
fs::path pciFunctionDir(const fs::path& dev_dir)
{
    std::error_code ec;
    auto function_dir = fs::canonical(dev_dir / "device", ec);
    return ec ? fs::path() : function_dir;
}

// The PCI function behind `device`: address, sysfs path, driver, NUMA node, VF or not.
void readPciFunction(const fs::path& dev_dir, Device& d)
{
    auto function_dir = pciFunctionDir(dev_dir);
    if (function_dir.empty())
        return;
    if (auto name = function_dir.filename().string(); sysfs::isPciAddress(name)) {
        d.pci_address = name;
        d.pci_path = function_dir.string();
    }
    d.driver = linkTargetName(dev_dir / "device/driver");
    if (auto numa = sysfs::parseInt(sysfs::readValue(dev_dir / "device/numa_node").value_or(""));
        numa && *numa >= 0)
        d.numa_node = *numa;
    if (pathExists(dev_dir / "device/physfn"))
        d.function = DeviceFunction::VirtualFunction;
}

// The first bond that `bond_of(netdev)` names, over every port's netdevs; empty when none.
template <class BondOf> std::string firstBond(const Device& d, BondOf bond_of)
{
    for (const auto& p : d.ports)
        for (const auto& nd : p.netdevs)
            if (auto bond = bond_of(nd); !bond.empty())
                return bond;
    return {};
}

// The PCI functions of the slaves of `bond`, sorted, each once.
std::vector<std::string> bondFunctions(const HostPaths& paths, const std::string& bond)
{
    std::vector<std::string> out;
    std::istringstream slaves(
        sysfs::readValue(paths.sysClassNet() / bond / "bonding/slaves").value_or(""));
    for (std::string nd; slaves >> nd;)
        if (isNetdevName(nd))
            if (auto pci = pciFunctionDir(paths.sysClassNet() / nd).filename().string();
                sysfs::isPciAddress(pci))
                out.push_back(std::move(pci));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// A device whose netdev is enslaved to a bond, or whose GIDs name the bond itself, carries the
// bond's RoCE traffic: a bond member, or a RoCE LAG device, which only its plugin can tell apart
// (a member's GID table names the bond too; PluginManager::assign makes it DeviceFunction::Lag).
void classifyBonding(const HostPaths& paths, Device& d)
{
    if (d.function != DeviceFunction::Physical)
        return;
    d.bond_master = firstBond(d, [&](const std::string& nd) { return bondOf(paths, nd); });
    if (d.bond_master.empty())
        d.bond_master = firstBond(
            d, [&](const std::string& nd) { return isBond(paths, nd) ? nd : std::string(); });
    if (!d.bond_master.empty()) {
        d.function = DeviceFunction::BondMember;
        d.bond_functions = bondFunctions(paths, d.bond_master);
    }
}

// The device when IgnoreDevices= names it: by name, else by the PCI address its `device` link
// resolves to. Nothing under it is opened either way.
std::optional<IgnoredDevice> ignoredDevice(const IgnoreList& ignore, const std::string& name,
                                           const fs::path& dev_dir)
{
    auto matched = ignore.matchName(name);
    if (!matched && !ignore.hasPciAddresses())
        return std::nullopt;
    std::string pci = pciFunctionDir(dev_dir).filename().string();
    if (!sysfs::isPciAddress(pci))
        pci.clear();
    if (!matched)
        matched = ignore.matchPciAddress(pci);
    if (!matched)
        return std::nullopt;
    return IgnoredDevice{name, pci, *matched};
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
    readPciFunction(dev_dir, d);
    d.ports = readPorts(dev_dir);
    classifyBonding(paths, d);
    return d;
}

} // namespace

bool isPortLinkAttribute(std::string_view name)
{
    return name == "state" || name == "phys_state" || name == "rate";
}

void clearPortLinkState(Port& p)
{
    p.state.reset();
    p.state_name.clear();
    p.phys_state.reset();
    p.phys_state_name.clear();
    p.rate.clear();
    p.rate_gbps.reset();
}

void setPortLinkAttribute(Port& p, std::string_view name, std::string_view text)
{
    if (name == "rate") {
        p.rate = std::string(sysfs::trim(text));
        p.rate_gbps = sysfs::parseRateGbps(p.rate);
        return;
    }
    auto parsed = sysfs::parseNumberedState(text);
    if (name == "state") {
        p.state = parsed ? std::optional<int>(parsed->number) : std::nullopt;
        p.state_name = parsed ? parsed->name : std::string();
    } else if (name == "phys_state") {
        p.phys_state = parsed ? std::optional<int>(parsed->number) : std::nullopt;
        p.phys_state_name = parsed ? parsed->name : std::string();
    }
}

void readPortLinkState(const fs::path& port_dir, Port& p)
{
    sysfs::Directory dir(port_dir);
    clearPortLinkState(p);
    for (const char* name : {"state", "phys_state", "rate"})
        if (auto v = dir.value(name))
            setPortLinkAttribute(p, name, *v);
}

Inventory discoverInventory(const HostPaths& paths, const IgnoreList& ignore)
{
    Inventory inv;
    const auto cls = paths.sysClassInfiniband();
    std::vector<std::string> ignored_functions;
    for (const auto& name : entryNames(cls)) {
        const auto dev_dir = cls / name;
        if (auto ignored = ignore.empty() ? std::nullopt : ignoredDevice(ignore, name, dev_dir)) {
            if (!ignored->pci_address.empty())
                ignored_functions.push_back(ignored->pci_address);
            inv.ignored.push_back(std::move(*ignored));
            continue;
        }
        std::error_code ec;
        if (!fs::is_directory(dev_dir, ec)) {
            log::debug({.device = name}, "{}: not a directory (device going away?); skipped",
                       dev_dir.string());
            continue;
        }
        try {
            inv.devices.push_back(readDevice(paths, dev_dir));
        } catch (const std::exception& ex) {
            log::warn({.device = name}, "cannot read RDMA device {}: {}", dev_dir.string(),
                      ex.what());
        }
    }
    attachPlanes(inv); // a ConnectX-8's SMI sub-device: its parent's planes, no NIC
    inv.gpus = readGpus(paths, ignored_functions);
    return inv; // entryNames() is sorted: devices (and ignored ones) are sorted by name
}

} // namespace nicd::inventory
