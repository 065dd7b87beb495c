#include "capture/capture_state.hpp"

#include "vendor_catalog.hpp"

#include <algorithm>

namespace nicd::sim::capture {

namespace {

std::string roleOf(const CapturedDevice& d)
{
    if (d.name.starts_with("mlx5_bond_"))
        return "lag";
    if (d.virtual_function)
        return "vf";
    return d.infiniband ? "ib" : "pf";
}

bool stalled(const CapturedDevice& d, const CaptureTree& tree)
{
    return std::any_of(d.counter_files.begin(), d.counter_files.end(), [&](const auto& f) {
        const auto* e = tree.find(f);
        return e && e->kind == EntryKind::Fifo && f.find("/counters/") != std::string::npos;
    });
}

} // namespace

NodeState captureState(const CapturedNode& node, const CaptureTree& tree,
                       const std::set<std::string>& ethtool_netdevs, const fs::path& src)
{
    NodeState source;
    try {
        std::error_code ec; // the source's own file, not one a link there leads to
        if (fs::is_regular_file(fs::symlink_status(src / "run/nicd-sim/state.json", ec)))
            source = NodeState::load(src);
    } catch (const std::exception&) {
        // not a node nicd-sim can read: no saved values to carry
    }
    NodeState st;
    for (const auto& d : node.devices) {
        SimDevice s;
        s.name = d.name;
        s.role = roleOf(d);
        s.pci_address = d.pci_address;
        // Only the function's own vendor file: no function (a path from the tree's root) nor a
        // symlink (whose data is where it points, not an id) says which driver it has.
        if (!d.function_rel.empty())
            if (const auto* id = tree.find(d.function_rel + "/vendor");
                id && id->kind == EntryKind::File)
                s.vendor = vendorOfPciFunction(id->data);
        s.ib_dir = d.ib_rel;
        s.netdevs = d.port1_netdevs;
        for (const auto& nd : d.port1_netdevs) {
            auto bond = node.bonds.find(nd);
            const auto& members =
                bond == node.bonds.end() ? std::vector<std::string>{nd} : bond->second;
            for (const auto& m : members)
                if (ethtool_netdevs.contains(m))
                    s.ethtool_netdevs.push_back(m);
        }
        s.stalled = stalled(d, tree);
        if (s.stalled)
            if (auto it = source.stalled_values.find(d.name); it != source.stalled_values.end())
                st.stalled_values[d.name] = it->second;
        st.devices[d.name] = std::move(s);
    }
    return st;
}

} // namespace nicd::sim::capture
