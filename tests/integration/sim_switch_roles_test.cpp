// The simulated switches agree with nicd about which ports are compute: on every shape
// `nicd-sim create` makes (the default node, --devices, every --profile, a PCIe server without a
// NIC beside its GPUs), a port hears a leaf (leaf-NN, its rail) exactly when nicd calls its device
// compute, and a storage leaf otherwise; and the twin changes no verdict (nicd says the same with
// lldpd stopped).
#include "neighbors/neighbor_twin.hpp"
#include "sim.hpp"
#include "support/capture_runs.hpp"
#include "support/temp_dir.hpp"

#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class SimSwitchRoles : public test::TempDirTest {
protected:
    SimSwitchRoles() : TempDirTest("switch-roles", test::TempOn::Memory) {}

    // device -> role, from nicd_device_info.
    static std::map<std::string, std::string> roles(const std::string& textfile)
    {
        std::map<std::string, std::string> out;
        std::regex re(R"re(nicd_device_info\{device="([^"]+)"[^}]*role="([a-z]+)")re");
        for (std::sregex_iterator it(textfile.begin(), textfile.end(), re), end; it != end; ++it)
            out[(*it)[1]] = (*it)[2];
        return out;
    }

    void expectLeavesAreComputePorts(const std::string& shape, sim::CreateOptions o)
    {
        SCOPED_TRACE(shape);
        const auto root = dir_ / shape;
        o.channels = 1;
        sim::create(root, o);
        sim::createNeighborTwin(root);
        test::writeNodeConfig(root);
        const auto run = test::once(root);
        const auto role = roles(run.textfile);
        ASSERT_FALSE(role.empty()) << run.output;
        std::map<std::string, std::string> device_of; // netdev -> RDMA device
        for (const auto& d : sim::devices(root))
            for (const auto& nd : d.netdevs)
                device_of[nd] = d.name;
        const auto twin = sim::readNeighborTwin(root);
        for (const auto& [nd, list] : twin) {
            ASSERT_EQ(list.size(), 1U) << nd;
            const auto& sw = list.front().switchName();
            auto dev = device_of.find(nd);
            if (dev == device_of.end()) { // a LAG's member: the LAG is storage here
                EXPECT_TRUE(sw.starts_with("storage-leaf-")) << nd << " hears " << sw;
                continue;
            }
            EXPECT_EQ(sw.starts_with("leaf-"), role.at(dev->second) == "compute")
                << nd << " (" << dev->second << ", " << role.at(dev->second) << ") hears " << sw;
        }
        // Every compute port with a link and LLDP (not InfiniBand, not a VF) hears a leaf.
        for (const auto& d : sim::devices(root)) {
            if (role.at(d.name) != "compute" || d.role == "ib" || d.role == "vf")
                continue;
            for (const auto& nd : d.netdevs)
                EXPECT_TRUE(twin.contains(nd)) << nd << " of compute " << d.name;
        }
        // The twin changes no verdict: the same without lldpd.
        sim::lldpdStop(root, true);
        fs::remove_all(root / "var/lib/nicd");
        const auto without = test::once(root);
        EXPECT_EQ(without.rc, run.rc);
        EXPECT_EQ(test::onceVerdicts(without.output, root), test::onceVerdicts(run.output, root));
        fs::remove_all(root);
    }
};

} // namespace

TEST_F(SimSwitchRoles, ALeafExactlyForEachComputePortOnEveryShape)
{
    expectLeavesAreComputePorts("default", {});
    expectLeavesAreComputePorts("mlx5-bnxt", {.vendors = "mlx5,bnxt"});
    expectLeavesAreComputePorts("devices", {.devices = 6});
    for (const auto& profile : sim::profiles()) {
        sim::CreateOptions o;
        sim::applyProfile(o, profile);
        expectLeavesAreComputePorts(profile, o);
    }
    sim::CreateOptions front_end;
    sim::applyProfile(front_end, "hgx-h100");
    front_end.compute_nics = 0;
    front_end.storage_cards = 2;
    expectLeavesAreComputePorts("front-end", front_end);
    sim::CreateOptions ib;
    sim::applyProfile(ib, "hgx-b300");
    ib.infiniband = true;
    expectLeavesAreComputePorts("infiniband", ib);
}
