// nicd_client's wire types are the signatures dbus/io.nicd.Nicd1.*.xml declares (nicctl reads a
// property of another type as empty, without an error), and every row crosses the wire and back
// unchanged: what nicd publishes is what nicctl shows.
#include "support/sim_tree.hpp"

#include <nicd/client/wire_values.hpp>

#include <regex>

#include <gtest/gtest.h>

using namespace nicd::dbus;

namespace {

// The type="..." of the property, or of the method's (or signal's) only out argument, `name`
// in the interface's introspection XML.
std::string xmlType(const std::string& interface, const std::string& name)
{
    auto xml = nicd::test::readFile(std::string(NICD_SOURCE_DIR) + "/dbus/io.nicd.Nicd1." +
                                    interface + ".xml");
    std::smatch m;
    std::regex property("<property name=\"" + name + "\" type=\"([^\"]+)\"");
    if (std::regex_search(xml, m, property))
        return m[1];
    std::regex method("<method name=\"" + name +
                      "\">[\\s\\S]*?type=\"([^\"]+)\" direction=\"out\"");
    if (std::regex_search(xml, m, method))
        return m[1];
    return "(not in " + interface + ")";
}

template <typename T> std::string signatureOf()
{
    return sdbus::signature_of<T>::str();
}

} // namespace

TEST(ClientWireValues, TheWireTypesAreTheInterfacesSignatures)
{
    EXPECT_EQ(signatureOf<std::vector<ConditionWire>>(), xmlType("Device", "Conditions"));
    EXPECT_EQ(signatureOf<std::vector<ConditionWire>>(), xmlType("Port", "Conditions"));
    EXPECT_EQ(signatureOf<std::vector<NodeConditionWire>>(), xmlType("Manager", "Conditions"));
    EXPECT_EQ(signatureOf<PcieLinkWire>(), xmlType("Device", "PcieLink"));
    EXPECT_EQ(signatureOf<std::vector<ReporterWire>>(), xmlType("Device", "HealthReporters"));
    EXPECT_EQ(signatureOf<std::vector<UplinkWire>>(), xmlType("Port", "Uplinks"));
    EXPECT_EQ(signatureOf<std::vector<ReadyCheckWire>>(), xmlType("Port", "ReadyChecks"));
    EXPECT_EQ(signatureOf<std::vector<PlaneWire>>(), xmlType("Port", "Planes"));
    EXPECT_EQ(signatureOf<std::vector<NeighborWire>>(), xmlType("Port", "Neighbors"));
    EXPECT_EQ(signatureOf<std::vector<EventWire>>(), xmlType("Manager", "GetEvents"));
    EXPECT_EQ(signatureOf<QosRowsWire>(), xmlType("Manager", "Verify"));
    EXPECT_EQ(signatureOf<QosRowsWire>(), xmlType("Manager", "Apply"));
}

TEST(ClientWireValues, EveryRowCrossesTheWireUnchanged)
{
    ConditionRow c{"mlx5_7", "device_missing", "fatal", 1,          "device",
                   "gone",   "reseat",         42,      "reset_nic"};
    EXPECT_EQ(rowOf(nodeConditionWireOf(c)), c);
    // A Device or Port object's conditions are its own: the device is not on the wire.
    auto own = rowOf(wireOf(c));
    EXPECT_EQ(own.device, "");
    own.device = c.device;
    EXPECT_EQ(own, c);

    ReadyCheckRow check{"gid", "failed", "no RoCE v2 GID"};
    EXPECT_EQ(rowOf(wireOf(check)), check);
    PlaneRow plane{2, "smi0", "ACTIVE", "200 Gb/sec (1X XDR)"};
    EXPECT_EQ(rowOf(wireOf(plane)), plane);
    NeighborRow neighbor{"leaf-07", "swp12", "0c:42:a1:00:07:00", "swp12", "10.0.7.1", 120};
    EXPECT_EQ(rowOf(wireOf(neighbor)), neighbor);
    PcieLinkRow pcie{16, 8, 32, 16};
    EXPECT_EQ(rowOf(wireOf(pcie)), pcie);
    std::vector<ReporterRow> reporters{{"pci/0000:1a:00.0", "fw", "healthy", 0, 0},
                                       {"pci/0000:1a:00.0", "tx", "error", 3, 2}};
    EXPECT_EQ(rowsOf(wireOf(reporters)), reporters);
    UplinkRow uplink{"ens1f0np0", "RS", "cmis", {{"fec_pre_ber", 3.1e-6}}};
    EXPECT_EQ(rowOf(wireOf(uplink)), uplink);

    EventRow e{7, 1'700'000'000'000'000, "raised", "fatal",      "mlx5_1",
               1, "port_down",           "down",   "check_cable"};
    EXPECT_EQ(rowOf(wireOf(e)), e);
    QosResultRow q{"mlx5_0", 1, "pfc", "3", "4", false, true, "EBUSY"};
    EXPECT_EQ(rowOf(wireOf(q)), q);
}
