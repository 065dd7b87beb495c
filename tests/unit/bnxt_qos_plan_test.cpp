// The bnxt plugin's pure QoS planning: the DSCP APP entries that are its DSCP trust, the ETS it
// sets before the first PFC change, who owns a port's DCB by its DCBX byte and when that is news,
// and the congestion-control enable it reads from debugfs.
#include "bnxt/qos/congestion.hpp"
#include "bnxt/qos/dcbx_owner.hpp"
#include "bnxt/qos/dscp_apps.hpp"
#include "bnxt/qos/ets_plan.hpp"

#include <gtest/gtest.h>

using namespace nicd::bnxt;
namespace pv1 = nicd::plugin::v1;
using App = dcb::App;

TEST(BnxtDscpApps, RoceDscpGoesToTheLowestPfcPriority)
{
    pv1::QosDesired want{.trust_dscp = true, .pfc_priorities = {5, 3}, .roce_tos = 106};
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 3, 26}}));
    // No lossless priority: the DSCP's class selector (106 >> 5 = 3, 184 >> 5 = 5).
    want.pfc_priorities.clear();
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 3, 26}}));
    want.roce_tos = 184;
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 5, 46}}));
    EXPECT_TRUE(wantedDscpApps({.trust_dscp = false, .pfc_priorities = {3}}, true).empty());
}

TEST(BnxtDscpApps, CnpDscpOnlyWhenConfiguredAndTheDaemonSendsIt)
{
    pv1::QosDesired want{.trust_dscp = true, .pfc_priorities = {3}, .roce_tos = 106};
    want.cnp_dscp = 48;
    want.cnp_priority = 7;
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 3, 26}, {5, 7, 48}}));
    EXPECT_EQ(wantedDscpApps(want, false), (std::vector<App>{{5, 3, 26}})) << "ABI < 1.2";
    want.cnp_priority.reset();
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 3, 26}, {5, 3, 48}}));
    want.cnp_dscp = 26; // the same DSCP as RoCE: one entry, RoCE's
    EXPECT_EQ(wantedDscpApps(want, true), (std::vector<App>{{5, 3, 26}}));
}

TEST(BnxtDscpApps, PlanDeletesTheStaleMappingAndLeavesOthersAlone)
{
    const std::vector<App> wanted{{5, 3, 26}, {5, 7, 48}};
    // 26 -> 5 is stale (the kernel would keep both and the firmware the last written); 10 -> 1
    // is someone else's; the RoCEv2 UDP entry is not a DSCP entry.
    const std::vector<App> table{{5, 5, 26}, {5, 1, 10}, {3, 3, 4791}, {5, 7, 48}};
    auto plan = planDscpApps(table, wanted);
    EXPECT_EQ(plan.remove, (std::vector<App>{{5, 5, 26}}));
    EXPECT_EQ(plan.add, (std::vector<App>{{5, 3, 26}}));
    EXPECT_EQ(describeTrust(table, wanted), "dscp 26->5,48->7");
    EXPECT_EQ(describeWantedTrust(wanted), "dscp 26->3,48->7");

    const std::vector<App> done{{5, 3, 26}, {5, 1, 10}, {5, 7, 48}};
    EXPECT_TRUE(planDscpApps(done, wanted).empty());
    EXPECT_EQ(describeTrust(done, wanted), "dscp 26->3,48->7");
}

TEST(BnxtDscpApps, TrustPcpRemovesEveryDscpEntry)
{
    const std::vector<App> table{{5, 3, 26}, {5, 1, 10}, {3, 3, 4791}};
    auto plan = planDscpApps(table, {});
    EXPECT_EQ(plan.remove, (std::vector<App>{{5, 1, 10}, {5, 3, 26}}));
    EXPECT_TRUE(plan.add.empty());
    EXPECT_EQ(describeWantedTrust({}), "pcp");
    EXPECT_EQ(describeTrust(table, {}), "dscp (2 entries for other DSCP values)");
    EXPECT_EQ(describeTrust(std::vector<App>{{3, 3, 4791}}, {}), "pcp");
}

