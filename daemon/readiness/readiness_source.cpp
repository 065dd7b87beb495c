#include "readiness/readiness_source.hpp"

#include "log/log.hpp"
#include "readiness/gpu_pairing.hpp"
#include "readiness/gpudirect_evidence.hpp"
#include "readiness/readiness_reads.hpp"

namespace nicd::readiness {

namespace fs = std::filesystem;

namespace {

// Under --root, a bridge's directory must lie in the tree (a resolved path always does unless a
// link of the tree leads out of it).
bool inTree(const HostPaths& paths, const std::string& dir)
{
    if (!paths.simulated())
        return true;
    auto root = paths.root().lexically_normal().string();
    if (!root.ends_with('/'))
        root += '/';
    return dir.starts_with(root);
}

} // namespace

ReadinessInputs readReadiness(const HostPaths& paths, const Inventory& inventory)
{
    ReadinessInputs in;
    in.read = true;
    std::error_code ec;
    const bool verbs_class =
        !paths.simulated() || fs::exists(paths.host("/sys/class/infiniband_verbs"), ec);
    const bool mad_class =
        !paths.simulated() || fs::exists(paths.host("/sys/class/infiniband_mad"), ec);
    std::map<std::string, std::string> bridge_dirs; // address -> directory
    // Every device but VFs: roles are assigned after the sources read (app/daemon_app.cpp), so
    // which of them is compute is decided when they are judged (health/readiness_checks.hpp).
    for (const auto& d : inventory.devices) {
        if (d.function == DeviceFunction::VirtualFunction)
            continue;
        for (const auto& p : d.ports) {
            auto& port = in.ports[{d.ibdev, p.num}];
            port = readPortInputs(paths, d, p);
            if (mad_class && p.link_layer == "InfiniBand") // RoCE has no subnet manager
                port.mad = readMadPort(paths, d, p);
        }
        if (verbs_class)
            in.verbs[d.ibdev] = readVerbsDevice(paths, d);
        auto pairs = pairGpus(d, inventory.gpus);
        for (const auto& g : inventory.gpus)
            if (!d.pci_path.empty())
                for (const auto& b : bridgesBetween(d.pci_path, g.pci_path))
                    bridge_dirs.emplace(b.address, b.dir);
        in.pairings[d.ibdev] = std::move(pairs);
    }
    for (const auto& [address, dir] : bridge_dirs) {
        if (!inTree(paths, dir)) {
            in.bridges[address].error = dir + " is outside the tree";
            continue;
        }
        in.bridges[address] = readBridgeAcs(dir);
    }
    if (!inventory.gpus.empty())
        in.gpudirect = readGpuDirect(paths);
    return in;
}

ReadinessSource::ReadinessSource(HostPaths paths, std::chrono::milliseconds interval,
                                 std::chrono::milliseconds timeout)
    : paths_(std::move(paths)), interval_(interval), guard_(timeout)
{
}

std::chrono::milliseconds ReadinessSource::interval() const
{
    return soon_->load() ? std::chrono::milliseconds(0) : interval_;
}

void ReadinessSource::read(const Inventory& inventory)
{
    soon_->store(false);
    if (guard_.stuck())
        return; // an earlier read has not returned: keep what it last said
    // What the lane touches it owns: a read left behind may outlive this call.
    auto inv = std::make_shared<const Inventory>(inventory);
    auto out = std::make_shared<ReadinessInputs>();
    auto paths = paths_;
    if (guard_.run(1, [inv, out, paths](size_t) { *out = readReadiness(paths, *inv); }) == 1)
        last_ = std::move(*out);
    else
        log::warn({}, "readiness: reading sysfs did not return in time; the last values stand");
}

} // namespace nicd::readiness
