#include "ecn_state.hpp"

#include "dcb_state.hpp"
#include "files.hpp"
#include "vendor_catalog.hpp"

namespace nicd::sim {

namespace {

constexpr int kPriorities = 8;

fs::path ecnDir(const fs::path& root, const std::string& netdev)
{
    return root / "sys/class/net" / netdev / "ecn";
}

void writeEnables(const fs::path& root, const fs::path& ecn, const char* point, bool on)
{
    fs::create_directories(ecn / point / "enable");
    for (int p = 0; p < kPriorities; ++p)
        writeText(root, ecn / point / "enable" / std::to_string(p), on ? "1\n" : "0\n");
}

// The ecn/ tree is mlx5's (MOFED): bnxt has no per-priority ECN sysfs (its congestion control
// is in bnxt_re's debugfs cc_config/ since 6.15).
std::vector<std::string> ecnNetdevs(const SimDevice& d)
{
    return vendorCatalog(d.vendor).ecn_sysfs ? dcbNetdevs(d) : std::vector<std::string>{};
}

} // namespace

void createEcnState(const fs::path& root, const NodeState& st)
{
    for (const auto& [name, d] : st.devices)
        for (const auto& nd : ecnNetdevs(d)) {
            auto ecn = ecnDir(root, nd);
            writeEnables(root, ecn, "roce_np", false);
            writeEnables(root, ecn, "roce_rp", false);
            writeText(root, ecn / "roce_np/cnp_dscp", "48\n");
            writeText(root, ecn / "roce_np/cnp_802p_prio", "6\n");
            writeText(root, ecn / "roce_np/min_time_between_cnps", "4\n");
        }
}

void ecnDrift(const fs::path& root, const std::string& dev)
{
    LockedNode st(root);
    auto netdevs = ecnNetdevs(st->device(dev));
    if (netdevs.empty())
        throw SimError(dev + " has no ECN tree (only mlx5 RoCE PFs and LAG members have one)");
    for (const auto& nd : netdevs) {
        auto ecn = ecnDir(root, nd);
        if (!fs::exists(ecn))
            continue;
        writeEnables(root, ecn, "roce_np", false);
        writeEnables(root, ecn, "roce_rp", false);
    }
}

} // namespace nicd::sim
