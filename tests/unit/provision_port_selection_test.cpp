// Which ports provisioning touches: every rule of DESIGN.md §5 / the provisioning issue, point 3.
#include "provision/port_selection.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::provision;

namespace {

Port ethPort(const std::string& netdev, int state = 4)
{
    Port p;
    p.num = 1;
    p.state = state;
    p.state_name = state == 4 ? "ACTIVE" : "DOWN";
    p.link_layer = "Ethernet";
    p.netdevs = {netdev};
    return p;
}

Device pfDevice(const std::string& name, DeviceFunction role, Port port, std::string bond = {})
{
    Device d;
    d.ibdev = name;
    d.driver = "mlx5_core";
    d.plugin = "mlx5";
    d.function = role;
    d.bond_master = std::move(bond);
    d.ports = {std::move(port)};
    return d;
}

class PortSelection : public ::testing::Test {
protected:
    void SetUp() override
    {
        inv_.devices.push_back(pfDevice("mlx5_0", DeviceFunction::Physical, ethPort("ens1f0np0")));
        Port ib = ethPort("ib0");
        ib.link_layer = "InfiniBand";
        inv_.devices.push_back(pfDevice("mlx5_4", DeviceFunction::Physical, ib));
        inv_.devices.push_back(
            pfDevice("mlx5_5", DeviceFunction::VirtualFunction, ethPort("ens1f0v0")));
        inv_.devices.push_back(
            pfDevice("mlx5_6", DeviceFunction::Physical, ethPort("ens6f0np0", 1)));
        inv_.devices.push_back(
            pfDevice("mlx5_7", DeviceFunction::BondMember, ethPort("ens7f0np0"), "bond1"));
        inv_.devices.push_back(pfDevice("mlx5_8", DeviceFunction::Physical, ethPort("eno8np0")));
        inv_.devices.push_back(
            pfDevice("mlx5_bond_0", DeviceFunction::Lag, ethPort("bond0"), "bond0"));
        Device unmanaged = pfDevice("rxe0", DeviceFunction::Physical, ethPort("eth9"));
        unmanaged.plugin.clear();
        inv_.devices.push_back(unmanaged);
        for (const auto& d : inv_.devices)
            netdevs_[d.ports[0].netdevs[0]] = {d.ports[0].netdevs[0],
                                               d.ports[0].state == 4 ? "up" : "down", true, 1};
    }

    std::map<std::string, PortPlan> plans(std::set<std::string> default_route = {})
    {
        SelectionInput in{inv_,
                          netdevs_,
                          config_,
                          std::move(default_route),
                          {{"bond0", {"ens5f0np0", "ens5f1np1"}}, {"bond1", {"ens7f0np0"}}}};
        std::map<std::string, PortPlan> out;
        for (auto& p : planPorts(in))
            out[p.device] = p;
        return out;
    }

