// inject DIR gid-missing|mtu|uverbs-missing|umad-missing|acs-on DEV and inject DIR peermem-unload,
// and each one's <fault>-clear: what breaks a compute port's readiness (readiness_twins.hpp).
#include "cli/registry.hpp"
#include "readiness_twins.hpp"

namespace nicd::sim::cli {

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
[[maybe_unused]] static const bool nicd_sim_readiness_faults = registerToggleFaults(
    {
        {"gid-missing", "the netdev loses its IP address: no RoCE v2 GID carries one",
         &sim::gidMissing},
        {"mtu", "the device's netdevs drop to MTU 1500 (the others keep 9000)", &sim::mtuMismatch},
        {"uverbs-missing", "the device's /dev/infiniband/uverbs<N> node disappears",
         &sim::uverbsMissing},
        {"umad-missing",
         "the /dev/infiniband/umad<N> and issm<N> nodes of the device's ports disappear",
         &sim::umadMissing},
        {"acs-on", "ACS P2P Request and Completion Redirect on the root port above the device",
         &sim::acsOn},
    },
    300);

namespace {

Setup nodeWide(bool on)
{
    return [on](CLI::App&) -> Action {
        return [on](const fs::path& dir) { sim::peermemUnload(dir, on); };
    };
}

} // namespace

// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(peermem_unload, "peermem-unload",
               "nvidia_peermem is unloaded (node-wide): no GPUDirect RDMA with the proprietary "
               "driver",
               nodeWide(true), 310);
// NOLINTNEXTLINE(cert-err58-cpp): registered before main; a failure there is fatal anyway
NICD_SIM_FAULT(peermem_unload_clear, "peermem-unload-clear",
               "clears peermem-unload: nvidia_peermem is loaded again", nodeWide(false), 311);

} // namespace nicd::sim::cli
