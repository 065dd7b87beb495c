// `nicd-sim list`: what the node holds, one line per RDMA device.
#include "node_state.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace nicd::sim {

std::vector<DeviceSummary> devices(const fs::path& root)
{
    LockedNode st(root);
    std::vector<DeviceSummary> out;
    for (const auto& [name, d] : st->devices) {
        DeviceSummary s{name, d.role, d.pci_address, {}, d.netdevs, d.removed, d.stalled};
        std::error_code ec;
        std::vector<fs::path> ports;
        if (!d.removed)
            for (const auto& pe : fs::directory_iterator(root / d.ib_dir / "ports", ec))
                ports.push_back(pe.path());
        std::sort(ports.begin(), ports.end());
        for (const auto& p : ports) {
            auto state = readText(p / "state"); // "4: ACTIVE\n"
            auto colon = state.find(": ");
            auto text = colon == std::string::npos ? state : state.substr(colon + 2);
            s.port_states.push_back(p.filename().string() + ":" + text.substr(0, text.find('\n')));
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<std::string> list(const fs::path& root)
{
    std::vector<std::string> out;
    for (const auto& d : devices(root)) {
        auto state =
            d.removed ? std::string("removed") : fmt::format("{}", fmt::join(d.port_states, ","));
        if (d.stalled)
            state += " stalled";
        out.push_back(fmt::format("{:<13} {:<4} {:<16} {:<20} {}", d.name, d.role, state,
                                  fmt::format("{}", fmt::join(d.netdevs, ",")), d.pci_address));
    }
    return out;
}

} // namespace nicd::sim
