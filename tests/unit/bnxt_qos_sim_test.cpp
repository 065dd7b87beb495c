// verifyQos/applyQos of the bnxt plugin on a simulated node: a netdev whose DCB file is bnxt's
// twin (nicd-sim's freshBnxtDcb: DCBX 0x09, ETS with ets_cap only, PFC off with pfc_cap 3) is
// provisioned (DSCP entry, ETS, PFC, ToS), verified, drifted and repaired; nicd-sim's
// dcbx-firmware fault hands the port to the firmware's DCBX agent, after which apply writes no
// DCB (the sim refuses sets with EINVAL, as bnxt_dcb.c does) but still the ToS, and logs the owner
// once; congestion control is read from debugfs cc_config where it exists, else "unsupported".
#include "bnxt/qos/qos.hpp"
#include "support/bnxt_dcb_node.hpp"
#include "support/qos_settings.hpp"
#include "support/sim_host.hpp"

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

using namespace nicd;
namespace pv1 = nicd::plugin::v1;

namespace {

class BnxtQos : public test::BnxtDcbNode {
protected:
    // The daemon's side, made on first use (the node exists once SetUp has run).
    test::SimHost& host()
    {
        if (!host_)
            host_ = std::make_unique<test::SimHost>(dir_);
        return *host_;
    }

    pv1::Status call(bool apply, pv1::QosReport& r)
    {
        return plugin::sdk::runQos(host(), dev_, dev_.ports[0], want_, r, apply, steps_);
    }

    void ccConfig(const std::string& enable_cc)
    {
        std::filesystem::path dir =
            dir_ / "sys/kernel/debug/bnxt_re" / dev_.pci_address / "cc_config";
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "enable_cc") << enable_cc;
    }

    std::unique_ptr<test::SimHost> host_;
    plugin::sdk::QosSteps steps_ = bnxt::qosSteps(); // the plugin's, kept from call to call
    pv1::DeviceRef dev_{kDevice, "0000:41:00.0", "bnxt_en", "", {{1, "Ethernet", {kNetdev}}}};
    pv1::QosDesired want_{.trust_dscp = true, .pfc_priorities = {3}, .roce_tos = 106};
};

} // namespace

