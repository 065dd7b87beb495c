// What each D-Bus object shows for a snapshot, and which property changes are signalled:
// the cycle number never, const identity never (the object is replaced instead).
#include "dbus/bus_views.hpp"
#include "dbus/object_values.hpp"

#include <nicd/client/object_path.hpp>

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
    addSamples(ds, {sample});
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
    qos.ports[{"mlx5_0", 1}] = {true, "compliant", {{"pfc", "3", "3", true, "", false, ""}}, 1.0};
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
    // The plugin's word to the daemon (files it dropped) is no counter of the device.
    addSamples(snap.samples[0], {{"nicd", 0, "", "dropped_files", 1, SampleKind::Gauge}});
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
    next.samples[0].plugin.values[0] = 99;
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

TEST(DbusObjectValues, PreFailureSignalsOnTheirDeviceAndPortOnly)
{
    auto s = snapshot();
    Device other;
    other.ibdev = "mlx5_1";
    other.pci_address = "0000:3b:00.0";
    s.inventory.devices.push_back(other);
    s.uplinks = {{"mlx5_0", 1, "ens1f0np0", "Ethernet", 400, 4, true}};
    FecStats fec;
    fec.netdev = "ens1f0np0";
    fec.active = "RS";
    fec.uncorrectable_blocks = FecCounter{3, {}};
    s.fec["ens1f0np0"] = fec;
    s.health.pre_fec_ber["ens1f0np0"] = {1e-6, 2.4e-4};
    ModuleDom m;
    m.has_dom = true;
    m.standard = ModuleStandard::Cmis;
    m.temperature_celsius = 47.5;
    m.lanes = {ModuleLane{0.052, std::nullopt, 0.0011, false, false}};
    s.modules["ens1f0np0"] = m;
    s.temperatures["mlx5_0"] = {{"asic", 55, 105, std::nullopt}, {"Module0", 40, {}, {}}};
    s.pcie["mlx5_0"] = {16, 8, 32, 16, 16, 16, {}}; // the bridge above allows only 16 GT/s
    s.reporters = {{"pci/0000:1a:00.0", "fw_fatal", false, "error", 2, 1},
                   {"pci/0000:3b:00.0", "fw", true, "healthy", 0, 0}};

    auto t = treeValuesOf(s, {}, "1");
    const auto& dev = t.devices.at("/io/nicd/Nicd1/device/mlx5_0").signals;
    EXPECT_EQ(dev.temperatures, (std::map<std::string, double>{{"Module0", 40}, {"asic", 55}}));
    EXPECT_EQ(dev.temperature_limits, (std::map<std::string, double>{{"asic", 105}}));
    EXPECT_EQ(dev.pcie, (PcieLinkRow{16, 8, 16, 16}));
    ASSERT_EQ(dev.reporters.size(), 1U);
    EXPECT_EQ(dev.reporters[0], (ReporterRow{"pci/0000:1a:00.0", "fw_fatal", "error", 2, 1}));

    const auto& port = t.ports.at("/io/nicd/Nicd1/device/mlx5_0/port/1").uplinks;
    ASSERT_EQ(port.size(), 1U);
    EXPECT_EQ(port[0].netdev, "ens1f0np0");
    EXPECT_EQ(port[0].fec_mode, "RS");
    EXPECT_EQ(port[0].module, "cmis");
    EXPECT_EQ(port[0].values,
              (std::map<std::string, double>{{"fec_pre_ber", 1e-6},
                                             {"fec_pre_ber_limit", 2.4e-4},
                                             {"fec_uncorrectable_blocks", 3},
                                             {"lane1_rx_power_watts", 0.0011},
                                             {"lane1_tx_bias_amperes", 0.052},
                                             {"module_temperature_celsius", 47.5}}));

    // The other card: its own reporter, nothing read for the rest, nothing made up.
    const auto& bare = t.devices.at("/io/nicd/Nicd1/device/mlx5_1").signals;
    EXPECT_TRUE(bare.temperatures.empty());
    EXPECT_EQ(bare.pcie, PcieLinkRow{});
    ASSERT_EQ(bare.reporters.size(), 1U);
    EXPECT_EQ(bare.reporters[0].name, "fw");

    // A new reading is a PropertiesChanged of exactly what moved.
    auto later = s;
    later.temperatures["mlx5_0"][0].celsius = 56;
    later.modules["ens1f0np0"].lanes[0].rx_power_watts = 0.0001;
    auto t2 = treeValuesOf(later, {}, "1");
    EXPECT_EQ(changedProperties(t.devices.at("/io/nicd/Nicd1/device/mlx5_0"),
                                t2.devices.at("/io/nicd/Nicd1/device/mlx5_0")),
              std::vector<std::string>{"Temperatures"});
    EXPECT_EQ(changedProperties(t.ports.at("/io/nicd/Nicd1/device/mlx5_0/port/1"),
                                t2.ports.at("/io/nicd/Nicd1/device/mlx5_0/port/1")),
              std::vector<std::string>{"Uplinks"});
}

TEST(DbusObjectValues, ACopperCableShowsNoDiagnostics)
{
    auto s = snapshot();
    s.uplinks = {{"mlx5_0", 1, "ens1f0np0", "Ethernet", 400, 4, true}};
    ModuleDom dac;
    dac.identifier = 0x11;
    dac.standard = ModuleStandard::Sff8636;
    s.modules["ens1f0np0"] = dac;
    auto t = treeValuesOf(s, {}, "1");
    const auto& port = t.ports.at("/io/nicd/Nicd1/device/mlx5_0/port/1").uplinks;
    ASSERT_EQ(port.size(), 1U);
    EXPECT_EQ(port[0].module, "no-diagnostics");
    EXPECT_EQ(port[0].fec_mode, "");
    EXPECT_TRUE(port[0].values.empty());
}

TEST(DbusObjectValues, ReadinessOfAJudgedPortAndItsChecks)
{
    auto s = snapshot();
    EXPECT_EQ(treeValuesOf(s, {}, "1").ports.begin()->second.ready, "") << "not judged";
    s.health.readiness[{"mlx5_0", 1}] = {
        {"gid", ReadyCheck::Verdict::Ok, "gid 3: RoCE v2 ::ffff:10.0.0.5 on ens1f0np0"},
        {"acs", ReadyCheck::Verdict::Unknown, "needs CAP_SYS_ADMIN"}};
    auto ready = treeValuesOf(s, {}, "1");
    const auto& port = ready.ports.begin()->second;
    EXPECT_EQ(port.ready, "yes");
    ASSERT_EQ(port.ready_checks.size(), 2U);
    EXPECT_EQ(port.ready_checks[1], (ReadyCheckRow{"acs", "unknown", "needs CAP_SYS_ADMIN"}));
    Condition c;
    c.code = "ready.no_uverbs";
    c.device = "mlx5_0";
    c.port = 1;
    c.severity = ConditionSeverity::Fatal;
    s.health.conditions.push_back(c);
    auto not_ready = treeValuesOf(s, {}, "1");
    EXPECT_EQ(not_ready.ports.begin()->second.ready, "no");
    auto changed = changedProperties(port, not_ready.ports.begin()->second);
    EXPECT_NE(std::find(changed.begin(), changed.end(), "Ready"), changed.end());
}
