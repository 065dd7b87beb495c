// What each D-Bus object shows for a snapshot, and which property changes are signalled:
// the cycle number never, const identity never (the object is replaced instead).
#include "dbus/bus_views.hpp"
#include "dbus/object_path.hpp"
#include "dbus/object_values.hpp"

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::dbus;

namespace {

Snapshot snapshot()
{
    Snapshot s;
    Device d;
    d.ibdev = "mlx5_0";
    d.pci_address = "0000:1a:00.0";
    d.driver = "mlx5_core";
    d.plugin = "mlx5";
    d.fw_ver = "28.39.1002";
    Port p;
    p.num = 1;
    p.state = 4;
    p.state_name = "ACTIVE";
    p.link_layer = "Ethernet";
    p.netdevs = {"ens1f0np0"};
    d.ports = {p};
    s.inventory.devices = {d};
    s.netdevs["ens1f0np0"] = {"ens1f0np0", "up", true, 4};
    DeviceSamples ds;
    ds.ibdev = "mlx5_0";
    plugin::v1::Sample sample;
    sample.source = "hw_counters";
    sample.port = 1;
    sample.name = "out_of_buffer";
    sample.value = 7;
    ds.samples = {sample};
    s.samples = {ds};
    s.health.devices["mlx5_0"] = Health::Healthy;
    s.health.ports[{"mlx5_0", 1}] = Health::Healthy;
    s.cycle = 3;
    return s;
}

} // namespace

TEST(DbusObjectValues, PathsFollowTheContract)
{
    EXPECT_EQ(devicePath("mlx5_bond_0"), "/io/nicd/Nicd1/device/mlx5_bond_0");
    EXPECT_EQ(portPath("mlx5_0", 2), "/io/nicd/Nicd1/device/mlx5_0/port/2");
    EXPECT_EQ(encodePathElement("a-b.c"), "a_2db_2ec");
    EXPECT_EQ(encodePathElement(""), "_");
}

TEST(DbusObjectValues, ATreeForOneDevice)
{
    QosSummary qos;
    qos.mode = "enforce";
    qos.ports[{"mlx5_0", 1}] = {true, "compliant", {{"pfc", "3", "3", true, ""}}, 1.0};
    auto t = treeValuesOf(snapshot(), busViewsOf(qos), "1.2.3");
    EXPECT_EQ(t.manager.version, "1.2.3");
    EXPECT_EQ(t.manager.health, "healthy");
    EXPECT_EQ(t.manager.device_count, 1U);
    EXPECT_EQ(t.manager.port_count, 1U);
    EXPECT_EQ(t.manager.provision_mode, "enforce");
    const auto& dev = t.devices.at("/io/nicd/Nicd1/device/mlx5_0");
    EXPECT_EQ(dev.pci_address, "0000:1a:00.0");
    EXPECT_EQ(dev.netdevs, std::vector<std::string>{"ens1f0np0"});
    const auto& port = t.ports.at("/io/nicd/Nicd1/device/mlx5_0/port/1");
    EXPECT_EQ(port.operstate, "up");
    EXPECT_EQ(port.qos_status, "compliant");
    EXPECT_EQ(port.qos_observed.at("pfc"), "3");
}

// GetCounters: a port's counters by "<source>.<name>", made from the snapshot when asked.
TEST(DbusObjectValues, CountersOfAPortOrADeviceAndNothingForWhatIsNotThere)
{
    auto snap = snapshot();
    auto port = countersOf(snap, "mlx5_0", 1);
    ASSERT_TRUE(port);
    EXPECT_EQ(port->at("hw_counters.out_of_buffer"), 7U);
    auto device = countersOf(snap, "mlx5_0", 0);
    ASSERT_TRUE(device);
    EXPECT_TRUE(device->empty()) << "no device-wide samples in this snapshot";
    EXPECT_FALSE(countersOf(snap, "mlx5_0", 2));
    EXPECT_FALSE(countersOf(snap, "mlx5_9", 1));
}

TEST(DbusObjectValues, SkippedPortsSayWhyAndUnverifiedOnesAreUnknown)
{
    QosSummary qos;
    qos.ports[{"mlx5_0", 1}] = {false, "skipped: virtual function (QoS belongs to its PF)", {}, 0};
    auto t = treeValuesOf(snapshot(), busViewsOf(qos), "1");
    EXPECT_EQ(t.ports.begin()->second.qos_status,
              "skipped: virtual function (QoS belongs to its PF)");
    t = treeValuesOf(snapshot(), busViewsOf({}), "1");
    EXPECT_EQ(t.ports.begin()->second.qos_status, "unknown");
}

TEST(DbusObjectValues, OnlySignallingPropertiesAreReportedAsChanged)
{
    auto a = treeValuesOf(snapshot(), {}, "1");
    auto next = snapshot();
    next.cycle = 4;
    next.samples[0].samples[0].value = 99;
    auto b = treeValuesOf(next, {}, "1");
    EXPECT_TRUE(changedProperties(a.manager, b.manager).empty()) << "Cycle does not signal";
    EXPECT_TRUE(changedProperties(a.ports.begin()->second, b.ports.begin()->second).empty())
        << "Counters do not signal";

    next.inventory.devices[0].ports[0].state_name = "DOWN";
    next.netdevs["ens1f0np0"].operstate = "down";
    next.health.ports[{"mlx5_0", 1}] = Health::Fatal;
    auto c = treeValuesOf(next, {}, "1");
    EXPECT_EQ(changedProperties(a.ports.begin()->second, c.ports.begin()->second),
              (std::vector<std::string>{"State", "OperState", "Health"}));
    EXPECT_EQ(changedProperties(a.manager, c.manager), (std::vector<std::string>{"Health"}));
}

TEST(DbusObjectValues, IdentityChangesReplaceTheObject)
{
    auto a = treeValuesOf(snapshot(), {}, "1");
    auto s = snapshot();
    s.inventory.devices[0].pci_address = "0000:1b:00.0";
    auto b = treeValuesOf(s, {}, "1");
    EXPECT_TRUE(identityChanged(a.devices.begin()->second, b.devices.begin()->second));
    EXPECT_FALSE(identityChanged(a.ports.begin()->second, b.ports.begin()->second));
}
