// The readiness twins and their faults (readiness_twins.hpp).
#include "readiness_twins.hpp"

#include "beneath.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace nicd::sim {

namespace {

constexpr int kGidEntries = 16;           // the kernel lists every entry of the table; 16 will do
constexpr size_t kAcsAt = 0x148;          // after AER (0x100, 0x48 bytes)
constexpr uint16_t kAcsRedirect = 0x000c; // PCI_ACS_RR | PCI_ACS_CR
constexpr const char* kDriverVersion = "535.183.01";

std::string zeroGid()
{
    return "0000:0000:0000:0000:0000:0000:0000:0000\n";
}

// The subnet number hostFiles gave the netdev's route (10.<n>.0.0/16): sorted names, without
// eno1 and bond slaves. 0 when the netdev has none.
int subnetOf(const fs::path& root, const std::string& netdev)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(root / "sys/class/net"))
        if (e.path().filename() != "eno1" && !fs::exists(e.path() / "master"))
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    auto it = std::find(names.begin(), names.end(), netdev);
    return it == names.end() ? 0 : static_cast<int>(it - names.begin()) + 1;
}

std::string ipv4Gid(int subnet)
{
    return fmt::format("0000:0000:0000:0000:0000:ffff:0a{:02x}:0001\n", subnet % 256);
}

// fe80::/64 with the MAC's EUI-64, as the kernel makes a RoCE port's default GID.
std::string linkLocalGid(const fs::path& root, const std::string& netdev)
{
    auto mac = readText(root / "sys/class/net" / netdev / "address");
    unsigned b[6] = {};
    if (std::sscanf(mac.c_str(), "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) !=
        6)
        return zeroGid();
    return fmt::format("fe80:0000:0000:0000:{:02x}{:02x}:{:02x}ff:fe{:02x}:{:02x}{:02x}\n",
                       b[0] ^ 0x02, b[1], b[2], b[3], b[4], b[5]);
}

fs::path functionDir(const fs::path& root, const SimDevice& d)
{
    return (root / d.ib_dir).parent_path().parent_path();
}

void writeGids(const fs::path& root, const SimDevice& d, bool with_address)
{
    std::error_code ec;
    for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
        const auto pd = pe.path();
        if (readText(pd / "link_layer") != "Ethernet\n")
            continue;
        auto netdev = readText(pd / "gid_attrs/ndevs/0");
        netdev = netdev.substr(0, netdev.find('\n'));
        fs::create_directories(pd / "gids");
        for (int g = 0; g < kGidEntries; ++g) {
            std::string text = zeroGid();
            if (g < 2)
                text = linkLocalGid(root, netdev);
            else if (g < 4 && with_address)
                text = ipv4Gid(subnetOf(root, netdev));
            writeText(root, pd / "gids" / std::to_string(g), text);
        }
    }
}

// uverbs<K> of the device, from its function's infiniband_verbs/; empty when it has none.
std::string uverbsOf(const fs::path& root, const SimDevice& d)
{
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(functionDir(root, d) / "infiniband_verbs", ec))
        if (readText(e.path() / "ibdev") == d.name + "\n")
            return e.path().filename().string();
    throw SimError(d.name + " has no uverbs device");
}

// The device's port numbers, ascending (ports/<n>).
std::vector<int> portNumbers(const fs::path& root, const SimDevice& d)
{
    std::vector<int> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / d.ib_dir / "ports", ec)) {
        auto n = e.path().filename().string();
        if (!n.empty() && n.find_first_not_of("0123456789") == std::string::npos)
            out.push_back(std::stoi(n));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// umad<K> and issm<K> of each port of the device, from its function's infiniband_mad/.
std::vector<std::string> madDevicesOf(const fs::path& root, const SimDevice& d)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(functionDir(root, d) / "infiniband_mad", ec))
        if (readText(e.path() / "ibdev") == d.name + "\n")
            out.push_back(e.path().filename().string());
    if (out.empty())
        throw SimError(d.name + " has no umad device");
    std::sort(out.begin(), out.end());
    return out;
}