TEST_F(BnxtQos, ProvisionVerifyDriftRepair)
{
    pv1::QosReport fresh;
    ASSERT_TRUE(call(false, fresh));
    EXPECT_EQ(test::settingOf(fresh, "trust").observed, "pcp");
    EXPECT_EQ(test::settingOf(fresh, "pfc").observed, "none");
    EXPECT_EQ(test::settingOf(fresh, "roce_tos").observed, "0");

    pv1::QosReport applied;
    ASSERT_TRUE(call(true, applied)) << applied.settings.size();
    for (const auto& s : applied.settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.observed << " " << s.error;
    auto dcb = sim::readDcb(dir_, kNetdev);
    EXPECT_EQ(dcb.pfc_en, 0x08);
    EXPECT_EQ(dcb.apps, (std::vector<sim::DcbApp>{{5, 3, 26}})) << "RoCE's DSCP only";
    EXPECT_EQ(dcb.prio_tc, (std::array<uint8_t, 8>{0, 0, 0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(dcb.tc_bw, (std::array<uint8_t, 8>{50, 50, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(test::readFile(dir_ / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"),
              "106\n");

    sim::qosDrift(dir_, kDevice); // PFC to 4, DSCP entries removed
    pv1::QosReport drifted;
    ASSERT_TRUE(call(false, drifted));
    EXPECT_EQ(test::settingOf(drifted, "trust").observed, "pcp");
    EXPECT_EQ(test::settingOf(drifted, "pfc").observed, "4");
    pv1::QosReport repaired;
    ASSERT_TRUE(call(true, repaired));
    for (const auto& s : repaired.settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.error;
    EXPECT_TRUE(test::settingOf(repaired, "pfc").changed);
    EXPECT_EQ(sim::readDcb(dir_, kNetdev).prio_tc, (std::array<uint8_t, 8>{0, 0, 0, 1, 0, 0, 0, 0}))
        << "the ETS nicd set is kept, not set again";
}

TEST_F(BnxtQos, FirmwareOwnedPortGetsNoDcbWritesButItsTos)
{
    sim::dcbxOwner(dir_, kDevice, true);
    const auto before = test::readFile(sim::dcbFile(dir_, kNetdev));
    for (int round = 0; round < 3; ++round) {
        pv1::QosReport r;
        EXPECT_TRUE(call(true, r)) << "no failing write, no failed call";
        EXPECT_NE(test::settingOf(r, "pfc").error.find("firmware's DCBX agent"), std::string::npos);
        EXPECT_FALSE(test::settingOf(r, "pfc").changed);
        EXPECT_TRUE(test::settingOf(r, "roce_tos").compliant);
    }
    EXPECT_EQ(test::readFile(sim::dcbFile(dir_, kNetdev)), before);
    auto owner_lines = std::count_if(host().lines.begin(), host().lines.end(), [](const auto& l) {
        return l.find("firmware's DCBX agent") != std::string::npos;
    });
    EXPECT_EQ(owner_lines, 1);

    sim::dcbxOwner(dir_, kDevice, false);
    pv1::QosReport back;
    ASSERT_TRUE(call(true, back));
    for (const auto& s : back.settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.error;
}

// ETS is a setting of its own in the report ("ets"), and [plugin:bnxt] SetEts=no leaves it
// alone: PFC on a port without ETS then fails, saying why, and nothing is written.
TEST_F(BnxtQos, EtsIsReportedAndSetEtsNoLeavesItAlone)
{
    pv1::QosReport fresh;
    ASSERT_TRUE(call(false, fresh));
    const auto& ets = test::settingOf(fresh, "ets");
    EXPECT_EQ(ets.observed, "none");
    EXPECT_FALSE(ets.compliant) << "PFC must change and bnxt takes it only after ETS";
    EXPECT_NE(ets.desired.find("PFC priorities on tc1"), std::string::npos) << ets.desired;

    host().settings["SetEts"] = "no";
    pv1::QosReport left;
    ASSERT_TRUE(call(false, left));
    EXPECT_EQ(test::settingOf(left, "ets").desired, "left alone (SetEts=no)");
    EXPECT_TRUE(test::settingOf(left, "ets").compliant);
    pv1::QosReport refused;
    EXPECT_FALSE(call(true, refused));
    EXPECT_NE(test::settingOf(refused, "pfc").error.find("SetEts=no leaves ETS alone"),
              std::string::npos)
        << test::settingOf(refused, "pfc").error;
    EXPECT_FALSE(test::settingOf(refused, "ets").changed);
    auto dcb = sim::readDcb(dir_, kNetdev);
    EXPECT_EQ(dcb.prio_tc, (std::array<uint8_t, 8>{})) << "ETS left alone";
    EXPECT_EQ(dcb.pfc_en, 0x00);

    host().settings["SetEts"] = "yes";
    pv1::QosReport applied;
    ASSERT_TRUE(call(true, applied));
    EXPECT_EQ(test::settingOf(applied, "ets").observed,
              "prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%");
    EXPECT_TRUE(test::settingOf(applied, "ets").compliant);
    EXPECT_TRUE(test::settingOf(applied, "ets").changed);
    pv1::QosReport again;
    ASSERT_TRUE(call(true, again));
    EXPECT_FALSE(test::settingOf(again, "ets").changed) << "set once";
    EXPECT_TRUE(test::settingOf(again, "ets").compliant);
}

TEST_F(BnxtQos, CongestionControlFromDebugfsOrUnsupported)
{
    pv1::QosReport r;
    ASSERT_TRUE(call(false, r));
    EXPECT_EQ(test::settingOf(r, "ecn_np").observed, "unsupported");
    EXPECT_TRUE(test::settingOf(r, "ecn_rp").compliant);

    ccConfig("1\n");
    ASSERT_TRUE(call(false, r));
    EXPECT_EQ(test::settingOf(r, "ecn_np").observed, "all (congestion control on)");
    EXPECT_TRUE(test::settingOf(r, "ecn_np").compliant);

    ccConfig("0\n");
    ASSERT_TRUE(call(false, r));
    EXPECT_FALSE(test::settingOf(r, "ecn_rp").compliant);
    EXPECT_NE(test::settingOf(r, "ecn_rp").error.find("congestion control is off"),
              std::string::npos);

    ccConfig("garbage\n");
    EXPECT_FALSE(call(false, r));
    EXPECT_NE(test::settingOf(r, "ecn_np").error.find("enable_cc"), std::string::npos);

    want_.cnp_dscp = 48;
    ccConfig("1\n");
    ASSERT_TRUE(call(false, r));
    EXPECT_EQ(test::settingOf(r, "cnp_dscp").observed, "unsupported");
}

// nicd-sim's own bnxt node (create --vendor mlx5,bnxt): its bnxt PFs' netdevs get bnxt's DCB twin
// at create, and the plugin provisions, verifies and repairs one, and leaves it alone while the
// dcbx-firmware fault hands it to the firmware's agent.
using BnxtQosOnSimNode = test::SimDirTest;

TEST_F(BnxtQosOnSimNode, MixedNodeBnxtPortProvisionsDriftsAndRepairs)
{
    sim::create(dir_, {.vendors = "mlx5,bnxt"});
    const auto st = sim::NodeState::load(dir_);
    auto bnxt = std::find_if(st.devices.begin(), st.devices.end(), [](const auto& kv) {
        return kv.second.vendor == "bnxt" && kv.second.role == "pf";
    });
    ASSERT_NE(bnxt, st.devices.end());
    const auto& d = bnxt->second;
    ASSERT_FALSE(d.netdevs.empty());
    EXPECT_EQ(sim::readDcb(dir_, d.netdevs[0]), sim::freshBnxtDcb());
    pv1::DeviceRef dev{d.name, d.pci_address, "bnxt_en", "", {{1, "Ethernet", d.netdevs}}};
    test::SimHost host(dir_);
    const plugin::sdk::QosSteps steps = bnxt::qosSteps();
    const pv1::QosDesired want{.trust_dscp = true, .pfc_priorities = {3}, .roce_tos = 106};
    auto run = [&](bool apply) {
        pv1::QosReport r;
        auto s = plugin::sdk::runQos(host, dev, dev.ports[0], want, r, apply, steps);
        EXPECT_TRUE(s) << s.message;
        return r;
    };
    for (const auto& s : run(true).settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.observed << " " << s.error;
    sim::qosDrift(dir_, d.name);
    EXPECT_EQ(test::settingOf(run(false), "pfc").observed, "4");
    for (const auto& s : run(true).settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.error;

    sim::qosDrift(dir_, d.name);
    sim::dcbxOwner(dir_, d.name, true);
    auto owned = run(true);
    EXPECT_EQ(test::settingOf(owned, "pfc").observed, "4") << "read, not written";
    EXPECT_NE(test::settingOf(owned, "pfc").error.find("firmware's DCBX agent"), std::string::npos);
    sim::dcbxOwner(dir_, d.name, false);
    for (const auto& s : run(true).settings)
        EXPECT_TRUE(s.compliant) << s.setting << ": " << s.error;
}
