// A QoS setting the NIC gives nicd no interface for (the plugin reads it "unsupported": ECN on
// bnxt) is a result of its own wherever nicd shows QoS, never counted compliant: nicctl verify's
// rows, summary, JSON and exit code, the D-Bus port properties, the textfile and nicd --once.
#include "dbus/bus_views.hpp"
#include "dbus/object_values.hpp"
#include "replies.hpp"
#include "report/once_report.hpp"
#include "support/render_textfile.hpp"

#include <gtest/gtest.h>

using namespace nicd;

namespace {

// bnxt_re0 port 1 as nicd-sim's bnxt reads: trust and PFC set, ECN without an interface.
QosSummary bnxtQos()
{
    QosSummary q;
    q.mode = "enforce";
    auto& port = q.ports[{"bnxt_re0", 1}];
    port.managed = true;
    port.status = "compliant"; // as the tracker says: nothing to repair
    port.settings.push_back({"trust", "dscp", "dscp", true, "", false, ""});
    port.settings.push_back({"pfc", "3", "3", true, "", false, ""});
    port.settings.push_back({"ecn_np", "3", "unsupported", true, "", false, ""});
    port.settings.push_back({"ecn_rp", "3", "unsupported", true, "", false, ""});
    return q;
}

Snapshot bnxtNode()
{
    Snapshot s;
    Device d;
    d.ibdev = "bnxt_re0";
    d.pci_address = "0000:41:00.0";
    d.driver = "bnxt_en";
    d.plugin = "bnxt";
    Port p;
    p.num = 1;
    p.state = 4;
    p.link_layer = "Ethernet";
    p.netdevs = {"ens2f0np0"};
    d.ports = {p};
    s.inventory.devices = {d};
    s.health.devices["bnxt_re0"] = Health::Healthy;
    s.health.ports[{"bnxt_re0", 1}] = Health::Healthy;
    s.qos = bnxtQos();
    return s;
}

} // namespace

TEST(QosUnsupported, NicctlVerifyShowsItAndCountsItApartNotCompliant)
{
    using nicd::dbus::QosResultRow;
    // As the bus carries them: unsupported is compliant=false there.
    std::vector<QosResultRow> rows{{"bnxt_re0", 1, "trust", "dscp", "dscp", true, false, ""},
                                   {"bnxt_re0", 1, "pfc", "3", "3", true, false, ""},
                                   {"bnxt_re0", 1, "ecn_np", "3", "unsupported", false, false, ""},
                                   {"bnxt_re0", 1, "ecn_rp", "3", "unsupported", false, false, ""}};
    auto out = nicctl::renderQosRows(rows, false);
    EXPECT_NE(out.find("bnxt_re0/1 ecn_np  3       unsupported -      unsupported\n"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("4 settings: 2 compliant, 2 unsupported by the NIC, 0 changed, 0 with "
                       "errors."),
              std::string::npos)
        << out;
    EXPECT_EQ(nicctl::qosExitCode(rows, false), 0) << "nothing nicd or the operator can rerun";
    auto j = nicctl::qosRowsJson(rows);
    EXPECT_EQ(j[2]["result"], "unsupported");
    EXPECT_EQ(j[2]["compliant"], false);
    EXPECT_EQ(j[0]["result"], "compliant");

    rows[1].observed = "4";
    rows[1].compliant = false;
    EXPECT_EQ(nicctl::qosExitCode(rows, false), 1) << "a noncompliant setting still is one";
    EXPECT_NE(nicctl::renderQosRows(rows, false).find("4 settings: 1 compliant, 2 unsupported"),
              std::string::npos);
}

TEST(QosUnsupported, DbusPortSaysUnsupportedAndFalseAndTheStatusIgnoresIt)
{
    auto t = dbus::treeValuesOf(bnxtNode(), dbus::busViewsOf(bnxtQos()), "1");
    const auto& port = t.ports.at("/io/nicd/Nicd1/device/bnxt_re0/port/1");
    EXPECT_EQ(port.qos_observed.at("ecn_np"), "unsupported");
    EXPECT_FALSE(port.qos_compliant.at("ecn_np"));
    EXPECT_TRUE(port.qos_compliant.at("pfc"));
    EXPECT_EQ(port.qos_status, "compliant") << "every setting nicd can set is";

    plugin::v1::QosReport report;
    report.settings.push_back({"pfc", "3", "3", true, false, ""});
    report.settings.push_back({"ecn_np", "3", "unsupported", true, false, ""});
    auto view = dbus::qosViewOf(report, "");
    EXPECT_FALSE(view.settings.at("ecn_np").compliant);
    EXPECT_TRUE(view.settings.at("pfc").compliant);
}

TEST(QosUnsupported, TextfileHasItsOwnFamilyAndNoComplianceForIt)
{
    const auto text = test::renderTextfile(bnxtNode());
    EXPECT_NE(
        text.find("nicd_qos_unsupported{device=\"bnxt_re0\",port=\"1\",setting=\"ecn_np\"} 1\n"),
        std::string::npos)
        << text;
    EXPECT_EQ(text.find("nicd_qos_compliant{device=\"bnxt_re0\",port=\"1\",setting=\"ecn_np\"}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("nicd_qos_compliant{device=\"bnxt_re0\",port=\"1\",setting=\"pfc\"} 1\n"),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("nicd_qos_unsupported{device=\"bnxt_re0\",port=\"1\",setting=\"pfc\"}"),
              std::string::npos);
}

TEST(QosUnsupported, OnceReportCountsItAndItsJsonIsNotCompliant)
{
    const auto text = report::qosReport(bnxtQos(), false);
    EXPECT_NE(text.find("1 port compliant; 2 settings unsupported by the NIC (nicd cannot set "
                        "them)"),
              std::string::npos)
        << text;
    const auto verbose = report::qosReport(bnxtQos(), true);
    EXPECT_NE(verbose.find("ecn_np        want 3          have unsupported not settable on this "
                           "NIC"),
              std::string::npos)
        << verbose;

    const auto j = report::onceJson(bnxtNode());
    const auto& settings = j["qos"]["ports"][0]["settings"];
    EXPECT_EQ(settings[2]["setting"], "ecn_np");
    EXPECT_EQ(settings[2]["compliant"], false);
    EXPECT_EQ(settings[2]["unsupported"], true);
    EXPECT_EQ(settings[1]["compliant"], true);
    EXPECT_EQ(settings[1]["unsupported"], false);
}
