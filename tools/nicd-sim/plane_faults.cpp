// The twin of a ConnectX-8 in multi-plane mode (sim.hpp: smi-add, plane-downtrain), as the kernel
// shows it once `rdma dev add smi<N> type SMI parent mlx5_<N>` ran (6.11 on): the SMI sub-device
// beside its parent under the same PCI function, one InfiniBand port per plane, each with its own
// rate (PTYS with the plane's index), the native port's state and phys_state, the parent's
// cap_mask without CM, its GID and LID, PMA counters, a umad and an issm; no hw_counters and no
// uverbs (ib_uverbs makes none for a sub-device). The parent's port gains IsSMDisabled (0x400)
// in cap_mask and loses its issm (no SMI on an aggregated port).
#include "beneath.hpp"
#include "counter_catalog.hpp"
#include "node_state.hpp"
#include "sim.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

namespace nicd::sim {

// Named, so that a unity build's other files' helpers (functionDir, ...) never meet these.
namespace smi_twin {
namespace {

constexpr uint64_t kIsSmDisabled = 0x400;
constexpr uint64_t kCmSupported = 0x10000;
constexpr int kMaxPlanes = 8;

fs::path functionDir(const fs::path& root, const SimDevice& d)
{
    return (root / d.ib_dir).parent_path().parent_path();
}

// smi<N> for mlx5_<N> (what NVIDIA's and UFM's scripts name it), smi-<dev> otherwise.
std::string smiName(const std::string& dev)
{
    auto us = dev.rfind('_');
    if (us != std::string::npos && us + 1 < dev.size() &&
        dev.find_first_not_of("0123456789", us + 1) == std::string::npos)
        return "smi" + dev.substr(us + 1);
    return "smi-" + dev;
}

std::string line(const fs::path& file)
{
    auto text = readText(file);
    return text.substr(0, text.find('\n'));
}

uint64_t hexOf(const fs::path& file)
{
    uint64_t v = 0;
    if (std::sscanf(line(file).c_str(), "%" SCNx64, &v) != 1)
        throw SimError(file.string() + ": not a hex number");
    return v;
}

// "800 Gb/sec (4X XDR)": its Gb/s, lanes and speed name.
struct Rate {
    double gbps = 0;
    int width = 0;
    std::string speed;
};

Rate parseRate(const std::string& text)
{
    Rate r;
    char speed[16] = {};
    if (std::sscanf(text.c_str(), "%lf Gb/sec (%dX %15[A-Z])", &r.gbps, &r.width, speed) != 3 ||
        r.width <= 0)
        throw SimError("rate \"" + text + "\": not \"<Gb/s> Gb/sec (<n>X <speed>)\"");
    r.speed = speed;
    return r;
}

std::string rateText(double gbps, int width, const std::string& speed)
{
    return fmt::format("{} Gb/sec ({}X {})\n", gbps, width, speed);
}

// A healthy plane's rate: the aggregated port's lanes dealt to its planes.
std::string planeRate(const Rate& port, int planes)
{
    const int width = std::max(1, port.width / planes);
    return rateText(port.gbps / planes, width, port.speed);
}

// The same plane trained at half its rate: the speed below (XDR 200G a lane, NDR 100G, HDR 50G).
std::string downtrained(const Rate& plane)
{
    static const char* kSpeeds[] = {"EDR", "HDR", "NDR", "XDR"};
    std::string speed = plane.speed;
    for (size_t i = 1; i < std::size(kSpeeds); ++i)
        if (plane.speed == kSpeeds[i])
            speed = kSpeeds[i - 1];
    return rateText(plane.gbps / 2, plane.width, speed);
}

// The next free number of ib_umad's devices on the node (umad<K> and issm<K> share it).
int nextMadNumber(const fs::path& root)
{
    int next = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / "sys/class/infiniband_mad", ec)) {
        auto name = e.path().filename().string();
        for (const char* kind : {"umad", "issm"})
            if (name.starts_with(kind) && name.size() > 4)
                next = std::max(next, std::atoi(name.c_str() + 4) + 1);
    }
    return next;
}

void madEntry(const fs::path& root, const fs::path& function, const std::string& kind, int k,
              const std::string& ibdev, int port)
{
    auto entry = fmt::format("{}{}", kind, k);
    auto dir = function / "infiniband_mad" / entry;
    fs::create_directories(dir);
    writeText(root, dir / "ibdev", ibdev + "\n");
    writeText(root, dir / "port", fmt::format("{}\n", port));
    writeText(root, dir / "dev", fmt::format("231:{}\n", kind == "umad" ? k : 64 + k));
    relativeSymlink(dir, root / "sys/class/infiniband_mad" / entry);
    writeText(root, root / "dev/infiniband" / entry, "");
}

// Removes ib_umad's entries of `kind` naming `ibdev` (every port), their links and nodes; returns
// the numbers they had, by port.
std::map<int, int> removeMadEntries(const fs::path& root, const fs::path& function,
                                    const std::string& kind, const std::string& ibdev)
{
    std::map<int, int> removed;
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(function / "infiniband_mad", ec))
        if (e.path().filename().string().starts_with(kind) &&
            readText(e.path() / "ibdev") == ibdev + "\n")
            dirs.push_back(e.path());
    for (const auto& dir : dirs) {
        auto entry = dir.filename().string();
        removed[std::atoi(line(dir / "port").c_str())] = std::atoi(entry.c_str() + kind.size());
        for (const char* f : {"ibdev", "port", "dev"})
            unlinkBeneath(root, dir / f);
        unlinkBeneath(root, dir);
        unlinkBeneath(root, root / "sys/class/infiniband_mad" / entry);
        unlinkBeneath(root, root / "dev/infiniband" / entry);
    }
    return removed;
}

