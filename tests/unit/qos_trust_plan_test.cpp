// Trust and PFC planning: what DSCP trust looks like in the APP table, which entries an apply
// adds and deletes, and that a PFC change touches only the enable bits.
#include "qos/trust_plan.hpp"

#include <gtest/gtest.h>

using namespace nicd::mlx5;
using dcb::App;

TEST(QosTrustPlan, DefaultMapIsDscpShiftedByThree)
{
    auto map = defaultDscpMap();
    ASSERT_EQ(map.size(), 64U);
    EXPECT_EQ(map[0], (App{5, 0, 0}));
    EXPECT_EQ(map[26], (App{5, 3, 26}));
    EXPECT_EQ(map[63], (App{5, 7, 63}));
}

TEST(QosTrustPlan, FreshPortTrustsPcp)
{
    std::vector<App> table{{1, 4, 0x8906}}; // an ethertype entry (FCoE) is not DSCP
    EXPECT_EQ(describeTrust(table), "pcp");
    EXPECT_TRUE(trustCompliant(table, false));
    EXPECT_FALSE(trustCompliant(table, true));
    auto plan = planTrust(table, true);
    EXPECT_EQ(plan.add, defaultDscpMap());
    EXPECT_TRUE(plan.remove.empty());
    EXPECT_TRUE(planTrust(table, false).empty());
}

TEST(QosTrustPlan, FullDefaultMapIsDscpTrust)
{
    auto table = defaultDscpMap();
    std::reverse(table.begin(), table.end()); // order does not matter
    EXPECT_EQ(describeTrust(table), "dscp");
    EXPECT_TRUE(trustCompliant(table, true));
    EXPECT_TRUE(planTrust(table, true).empty());
    auto to_pcp = planTrust(table, false);
    EXPECT_TRUE(to_pcp.add.empty());
    EXPECT_EQ(to_pcp.remove.size(), 64U);
}

TEST(QosTrustPlan, PartialOrForeignMapIsNotCompliant)
{
    std::vector<App> table{{5, 3, 26}, {5, 4, 46}};
    EXPECT_EQ(describeTrust(table), "dscp (1 of 64 default entries, 1 other)");
    EXPECT_FALSE(trustCompliant(table, true));
    EXPECT_FALSE(trustCompliant(table, false));
    auto plan = planTrust(table, true);
    EXPECT_EQ(plan.add.size(), 63U);
    EXPECT_EQ(plan.remove, (std::vector<App>{{5, 4, 46}}));
}

TEST(QosTrustPlan, DuplicateEntriesCountOnce)
{
    auto table = defaultDscpMap();
    table.push_back({5, 3, 26});
    EXPECT_TRUE(trustCompliant(table, true));
}

TEST(QosTrustPlan, PfcMaskAndDescription)
{
    EXPECT_EQ(pfcMask(std::vector<uint8_t>{3}), 0x08);
    EXPECT_EQ(pfcMask(std::vector<uint8_t>{3, 4}), 0x18);
    EXPECT_EQ(pfcMask(std::vector<uint8_t>{}), 0);
    EXPECT_EQ(pfcMask(std::vector<uint8_t>{8}), std::nullopt);
    EXPECT_EQ(describePfc(0x08), "3");
    EXPECT_EQ(describePfc(0x18), "3,4");
    EXPECT_EQ(describePfc(0), "none");
    EXPECT_EQ(describePfc(0xff), "0,1,2,3,4,5,6,7");
}

TEST(QosTrustPlan, PfcChangeKeepsEverythingButTheEnableBits)
{
    dcb::Pfc now;
    now.cap = 8;
    now.enabled = 0x10;
    now.mbc = 1;
    now.delay = 30;
    now.requests[4] = 77;
    auto next = planPfc(now, 0x08);
    EXPECT_EQ(next.enabled, 0x08);
    next.enabled = now.enabled;
    EXPECT_EQ(next, now);
}
