#include "neighbor/neighbor_source.hpp"

#include "log/log.hpp"
#include "neighbor/lldpcli_json.hpp"
#include "prefailure/capture_files.hpp"

#include <optional>

namespace nicd::neighbor {

namespace fs = std::filesystem;

fs::path neighborsTwin(const HostPaths& paths)
{
    return paths.host("/run/nicd-sim/lldp/neighbors.json");
}

NeighborSource::NeighborSource(HostPaths paths, std::chrono::milliseconds interval,
                               std::chrono::milliseconds timeout)
    : paths_(std::move(paths)), interval_(interval), client_(paths_, timeout)
{
}

std::optional<NeighborReading> NeighborSource::readTwin()
{
    NeighborReading out;
    auto read = prefailure::decodeCapture<std::map<std::string, std::vector<LldpNeighbor>>>(
        neighborsTwin(paths_), [](const std::string& text) { return parseLldpcliNeighbors(text); },
        4 << 20);
    if (read.status == decltype(read)::Status::Unsupported)
        return std::nullopt; // no twin: the tree's lldpd, if it runs one
    if (!read.ok()) {
        out.unavailable = read.message;
        return out;
    }
    out.available = true;
    out.by_netdev = std::move(read.value);
    return out;
}

void NeighborSource::read(const Inventory&)
{
    std::optional<NeighborReading> twin;
    if (paths_.simulated())
        twin = readTwin();
    last_ = twin ? std::move(*twin) : client_.read();
    const std::string now = last_.available ? std::string() : last_.unavailable;
    if (now != said_ || first_) {
        if (!now.empty())
            log::info({},
                      "lldp: {}; no neighbour is known and none is judged (the wiring and the "
                      "switch's QoS go unchecked)",
                      now);
        else if (!first_)
            log::info({}, "lldp: lldpd answers again; {} netdevs hear a neighbour",
                      last_.by_netdev.size());
        said_ = now;
        first_ = false;
    }
}

} // namespace nicd::neighbor
