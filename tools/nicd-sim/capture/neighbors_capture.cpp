#include "capture/neighbors_capture.hpp"

#include "config/host_paths.hpp"
#include "neighbor/lldpcli_json.hpp"
#include "neighbor/lldpd_client.hpp"
#include "neighbor/neighbor_source.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

namespace nicd::sim::capture {

namespace {

constexpr const char* kSource = "lldp neighbours";

// An IPv4 or IPv6 address's fake in the same notation family; other text unchanged.
std::string fakeAddress(const std::string& text, IdentifierMap& ids)
{
    if (auto v4 = parseIpv4(text))
        return formatIpv4(ids.ipv4(*v4));
    std::array<uint8_t, 16> v6{};
    if (::inet_pton(AF_INET6, text.c_str(), v6.data()) == 1) {
        const auto fake = ids.ipv6(v6);
        std::array<char, INET6_ADDRSTRLEN> out{};
        if (::inet_ntop(AF_INET6, fake.data(), out.data(), out.size()) != nullptr)
            return out.data();
    }
    return text;
}

} // namespace

std::string neighborsPath()
{
    return "run/nicd-sim/lldp/neighbors.json";
}

void captureNeighbors(NodeKind kind, const std::filesystem::path& src, const FileReader& reader,
                      std::chrono::milliseconds timeout, CaptureTree& tree, Manifest& manifest)
{
    const HostPaths paths(src);
    if (kind == NodeKind::Simulated) {
        auto r = reader(src / neighborsPath());
        if (r.status == NodeRead::Status::Ok) {
            if (r.data.size() > kMaxNeighborsTwin) {
                manifest.skip(kSource, "", neighborsPath() + ": larger than nicd reads");
                return;
            }
            try {
                neighbor::parseLldpcliNeighbors(r.data);
            } catch (const std::exception& e) {
                manifest.skip(kSource, "", neighborsPath() + ": " + e.what());
                return;
            }
            tree.file(neighborsPath(), std::move(r.data), Scrub::LldpNeighbors);
            return;
        }
        if (r.status != NodeRead::Status::Missing) {
            manifest.skip(kSource, "",
                          neighborsPath() + ": " + (r.error.empty() ? "not a file" : r.error));
            return;
        }
        // No twin: nicd asks an lldpd on the tree's socket, and so does the capture.
    }
    neighbor::LldpdClient client(paths, timeout);
    auto reading = client.read();
    if (!reading.available) {
        manifest.skip(kSource, "",
                      reading.unavailable + " (no twin written: the replay finds no "
                                            "lldpd either)");
        return;
    }
    tree.file(neighborsPath(), neighbor::toLldpcliJson(reading.by_netdev), Scrub::LldpNeighbors);
}

std::string scrubNeighbors(const std::string& json, IdentifierMap& ids)
{
    auto neighbors = neighbor::parseLldpcliNeighbors(json);
    for (auto& [netdev, list] : neighbors) {
        for (auto& n : list) {
            // Addresses are faked; the switch's names are kept: the wiring map names switches
            // with globs (su*-leaf-01) that no fake could keep matching, and a replay must judge
            // the wiring as the node did. A switch's name is the fabric's, not the host's.
            if (n.chassis_id_type == "mac")
                n.chassis_id = ids.hwAddress(n.chassis_id);
            else if (n.chassis_id_type == "ip")
                n.chassis_id = fakeAddress(n.chassis_id, ids);
            if (!n.mgmt_address.empty())
                n.mgmt_address = fakeAddress(n.mgmt_address, ids);
            if (n.port_id_type == "mac")
                n.port_id = ids.hwAddress(n.port_id);
        }
    }
    return neighbor::toLldpcliJson(neighbors);
}

} // namespace nicd::sim::capture