// The SMI device's directory beside `d`'s, or throws SimError when it has none.
fs::path smiDir(const fs::path& root, const SimDevice& d)
{
    auto dir = (root / d.ib_dir).parent_path() / smiName(d.name);
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(dir, ec)))
        throw SimError(d.name + " has no SMI device (inject smi-add " + d.name + " first)");
    return dir;
}

void setIsSmDisabled(const fs::path& root, const fs::path& port, bool on)
{
    auto cap = hexOf(port / "cap_mask");
    cap = on ? cap | kIsSmDisabled : cap & ~kIsSmDisabled;
    writeText(root, port / "cap_mask", fmt::format("0x{:08x}\n", cap));
}

void addSmi(const fs::path& root, const SimDevice& d, int planes)
{
    const auto parent = root / d.ib_dir;
    const auto port = parent / "ports/1";
    if (line(port / "link_layer") != "InfiniBand")
        throw SimError(d.name + " port 1 is " + line(port / "link_layer") +
                       ": multi-plane is InfiniBand only (rdma dev add answers EOPNOTSUPP)");
    const auto name = smiName(d.name);
    const auto dir = parent.parent_path() / name;
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir, ec)))
        throw SimError(d.name + " already has its SMI device " + name + " (EEXIST)");
    const auto function = functionDir(root, d);
    fs::create_directories(dir);
    relativeSymlink(function, dir / "device");
    relativeSymlink(root / "sys/class/infiniband", dir / "subsystem");
    for (const char* f : {"fw_ver", "board_id", "hca_type", "hw_rev", "node_guid", "sys_image_guid",
                          "node_type", "node_desc"})
        if (fs::exists(parent / f))
            writeText(root, dir / f, readText(parent / f));
    const auto rate = planeRate(parseRate(line(port / "rate")), planes);
    const auto cap = hexOf(port / "cap_mask") & ~kCmSupported & ~kIsSmDisabled;
    int k = nextMadNumber(root);
    for (int plane = 1; plane <= planes; ++plane, ++k) {
        const auto pd = dir / "ports" / std::to_string(plane);
        fs::create_directories(pd / "counters");
        fs::create_directories(pd / "gids");
        for (const char* f : {"state", "phys_state", "lid", "sm_lid", "link_layer"})
            writeText(root, pd / f, readText(port / f)); // the native port's vport context
        writeText(root, pd / "rate", rate);
        writeText(root, pd / "cap_mask", fmt::format("0x{:08x}\n", cap));
        writeText(root, pd / "gids/0", readText(port / "gids/0")); // the port GUID is shared
        for (const auto& c : ibCounters())
            writeNumber(root, pd / "counters" / c.name, c.initial);
        for (const char* kind : {"umad", "issm"})
            madEntry(root, function, kind, k, name, plane);
    }
    relativeSymlink(dir, root / "sys/class/infiniband" / name);
    setIsSmDisabled(root, port, true);
    removeMadEntries(root, function, "issm", d.name);
}

