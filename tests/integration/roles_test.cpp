// Every device's role, found on the simulated GPU node without configuration (GPUs beside the
// compute NICs on socket 0; the default route on a management netdev), overridden by
// [device:<ibdev>] Role=, and the node verdict that weighs devices by it.
#include "sim.hpp"
#include "support/daemon_fixture.hpp"
#include "support/process.hpp"

#include <fstream>
#include <regex>

#include <gtest/gtest.h>

using namespace nicd;
namespace fs = std::filesystem;

namespace {

class RolesTest : public test::DaemonTest {
protected:
    void SetUp() override
    {
        DaemonTest::SetUp();
        config("");
    }
    void config(const std::string& extra) { writeConfig("[provision]\nMode=off\n" + extra); }
    // The role label of `device` on nicd_device_info.
    std::string roleOf(const std::string& text, const std::string& device)
    {
        std::smatch m;
        std::regex re("nicd_device_info\\{device=\"" + device + "\"[^}]*role=\"([a-z]+)\"");
        return std::regex_search(text, m, re) ? m[1].str() : "";
    }
    std::string nodeHealth(const std::string& text)
    {
        std::smatch m;
        return std::regex_search(text, m, std::regex("\nnicd_node_health ([0-9])\n")) ? m[1].str()
                                                                                      : "";
    }
};

} // namespace

TEST_F(RolesTest, EachSimulatedDeviceHasItsRole)
{
    auto out = once();
    auto text = textfileText();
    for (const char* d : {"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_5"})
        EXPECT_EQ(roleOf(text, d), "compute") << d << " shares its root port with a GPU\n" << out;
    for (const char* d : {"mlx5_4", "mlx5_6", "mlx5_bond_0"})
        EXPECT_EQ(roleOf(text, d), "storage") << d << " has no GPU on its socket\n" << out;
    EXPECT_NE(text.find("role=\"compute\",function=\"vf\""), std::string::npos)
        << "the VF keeps its function beside its role";
    EXPECT_EQ(nodeHealth(text), "0") << out;
}

// The default route through an RDMA netdev makes its device a management NIC; Role= wins over
// what is found.
TEST_F(RolesTest, TheDefaultRouteMakesAManagementNicAndRoleOverrides)
{
    auto route_file = root_ / "proc/net/route";
    auto route = test::readFile(route_file);
    auto at = route.find("eno1\t00000000");
    ASSERT_NE(at, std::string::npos);
    route.replace(at, 4, "ens2f0np0");
    std::ofstream(route_file) << route;
    config("[device:mlx5_6]\nRole=compute\n");
    once();
    auto text = textfileText();
    EXPECT_EQ(roleOf(text, "mlx5_1"), "management");
    EXPECT_EQ(roleOf(text, "mlx5_6"), "compute");
    EXPECT_EQ(roleOf(text, "mlx5_0"), "compute");
}

// A dead management NIC is not a broken training fabric: the node is degraded, not fatal. The
// same failure on a compute NIC is fatal for the node.
TEST_F(RolesTest, TheNodeVerdictWeighsDevicesByRole)
{
    auto route_file = root_ / "proc/net/route";
    auto route = test::readFile(route_file);
    route.replace(route.find("eno1\t00000000"), 4, "ens2f0np0");
    std::ofstream(route_file) << route;
    // Four GPUs expect four compute NICs (ExpectPorts=auto): with mlx5_1 made management there
    // are three, and the node is short (inventory_test.cpp); here only the roles weigh.
    config("[health]\nExpectPorts=none\n");
    once(); // mlx5_1 and mlx5_0 are known, up
    sim::linkDown(root_, "mlx5_1", 1);
    auto out = once();
    auto text = textfileText();
    EXPECT_NE(text.find("nicd_device_health{device=\"mlx5_1\"} 2"), std::string::npos) << out;
    EXPECT_EQ(nodeHealth(text), "1") << "a fatal management NIC leaves the node degraded\n" << out;
    EXPECT_NE(out.find("node health: degraded"), std::string::npos) << out;
    sim::linkDown(root_, "mlx5_0", 1);
    out = once();
    EXPECT_EQ(nodeHealth(textfileText()), "2") << "a fatal compute NIC is a fatal node\n" << out;
}