// ib_umad's devices: a umad<K> and an issm<K> per port of every device, numbered across the node
// in probe order (uverbs' order here), each naming its device and port; the class's links and
// abi_version; and the /dev/infiniband nodes udev makes (char major 231: umad minors from 0,
// issm from 64).
void createMadTwins(const fs::path& root, const NodeState& st)
{
    fs::create_directories(root / "sys/class/infiniband_mad");
    writeText(root, root / "sys/class/infiniband_mad/abi_version", "5\n");
    int k = 0;
    for (const auto& [name, d] : st.devices)
        for (int port : portNumbers(root, d)) {
            for (const auto& [kind, minor] : {std::pair{"umad", k}, std::pair{"issm", 64 + k}}) {
                auto entry = fmt::format("{}{}", kind, k);
                auto dir = functionDir(root, d) / "infiniband_mad" / entry;
                fs::create_directories(dir);
                writeText(root, dir / "ibdev", name + "\n");
                writeText(root, dir / "port", fmt::format("{}\n", port));
                writeText(root, dir / "dev", fmt::format("231:{}\n", minor));
                relativeSymlink(dir, root / "sys/class/infiniband_mad" / entry);
                writeText(root, root / "dev/infiniband" / entry, "");
            }
            ++k;
        }
}

std::string configSpace(uint16_t acs_control)
{
    std::string b(4096, '\0');
    auto put16 = [&](size_t at, uint16_t v) {
        b[at] = static_cast<char>(v & 0xff);
        b[at + 1] = static_cast<char>(v >> 8);
    };
    auto put32 = [&](size_t at, uint32_t v) {
        put16(at, static_cast<uint16_t>(v));
        put16(at + 2, static_cast<uint16_t>(v >> 16));
    };
    put16(0x00, 0x8086);                            // vendor
    put16(0x02, 0x352a);                            // device, as the root port's device file
    b[0x0e] = 0x01;                                 // header type 1: a bridge
    put32(0x100, 0x0001 | 2U << 16 | kAcsAt << 20); // AER v2, then ACS
    put32(kAcsAt, 0x000d | 1U << 16);               // ACS v1, the last
    put16(kAcsAt + 4, 0x007f);                      // ACS capabilities: all seven
    put16(kAcsAt + 6, acs_control);
    return b;
}

// The directory a sys/bus/pci/devices link leads to, as a path under `root` (which may be
// relative: the writes must stay beneath it as given).
fs::path functionOf(const fs::path& root, const fs::path& link)
{
    return root / fs::canonical(link).lexically_relative(fs::canonical(root));
}

// The bridge right above the device's function: its root port, or its switch's downstream port.
fs::path bridgeAbove(const fs::path& root, const SimDevice& d)
{
    return functionOf(root, root / "sys/bus/pci/devices" / d.pci_address).parent_path();
}

// A PCI bridge (class 0x0604xx): the simulator's root ports and PCIe switch ports.
bool isBridge(const fs::path& dir)
{
    std::error_code ec;
    return fs::exists(dir / "class", ec) && readText(dir / "class").starts_with("0x0604");
}

void peermemFiles(const fs::path& root, bool loaded)
{
    const auto dir = root / "sys/module/nvidia_peermem";
    if (!loaded) {
        // The module's directory as the simulator made it: its files, then itself, each on a
        // descriptor beneath the node (a link planted there is removed, never followed).
        std::error_code ec;
        const auto st = fs::symlink_status(dir, ec);
        if (fs::is_directory(st))
            for (const char* f : {"version", "initstate"})
                unlinkBeneath(root, dir / f);
        if (fs::exists(st))
            unlinkBeneath(root, dir);
        return;
    }
    fs::create_directories(dir);
    writeText(root, dir / "version", std::string(kDriverVersion) + "\n");
    writeText(root, dir / "initstate", "live\n");
}

} // namespace