// Removes the directory tree `dir` (inside the node): moved aside beneath the node first, so a
// link planted on the way is never followed, then removed there.
void removeTree(const fs::path& root, const fs::path& dir, const std::string& name)
{
    const auto aside = simDir(root) / "removed" / (name + ".smi");
    fs::create_directories(aside.parent_path());
    std::error_code ec;
    fs::remove_all(aside, ec);
    renameBeneath(root, dir, aside);
    fs::remove_all(aside);
}

void clearSmi(const fs::path& root, const SimDevice& d)
{
    const auto dir = smiDir(root, d);
    const auto name = dir.filename().string();
    const auto function = functionDir(root, d);
    removeMadEntries(root, function, "umad", name);
    removeMadEntries(root, function, "issm", name);
    unlinkBeneath(root, root / "sys/class/infiniband" / name);
    removeTree(root, dir, name);
    const auto port = root / d.ib_dir / "ports/1";
    setIsSmDisabled(root, port, false);
    // The parent's issm again, numbered as its umad.
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(function / "infiniband_mad", ec)) {
        auto entry = e.path().filename().string();
        if (entry.starts_with("umad") && readText(e.path() / "ibdev") == d.name + "\n")
            madEntry(root, function, "issm", std::atoi(entry.c_str() + 4), d.name,
                     std::atoi(line(e.path() / "port").c_str()));
    }
}

} // namespace
} // namespace smi_twin

void smiAdd(const fs::path& root, const std::string& dev, int planes, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    if (!on) {
        smi_twin::clearSmi(root, d);
        return;
    }
    if (planes < 2 || planes > smi_twin::kMaxPlanes)
        throw SimError(fmt::format("{} planes: from 2 to {}", planes, smi_twin::kMaxPlanes));
    smi_twin::addSmi(root, d, planes);
}

void planeDowntrain(const fs::path& root, const std::string& dev, int plane, bool on)
{
    LockedNode st(root);
    const auto& d = st->liveDevice(dev);
    const auto dir = smi_twin::smiDir(root, d);
    std::vector<int> planes;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir / "ports", ec))
        planes.push_back(std::atoi(e.path().filename().c_str()));
    std::sort(planes.begin(), planes.end());
    if (plane != 0 && !std::binary_search(planes.begin(), planes.end(), plane))
        throw SimError(fmt::format("{} has no plane {} ({} has ports 1 to {})", dev, plane,
                                   dir.filename().string(), planes.size()));
    const auto healthy =
        smi_twin::planeRate(smi_twin::parseRate(smi_twin::line(root / d.ib_dir / "ports/1/rate")),
                            static_cast<int>(planes.size()));
    for (int p : planes)
        if (plane == 0 || p == plane) {
            const auto file = dir / "ports" / std::to_string(p) / "rate";
            auto rate = healthy.substr(0, healthy.find('\n'));
            writeText(root, file, on ? smi_twin::downtrained(smi_twin::parseRate(rate)) : healthy);
        }
}

} // namespace nicd::sim