TEST(BnxtEtsPlan, OnlyAPortWithoutEtsGetsOneAndOnlyForPfc)
{
    dcb::Ets fresh;
    fresh.cap = 7; // bnxt_dcbnl_ieee_getets on a host-owned port nothing has set
    auto plan = planEts(fresh, 0x08);
    ASSERT_TRUE(plan.set);
    EXPECT_EQ(plan.set->prio_tc, (std::array<uint8_t, 8>{0, 0, 0, 1, 0, 0, 0, 0}));
    EXPECT_EQ(plan.set->tsa, (std::array<uint8_t, 8>{2, 2, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(plan.set->tx_bw, (std::array<uint8_t, 8>{50, 50, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(describeEts(*plan.set), "prio_tc 0,0,0,1,0,0,0,0, tc0 ets 50%, tc1 ets 50%");
    EXPECT_EQ(planEts(fresh, 0x18).set->prio_tc, (std::array<uint8_t, 8>{0, 0, 0, 1, 1, 0, 0, 0}));

    EXPECT_FALSE(planEts(fresh, 0).set) << "PFC off needs no ETS";
    EXPECT_FALSE(planEts(std::nullopt, 0x08).set) << "a driver without ETS";
    dcb::Ets own = fresh;
    own.prio_tc[3] = 2;
    own.tsa[2] = dcb::kTsaStrict;
    auto kept = planEts(own, 0x08);
    EXPECT_FALSE(kept.set) << "a port with an ETS of its own keeps it";
    EXPECT_TRUE(kept.error.empty());

    dcb::Ets one_class;
    one_class.cap = 1; // QUEUE_CFG_INFO_ASYM_CFG firmware
    auto refused = planEts(one_class, 0x08);
    EXPECT_FALSE(refused.set);
    EXPECT_NE(refused.error.find("1 traffic class"), std::string::npos) << refused.error;
}

TEST(BnxtDcbxOwner, OnlyHostAndIeeeTogetherLetTheHostWrite)
{
    EXPECT_TRUE(hostOwnsDcb(0x09));
    EXPECT_FALSE(hostOwnsDcb(0x0a));
    EXPECT_FALSE(hostOwnsDcb(0x08)) << "a VF";
    EXPECT_FALSE(hostOwnsDcb(0x05)) << "HOST|CEE: bnxt refuses IEEE sets";
    EXPECT_TRUE(hostOwnsDcb(std::nullopt)) << "no getdcbx: the driver answers each set";
    EXPECT_EQ(describeDcbx(0x0a), "0x0a (LLD_MANAGED|IEEE)");
    EXPECT_EQ(describeDcbx(0x09), "0x09 (HOST|IEEE)");
    auto fw = notHostOwned("ens1f0np0", 0x0a);
    EXPECT_NE(fw.find("netdev ens1f0np0: the NIC firmware's DCBX agent owns the port's DCB"),
              std::string::npos)
        << fw;
    EXPECT_NE(fw.find("NVRAM"), std::string::npos) << fw;
    EXPECT_NE(notHostOwned("eth1", 0x08).find("a VF"), std::string::npos);
}

TEST(BnxtDcbxOwner, OneNoticePerOwnerChange)
{
    OwnerNotices n;
    EXPECT_FALSE(n.notice("eth0", 0x09)) << "host-owned at first sight is not news";
    auto taken = n.notice("eth0", 0x0a);
    ASSERT_TRUE(taken);
    EXPECT_NE(taken->find("firmware's DCBX agent"), std::string::npos);
    EXPECT_FALSE(n.notice("eth0", 0x0a));
    EXPECT_FALSE(n.notice("eth0", 0x0a));
    auto back = n.notice("eth0", 0x09);
    ASSERT_TRUE(back);
    EXPECT_NE(back->find("the host owns DCB again"), std::string::npos) << *back;
    EXPECT_FALSE(n.notice("eth0", 0x09));
    EXPECT_TRUE(n.notice("eth1", 0x0a)) << "each netdev on its own";
}

TEST(BnxtCongestion, CcEnableIsOneBoundedNumber)
{
    EXPECT_EQ(parseCcEnable("1\n"), true);
    EXPECT_EQ(parseCcEnable("0\n"), false);
    EXPECT_EQ(parseCcEnable(""), std::nullopt);
    EXPECT_EQ(parseCcEnable("-1\n"), std::nullopt);
    EXPECT_EQ(parseCcEnable("1 2\n"), std::nullopt);
    EXPECT_EQ(parseCcEnable("99999999999999999999999\n"), std::nullopt);
}
