#include "node_state.hpp"

#include "beneath.hpp"
#include "vendor_catalog.hpp"

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nicd::sim {

namespace {

constexpr int kStateVersion = 1;

fs::path stateFile(const fs::path& root)
{
    return simDir(root) / "state.json";
}

} // namespace

std::string counterKey(const std::string& dev, uint32_t port, const std::string& group,
                       const std::string& name)
{
    return dev + "|" + std::to_string(port) + "|" + group + "|" + name;
}

NodeState NodeState::load(const fs::path& root)
{
    auto file = stateFile(root);
    if (!fs::exists(file))
        throw SimError("no simulated node at " + root.string() + " (run: nicd-sim create " +
                       root.string() + ")");
    NodeState s;
    try {
        auto j = nlohmann::json::parse(readText(file));
        if (j.value("version", 0) != kStateVersion)
            throw SimError(file.string() + ": unknown version (recreate the node with --force)");
        s.seed = j.value("seed", uint64_t{1});
        for (const auto& [name, d] : j.at("devices").items()) {
            SimDevice dev;
            dev.name = name;
            dev.role = d.at("role");
            dev.vendor = d.value("vendor", kDefaultVendor);
            dev.pci_address = d.value("pci_address", "");
            dev.ib_dir = d.at("ib_dir");
            dev.netdevs = d.at("netdevs").get<std::vector<std::string>>();
            dev.ethtool_netdevs = d.at("ethtool_netdevs").get<std::vector<std::string>>();
            dev.load = d.value("load", 1.0);
            dev.removed = d.value("removed", false);
            dev.stalled = d.value("stalled", false);
            dev.rail = d.value("rail", 0);
            s.devices[name] = dev;
        }
        s.rates = j.value("rates", std::map<std::string, double>{});
        s.carry = j.value("carry", std::map<std::string, double>{});
        s.wrap32 = j.value("wrap32", std::map<std::string, bool>{});
        s.stalled_values =
            j.value("stalled_values", std::map<std::string, std::map<std::string, uint64_t>>{});
    } catch (const nlohmann::json::exception& e) {
        throw SimError(file.string() + " is corrupt: " + e.what());
    }
    return s;
}

void NodeState::save(const fs::path& root) const
{
    writeText(root, stateFile(root), text());
}

std::string NodeState::text() const
{
    nlohmann::json j;
    j["version"] = kStateVersion;
    j["seed"] = seed;
    j["devices"] = nlohmann::json::object();
    for (const auto& [name, d] : devices) {
        j["devices"][name] = {{"role", d.role},
                              {"pci_address", d.pci_address},
                              {"ib_dir", d.ib_dir},
                              {"netdevs", d.netdevs},
                              {"ethtool_netdevs", d.ethtool_netdevs},
                              {"load", d.load},
                              {"removed", d.removed},
                              {"stalled", d.stalled}};
        if (d.vendor != kDefaultVendor) // an mlx5 node's state reads as it always has
            j["devices"][name]["vendor"] = d.vendor;
        if (d.rail > 0) // a storage NIC's (and an older node's) state reads as it always has
            j["devices"][name]["rail"] = d.rail;
    }
    j["rates"] = rates;
    j["carry"] = carry;
    j["wrap32"] = wrap32;
    j["stalled_values"] = stalled_values;
    return j.dump(1) + "\n";
}

SimDevice& NodeState::liveDevice(const std::string& name)
{
    auto& d = device(name);
    if (d.removed)
        throw SimError(name + " is removed (nicd-sim inject DIR restore " + name + ")");
    return d;
}

SimDevice& NodeState::device(const std::string& name)
{
    auto it = devices.find(name);
    if (it == devices.end()) {
        std::string known;
        for (const auto& [n, d] : devices)
            known += " " + n;
        throw SimError("no simulated device '" + name + "' (devices:" + known + ")");
    }
    return it->second;
}

NodeLock::NodeLock(const fs::path& root, bool creating)
{
    // run/nicd-sim and its lock are never reached through a symlink (a tree from elsewhere).
    if (creating)
        fs::create_directories(root);
    paths::Fd top(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!top.valid() && errno == ENOENT)
        throw SimError("no simulated node at " + root.string() + " (run: nicd-sim create " +
                       root.string() + ")");
    if (!top.valid())
        throw SimError("cannot open " + root.string() + ": " + std::strerror(errno));
    paths::WalkOptions o;
    o.flags = O_PATH | O_DIRECTORY;
    if (creating)
        o.create = 0755;
    auto sim = paths::walkBeneath(top.get(), "run/nicd-sim", o);
    if (!sim.ok() && sim.err == ENOENT)
        throw SimError("no simulated node at " + root.string() + " (run: nicd-sim create " +
                       root.string() + ")");
    if (!sim.ok())
        throw SimError("cannot open " + simDir(root).string() + ": " + sim.why);
    auto p = simDir(root) / "lock";
    fd_ = ::openat(sim.fd.get(), "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0)
        throw SimError("cannot open " + p.string() + ": " + std::strerror(errno));
    while (::flock(fd_, LOCK_EX) != 0) {
        if (errno != EINTR) {
            auto err = errno;
            ::close(fd_);
            throw SimError("cannot lock " + p.string() + ": " + std::strerror(err));
        }
    }
}

NodeLock::~NodeLock()
{
    if (fd_ >= 0)
        ::close(fd_);
}

} // namespace nicd::sim
