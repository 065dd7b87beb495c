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

VerbsDeviceInputs readVerbsDevice(const HostPaths& paths, const Device& device)
{
    VerbsDeviceInputs in;
    // A device with no PCI parent (rdma_rxe, siw) has its verbs device among the virtual ones:
    // the class directory lists every verbs device, each naming its RDMA device.
    const bool by_class = device.pci_path.empty();
    const auto dir = by_class ? paths.host("/sys/class/infiniband_verbs")
                              : fs::path(device.pci_path) / "infiniband_verbs";
    auto names = entries(dir, in.listed);
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
        if (!name.starts_with("uverbs"))
            continue;
        // The class entries are links: in a --root tree, one that leads out of the tree is not
        // the tree's to read.
        auto entry = dir / name;
        if (by_class && paths.simulated()) {
            auto rel = paths::resolveBeneath(paths.root(), "/sys/class/infiniband_verbs/" + name);
            if (!rel)
                continue;
            entry = paths.root() / *rel;
        }
        auto ibdev = sysfs::readValue(entry / "ibdev");
        if (!ibdev) { // the device went away under the read: not known, not missing
            in.listed = false;
            break;
        }
        if (*ibdev != device.ibdev)
            continue;
        in.name = name;
        std::error_code ec;
        auto st = fs::symlink_status(paths.host("/dev/infiniband/" + name), ec);
        // A character device on a node; a capture or the simulator keeps a plain file for it.
        in.dev_node = !ec && (fs::is_character_file(st) || fs::is_regular_file(st));
        break;
    }
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