    Inventory inv_;
    std::map<std::string, NetdevState> netdevs_;
    Config config_;
};

TEST_F(PortSelection, AnUpMlx5PfIsProvisionedWithTheConfiguredSettings)
{
    config_.provision.settings.pfc_priorities = {3, 4};
    config_.provision.settings.roce_tos = 96;
    auto p = plans()["mlx5_0"];
    EXPECT_TRUE(p.managed) << p.reason;
    EXPECT_EQ(p.target.netdevs, std::vector<std::string>{"ens1f0np0"});
    EXPECT_TRUE(p.desired.trust_dscp);
    EXPECT_EQ(p.desired.pfc_priorities, (std::vector<uint8_t>{3, 4}));
    EXPECT_EQ(p.desired.roce_tos, 96);
}

TEST_F(PortSelection, VfsInfinibandAndUnmanagedDevicesAreSkipped)
{
    auto all = plans();
    EXPECT_FALSE(all["mlx5_5"].managed);
    EXPECT_NE(all["mlx5_5"].reason.find("virtual function"), std::string::npos);
    EXPECT_FALSE(all["mlx5_4"].managed);
    EXPECT_NE(all["mlx5_4"].reason.find("InfiniBand"), std::string::npos);
    EXPECT_FALSE(all["rxe0"].managed);
    EXPECT_NE(all["rxe0"].reason.find("no plugin"), std::string::npos);
}

TEST_F(PortSelection, ADownPortWaitsAndIsProvisionedOnceItIsUp)
{
    auto p = plans()["mlx5_6"];
    EXPECT_FALSE(p.managed);
    EXPECT_EQ(p.reason.rfind("waiting:", 0), 0U) << p.reason;
    inv_.devices[3].ports[0].state = 4;
    netdevs_["ens6f0np0"].operstate = "up";
    EXPECT_TRUE(plans()["mlx5_6"].managed);
    // IB state up but the netdev still down: wait for it too.
    netdevs_["ens6f0np0"].operstate = "down";
    EXPECT_FALSE(plans()["mlx5_6"].managed);
}

TEST_F(PortSelection, LagAndBondMembersAreSkippedByDefault)
{
    auto all = plans();
    EXPECT_FALSE(all["mlx5_bond_0"].managed);
    EXPECT_NE(all["mlx5_bond_0"].reason.find("Bonds=skip"), std::string::npos);
    EXPECT_FALSE(all["mlx5_7"].managed);
    EXPECT_NE(all["mlx5_7"].reason.find("member of bond bond1"), std::string::npos);
}

TEST_F(PortSelection, BondsConfigureTargetsTheLagMembersAndTheLagDevicesTos)
{
    config_.provision.bonds = BondPolicy::Configure;
    auto all = plans();
    ASSERT_TRUE(all["mlx5_bond_0"].managed) << all["mlx5_bond_0"].reason;
    EXPECT_EQ(all["mlx5_bond_0"].target.netdevs,
              (std::vector<std::string>{"ens5f0np0", "ens5f1np1"}));
    EXPECT_EQ(all["mlx5_bond_0"].device, "mlx5_bond_0"); // ToS goes to the LAG device
    EXPECT_TRUE(all["mlx5_7"].managed);
}

TEST_F(PortSelection, ExcludedDevicesAndNetdevsAreLeftAlone)
{
    config_.provision.exclude_devices = {"mlx5_[0-1]"};
    config_.provision.exclude_netdevs = {"eno*"};
    auto all = plans();
    EXPECT_FALSE(all["mlx5_0"].managed);
    EXPECT_EQ(all["mlx5_0"].reason, "excluded by ExcludeDevices=mlx5_[0-1]");
    EXPECT_FALSE(all["mlx5_8"].managed);
    EXPECT_EQ(all["mlx5_8"].reason, "netdev eno8np0 excluded by ExcludeNetdevs=eno*");
}

TEST_F(PortSelection, TheDefaultRouteNetdevIsLeftAloneUnlessIncluded)
{
    auto p = plans({"eno8np0"})["mlx5_8"];
    EXPECT_FALSE(p.managed);
    EXPECT_NE(p.reason.find("carries the default route"), std::string::npos) << p.reason;
    EXPECT_NE(p.reason.find("IncludeNetdevs="), std::string::npos) << p.reason;
    config_.provision.include_netdevs = {"eno8*"};
    EXPECT_TRUE(plans({"eno8np0"})["mlx5_8"].managed);
}

TEST_F(PortSelection, ModeOffPerDeviceAndOverridesPerDevice)
{
    config_.devices["mlx5_0"].mode = ProvisionMode::Off;
    config_.devices["mlx5_8"].roce_tos = 24;
    config_.devices["mlx5_8"].mode = ProvisionMode::Verify;
    auto all = plans();
    EXPECT_FALSE(all["mlx5_0"].managed);
    EXPECT_EQ(all["mlx5_0"].reason, "Mode=off");
    EXPECT_TRUE(all["mlx5_8"].managed);
    EXPECT_EQ(all["mlx5_8"].mode, ProvisionMode::Verify);
    EXPECT_EQ(all["mlx5_8"].desired.roce_tos, 24);
}

} // namespace
