#include "readiness/readiness_reads.hpp"

#include "inventory/sysfs_values.hpp"
#include "paths/beneath.hpp"
#include "readiness/acs_config.hpp"
#include "readiness/gid_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace nicd::readiness {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> entries(const fs::path& dir, bool& listed)
{
    std::vector<std::string> out;
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    listed = !ec;
    for (fs::directory_iterator end; !ec && it != end; it.increment(ec))
        out.push_back(it->path().filename().string());
    return out;
}

std::optional<uint32_t> number(const std::optional<std::string>& text)
{
    auto n = sysfs::parseCounter(text.value_or(""));
    if (!n || *n > UINT32_MAX)
        return std::nullopt;
    return static_cast<uint32_t>(*n);
}

} // namespace

PortReadinessInputs readPortInputs(const HostPaths& paths, const Device& device, const Port& port)
{
    PortReadinessInputs in;
    const auto dir = fs::path(device.sysfs_path) / "ports" / std::to_string(port.num);
    for (const auto& name : entries(dir / "gids", in.gids_listed)) {
        auto index = sysfs::parseCounter(name);
        if (!index || *index > UINT32_MAX)
            continue;
        auto text = sysfs::readValue(dir / "gids" / name);
        if (!text) {
            // The kernel prints zeros for an unused slot: a listed entry that cannot be read
            // means the device went away under the read. The table is not known, not empty.
            in.gids_listed = false;
            in.gids.clear();
            break;
        }
        auto gid = parseGid(*text);
        if (!gid || gidKind(*gid) == GidKind::Zero)
            continue;
        GidEntry e;
        e.index = static_cast<uint32_t>(*index);
        e.gid = *gid;
        e.type = sysfs::readValue(dir / "gid_attrs/types" / name).value_or("");
        e.netdev = sysfs::readValue(dir / "gid_attrs/ndevs" / name).value_or("");
        in.gids.push_back(std::move(e));
    }
    std::sort(in.gids.begin(), in.gids.end(),
              [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
    // ports/N/lid is printed in hex ("0x1a").
    if (auto lid = sysfs::parseHex(sysfs::readValue(dir / "lid").value_or(""));
        lid && *lid <= 0xffff)
        in.lid = static_cast<uint32_t>(*lid);
    if (!port.netdevs.empty()) {
        in.mtu_netdev = port.netdevs.front();
        in.mtu = number(sysfs::readValue(paths.sysClassNet() / in.mtu_netdev / "mtu"));
    }
    return in;
}

namespace {

// The entries of the device's `cls` class ("infiniband_verbs", "infiniband_mad") whose names
// start with one of `prefixes`, by name, each with the directory to read: under the device's
// function, or, for a device with no PCI parent (rdma_rxe, siw), among the class's own entries,
// which list every device's. In a --root tree a class entry is a link: one that leads out of the
// tree is not the tree's to read and is left out.
std::vector<std::pair<std::string, fs::path>>
classEntries(const HostPaths& paths, const Device& device, const std::string& cls,
             std::initializer_list<std::string_view> prefixes, bool& listed)
{
    const bool by_class = device.pci_path.empty();
    const auto dir = by_class ? paths.host("/sys/class/" + cls) : fs::path(device.pci_path) / cls;
    auto names = entries(dir, listed);
    std::sort(names.begin(), names.end());
    std::vector<std::pair<std::string, fs::path>> out;
    for (const auto& name : names) {
        if (std::none_of(prefixes.begin(), prefixes.end(),
                         [&](std::string_view p) { return name.starts_with(p); }))
            continue;
        auto entry = dir / name;
        if (by_class && paths.simulated()) {
            auto rel = paths::resolveBeneath(paths.root(), "/sys/class/" + cls + "/" + name);
            if (!rel)
                continue;
            entry = paths.root() / *rel;
        }
        out.emplace_back(name, entry);
    }
    return out;
}

// /dev/infiniband/<name>: a character device on a node; a capture or the simulator keeps a plain
// file for it. Looked at, never opened.
bool devNode(const HostPaths& paths, const std::string& name)
{
    std::error_code ec;
    auto st = fs::symlink_status(paths.host("/dev/infiniband/" + name), ec);
    return !ec && (fs::is_character_file(st) || fs::is_regular_file(st));
}

} // namespace

VerbsDeviceInputs readVerbsDevice(const HostPaths& paths, const Device& device)
{
    VerbsDeviceInputs in;
    for (const auto& [name, entry] :
         classEntries(paths, device, "infiniband_verbs", {"uverbs"}, in.listed)) {
        auto ibdev = sysfs::readValue(entry / "ibdev");
        if (!ibdev) { // the device went away under the read: not known, not missing
            in.listed = false;
            break;
        }
        if (*ibdev != device.ibdev)
            continue;
        in.name = name;
        in.dev_node = devNode(paths, name);
        break;
    }
    return in;
}

std::optional<MadPortInputs> readMadPort(const HostPaths& paths, const Device& device,
                                         const Port& port)
{
    MadPortInputs in;
    for (const auto& [name, entry] :
         classEntries(paths, device, "infiniband_mad", {"umad", "issm"}, in.listed)) {
        auto ibdev = sysfs::readValue(entry / "ibdev");
        auto num = number(sysfs::readValue(entry / "port"));
        if (!ibdev || !num)
            return std::nullopt; // went away under the read: not known, not missing
        if (*ibdev != device.ibdev || *num != port.num)
            continue;
        const bool umad = name.starts_with("umad");
        auto& found = umad ? in.umad : in.issm;
        if (!found.empty())
            continue; // the kernel registers one of each per port: the first counts
        found = name;
        (umad ? in.umad_node : in.issm_node) = devNode(paths, name);
    }
    // IsSMDisabled (bit 10): the aggregated port of a multi-plane ConnectX-8 (mlx5 sets it when
    // the port has planes), which has no SMI and so no issm; its SMI device's planes have them.
    constexpr uint64_t kIsSmDisabled = 0x400;
    const auto port_dir = fs::path(device.sysfs_path) / "ports" / std::to_string(port.num);
    if (auto cap = sysfs::parseHex(sysfs::readValue(port_dir / "cap_mask").value_or("")))
        in.sm_disabled = (*cap & kIsSmDisabled) != 0;
    return in;
}

AcsInputs readBridgeAcs(const fs::path& bridge_dir)
{
    AcsInputs out;
    const auto file = bridge_dir / "config";
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        out.error = file.string() + ": " + std::strerror(errno);
        return out;
    }
    std::vector<uint8_t> bytes(kConfigSpaceSize);
    size_t got = 0;
    while (got < bytes.size()) {
        ssize_t n = ::pread(fd, bytes.data() + got, bytes.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            out.error = file.string() + ": " + std::strerror(errno);
            ::close(fd);
            return out;
        }
        if (n == 0)
            break;
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    bytes.resize(got);
    return decodeAcs(bytes);
}

} // namespace nicd::readiness