void createReadinessTwins(const fs::path& root, const NodeState& st)
{
    int k = 0;
    fs::create_directories(root / "sys/class/infiniband_verbs");
    fs::create_directories(root / "dev/infiniband");
    writeText(root, root / "sys/class/infiniband_verbs/abi_version", "6\n");
    for (const auto& [name, d] : st.devices) { // by name: uverbs0 is mlx5_0's
        writeGids(root, d, true);
        auto uverbs = fmt::format("uverbs{}", k);
        auto dir = functionDir(root, d) / "infiniband_verbs" / uverbs;
        fs::create_directories(dir);
        writeText(root, dir / "ibdev", name + "\n");
        writeText(root, dir / "dev", fmt::format("231:{}\n", 192 + k));
        writeText(root, dir / "abi_version", "1\n");
        relativeSymlink(dir, root / "sys/class/infiniband_verbs" / uverbs);
        writeText(root, root / "dev/infiniband" / uverbs, "");
        ++k;
    }
    createMadTwins(root, st);
    bool gpus = false;
    for (const auto& e : fs::directory_iterator(root / "sys/bus/pci/devices")) {
        auto dir = functionOf(root, e.path());
        if (readText(dir / "vendor") == "0x10de\n")
            gpus = true;
        for (auto port = dir.parent_path(); isBridge(port); port = port.parent_path())
            if (!fs::exists(port / "config"))
                writeText(root, port / "config", configSpace(0));
    }
    fs::create_directories(root / "proc/sys/kernel");
    writeText(root, root / "proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
    if (!gpus)
        return;
    fs::create_directories(root / "proc/driver/nvidia");
    writeText(root, root / "proc/driver/nvidia/version",
              fmt::format("NVRM version: NVIDIA UNIX x86_64 Kernel Module  {}  Sun May 12 "
                          "19:39:15 UTC 2024\nGCC version:  gcc version 12.2.0 (Debian "
                          "12.2.0-14)\n",
                          kDriverVersion));
    peermemFiles(root, true);
}

void renameVerbsDevice(const fs::path& root, const fs::path& ib_dir, const std::string& from,
                       const std::string& to)
{
    for (const char* cls : {"infiniband_verbs", "infiniband_mad"}) {
        std::error_code ec;
        const auto dir = ib_dir.parent_path().parent_path() / cls;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (readText(e.path() / "ibdev") == from + "\n")
                writeText(root, e.path() / "ibdev", to + "\n");
    }
}

void gidMissing(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    writeGids(root, st->liveDevice(dev), !on);
}

void mtuMismatch(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    auto netdevs = d.netdevs;
    netdevs.insert(netdevs.end(), d.ethtool_netdevs.begin(), d.ethtool_netdevs.end());
    for (const auto& nd : netdevs)
        writeText(root, root / "sys/class/net" / nd / "mtu", on ? "1500\n" : "9000\n");
}

void uverbsMissing(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    auto node = root / "dev/infiniband" / uverbsOf(root, st->liveDevice(dev));
    if (on)
        unlinkBeneath(root, node); // the node itself, never what a link there points to
    else
        writeText(root, node, "");
}

void umadMissing(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    for (const auto& entry : madDevicesOf(root, st->liveDevice(dev))) {
        auto node = root / "dev/infiniband" / entry;
        if (on)
            unlinkBeneath(root, node); // the node itself, never what a link there points to
        else
            writeText(root, node, "");
    }
}

void peermemUnload(const fs::path& root, bool on)
{
    NodeLock lock(root);
    if (!fs::exists(root / "proc/driver/nvidia/version"))
        throw SimError("the node has no NVIDIA GPU (no proc/driver/nvidia/version)");
    peermemFiles(root, !on);
}

void acsOn(const fs::path& root, const std::string& dev, bool on)
{
    LockedNode st(root);
    auto port = bridgeAbove(root, st->liveDevice(dev));
    writeText(root, port / "config", configSpace(on ? kAcsRedirect : 0));
}

} // namespace nicd::sim
