// The switch-versus-host QoS comparison: what an SRE reads when a switch port's DCBX disagrees
// with the host's RoCE QoS (PFC priorities, where the switch puts RoCE's DSCP, DSCP trust, an ETS
// class starved of bandwidth, both ends willing), and that ends which agree, or a switch that
// advertises nothing, give no mismatch. Switch sides are built as the decoders give them
// (dcbx_tlv_test.cpp covers the bytes); one test starts from the lldpd experiment's bytes.
#include "neighbor/switch_qos_compare.hpp"

#include <gtest/gtest.h>

namespace nicd::neighbor {

namespace {

constexpr std::string_view kPort = "leaf-07 swp12";

PfcConfig comparePfc(uint8_t bitmap, bool willing = false)
{
    return PfcConfig{willing, false, 8, bitmap};
}

// ETS with priority n in TC n, every TC ETS with 12 or 13 %, then `tc` given `percent`.
EtsConfig compareEts(uint8_t tc, uint8_t percent, Tsa tsa = Tsa::Ets, bool willing = false)
{
    EtsConfig e;
    e.willing = willing;
    for (uint8_t i = 0; i < 8; ++i) {
        e.tables.priority_tc[i] = i;
        e.tables.tc_bandwidth[i] = i < 4 ? 13 : 12;
        e.tables.tc_tsa[i] = Tsa::Ets;
    }
    e.tables.tc_bandwidth[tc] = percent;
    e.tables.tc_tsa[tc] = tsa;
    return e;
}

AppPriority compareApp(std::vector<AppEntry> entries)
{
    return AppPriority{std::move(entries)};
}

// A switch and a host that agree: PFC on 3, DSCP 26 on 3, priority 3 in an ETS class with 13 %.
SwitchDcb agreeingSwitch()
{
    SwitchDcb sw;
    sw.pfc = comparePfc(0x08);
    sw.ets = compareEts(3, 13);
    sw.app = compareApp({{3, AppSelector::Dscp, 26}, {3, AppSelector::DatagramPort, 4791}});
    return sw;
}

HostQos agreeingHost()
{
    HostQos h;
    h.pfc_priorities = {3};
    h.roce_priority = 3;
    return h;
}

std::vector<std::string> settingsOf(const std::vector<QosMismatch>& ms)
{
    std::vector<std::string> out;
    for (const auto& m : ms)
        out.push_back(m.setting);
    return out;
}

} // namespace

TEST(SwitchQosCompare, EndsThatAgreeGiveNoMismatch)
{
    EXPECT_TRUE(compareSwitchQos(agreeingSwitch(), agreeingHost(), kPort).empty());
}

TEST(SwitchQosCompare, ASwitchThatAdvertisesNoDcbxGivesNoMismatch)
{
    HostQos host = agreeingHost();
    host.willing = true;
    host.trust_dscp = false;
    EXPECT_TRUE(compareSwitchQos(SwitchDcb{}, host, kPort).empty());
}

TEST(SwitchQosCompare, TheLldpdExperimentsSwitchAgreesWithAHostOnPriority3)
{
    const std::vector<OrgTlv> tlvs{{kIeee8021Oui, kSubtypePfcConfig, {0x08, 0x08}}};
    HostQos host;
    host.pfc_priorities = {3};
    EXPECT_TRUE(compareSwitchQos(foldDcbxTlvs(tlvs), host, kPort).empty());
    host.pfc_priorities = {3, 4};
    EXPECT_EQ(compareSwitchQos(foldDcbxTlvs(tlvs), host, kPort),
              (std::vector<QosMismatch>{
                  {"pfc", "3", "3,4", "leaf-07 swp12 enables PFC on 3; this host on 3,4"}}));
}

TEST(SwitchQosCompare, PfcOnOtherPrioritiesNamesTheSwitchsThenTheHosts)
{
    SwitchDcb sw = agreeingSwitch();
    sw.pfc = comparePfc(0x18);
    EXPECT_EQ(compareSwitchQos(sw, agreeingHost(), kPort),
              (std::vector<QosMismatch>{
                  {"pfc", "3,4", "3", "leaf-07 swp12 enables PFC on 3,4; this host on 3"}}));
}

TEST(SwitchQosCompare, PfcOffOnOneSideReadsNone)
{
    SwitchDcb sw;
    sw.pfc = comparePfc(0);
    HostQos host;
    host.pfc_priorities = {3};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort).at(0).message,
              "leaf-07 swp12 enables PFC on none; this host on 3");
    sw.pfc = comparePfc(0x08);
    host.pfc_priorities = {};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort).at(0).message,
              "leaf-07 swp12 enables PFC on 3; this host on none");
}

TEST(SwitchQosCompare, TheHostsPfcPrioritiesCompareAsASet)
{
    SwitchDcb sw;
    sw.pfc = comparePfc(0x18);
    HostQos host;
    host.pfc_priorities = {4, 3, 3};
    EXPECT_TRUE(compareSwitchQos(sw, host, kPort).empty());
}

TEST(SwitchQosCompare, ACeeSwitchsPfcIsComparedAndAPfcFeatureItDoesNotRunEnablesNone)
{
    SwitchDcb sw;
    sw.cee = CeeDcbx{std::nullopt, CeePfc{{0, 0, true, false, false}, 0x18, 8}};
    EXPECT_EQ(compareSwitchQos(sw, agreeingHost(), kPort).at(0).message,
              "leaf-07 swp12 enables PFC on 3,4; this host on 3");
    sw.cee->pfc->feature.enabled = false;
    EXPECT_EQ(compareSwitchQos(sw, agreeingHost(), kPort).at(0).message,
              "leaf-07 swp12 enables PFC on none; this host on 3");
}

TEST(SwitchQosCompare, RocesDscpOnAPriorityWithoutHostPfcNamesBoth)
{
    SwitchDcb sw;
    sw.app = compareApp({{5, AppSelector::Dscp, 26}});
    HostQos host;
    host.pfc_priorities = {3};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort),
              (std::vector<QosMismatch>{{"app_dscp", "DSCP 26 -> priority 5", "PFC on 3",
                                         "leaf-07 swp12 maps DSCP 26 (RoCE, ToS 106) to priority "
                                         "5; this host has no PFC on priority 5 (PFC on 3)"}}));
}

TEST(SwitchQosCompare, RocesDscpOnAnotherPriorityThanTheHostsRoce)
{
    SwitchDcb sw;
    sw.app = compareApp({{5, AppSelector::Dscp, 26}});
    HostQos host = agreeingHost();
    host.pfc_priorities = {3, 5};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort),
              (std::vector<QosMismatch>{{"app_dscp", "DSCP 26 -> priority 5",
                                         "RoCE on priority 3, PFC on 3,5",
                                         "leaf-07 swp12 maps DSCP 26 (RoCE, ToS 106) to priority "
                                         "5; this host sends RoCE on priority 3"}}));
    host.pfc_priorities = {3};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort).at(0).message,
              "leaf-07 swp12 maps DSCP 26 (RoCE, ToS 106) to priority 5; this host sends RoCE on "
              "priority 3 and has no PFC on priority 5 (PFC on 3)");
}

TEST(SwitchQosCompare, RocesDscpFollowsTheHostsTos)
{
    SwitchDcb sw;
    sw.app = compareApp({{3, AppSelector::Dscp, 26}, {5, AppSelector::Dscp, 24}});
    HostQos host = agreeingHost();
    host.roce_tos = 96; // DSCP 24
    EXPECT_EQ(compareSwitchQos(sw, host, kPort).at(0).message,
              "leaf-07 swp12 maps DSCP 24 (RoCE, ToS 96) to priority 5; this host sends RoCE on "
              "priority 3 and has no PFC on priority 5 (PFC on 3)");
}

TEST(SwitchQosCompare, ASwitchWithNoEntryForRocesDscpGivesNoAppMismatch)
{
    SwitchDcb sw;
    sw.app = compareApp({{5, AppSelector::Dscp, 46},
                         {5, AppSelector::DatagramPort, 26},
                         {5, AppSelector::Ethertype, 0x8915}});
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
}

TEST(SwitchQosCompare, ASwitchClassifyingByDscpAndAHostTrustingPcp)
{
    SwitchDcb sw;
    sw.app = compareApp({{5, AppSelector::Dscp, 46}, {3, AppSelector::Dscp, 26}});
    HostQos host = agreeingHost();
    host.trust_dscp = false;
    EXPECT_EQ(compareSwitchQos(sw, host, kPort),
              (std::vector<QosMismatch>{{"trust", "dscp", "pcp",
                                         "leaf-07 swp12 classifies traffic by DSCP (it maps DSCP "
                                         "26 to priority 3); this host trusts PCP, not DSCP"}}));
    sw.app = compareApp({{5, AppSelector::Dscp, 46}});
    EXPECT_EQ(compareSwitchQos(sw, host, kPort).at(0).message,
              "leaf-07 swp12 classifies traffic by DSCP (it maps DSCP 46 to priority 5); this "
              "host trusts PCP, not DSCP");
    sw.app = compareApp({{3, AppSelector::DatagramPort, 4791}});
    EXPECT_TRUE(compareSwitchQos(sw, host, kPort).empty());
}

TEST(SwitchQosCompare, RocesPriorityInAnEtsClassWithNoBandwidth)
{
    SwitchDcb sw;
    sw.ets = compareEts(3, 0);
    sw.ets->tables.priority_tc[3] = 1;
    sw.ets->tables.tc_bandwidth[1] = 0;
    EXPECT_EQ(compareSwitchQos(sw, agreeingHost(), kPort),
              (std::vector<QosMismatch>{
                  {"ets", "priority 3 in TC 1: ETS, 0 %", "RoCE on priority 3",
                   "leaf-07 swp12 puts priority 3 in traffic class 1, an ETS class with 0 % of the "
                   "bandwidth: RoCE on priority 3 gets only what other classes leave unused"}}));
}

TEST(SwitchQosCompare, RocesPriorityIsWhereTheSwitchsAppTlvPutsIt)
{
    SwitchDcb sw;
    sw.ets = compareEts(4, 0);
    sw.app = compareApp({{4, AppSelector::Dscp, 26}});
    HostQos host;
    host.pfc_priorities = {3, 4};
    auto ms = compareSwitchQos(sw, host, kPort);
    ASSERT_EQ(settingsOf(ms), (std::vector<std::string>{"ets"}));
    EXPECT_EQ(ms[0].switch_value, "priority 4 in TC 4: ETS, 0 %");
}

TEST(SwitchQosCompare, WithoutAKnownRocePriorityEachHostPfcPriorityIsChecked)
{
    SwitchDcb sw;
    sw.ets = compareEts(3, 0);
    HostQos host;
    host.pfc_priorities = {3, 5};
    EXPECT_EQ(compareSwitchQos(sw, host, kPort),
              (std::vector<QosMismatch>{
                  {"ets", "priority 3 in TC 3: ETS, 0 %", "this host's PFC traffic on priority 3",
                   "leaf-07 swp12 puts priority 3 in traffic class 3, an ETS class with 0 % of the "
                   "bandwidth: this host's PFC traffic on priority 3 gets only what other classes "
                   "leave unused"}}));
}

TEST(SwitchQosCompare, AStrictClassOrOneWithAShareIsNoEtsMismatch)
{
    SwitchDcb sw;
    sw.ets = compareEts(3, 0, Tsa::Strict);
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
    sw.ets = compareEts(3, 1);
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
    sw.ets = compareEts(3, 0, Tsa::Vendor);
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
}

TEST(SwitchQosCompare, ACeeSwitchsPriorityGroupWithNoBandwidth)
{
    CeePriorityGroups pg{{0, 0, true, false, false}, {0, 0, 0, 1, 0, 0, 0, 15}, {100}, 8};
    SwitchDcb sw;
    sw.cee = CeeDcbx{pg, std::nullopt};
    EXPECT_EQ(compareSwitchQos(sw, agreeingHost(), kPort),
              (std::vector<QosMismatch>{
                  {"ets", "priority 3 in PG 1: 0 %", "RoCE on priority 3",
                   "leaf-07 swp12 puts priority 3 in priority group 1, with 0 % of the bandwidth: "
                   "RoCE on priority 3 gets only what other groups leave unused"}}));
    sw.cee->priority_groups->priority_group[3] = kCeeStrictGroup;
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
    sw.cee->priority_groups->priority_group[3] = 1;
    sw.cee->priority_groups->feature.enabled = false;
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
}

TEST(SwitchQosCompare, BothEndsWillingLeavesTheOutcomeToDcbxsTieBreak)
{
    SwitchDcb sw = agreeingSwitch();
    sw.pfc->willing = true;
    sw.ets->willing = true;
    HostQos host = agreeingHost();
    host.willing = true;
    EXPECT_EQ(compareSwitchQos(sw, host, kPort),
              (std::vector<QosMismatch>{
                  {"willing", "willing (PFC, ETS)", "willing",
                   "leaf-07 swp12 is willing to take its peer's PFC and ETS configuration and so "
                   "is this host: neither end is authoritative, and which configuration holds is "
                   "left to DCBX's tie-break (for PFC, the end with the lower MAC address takes "
                   "the other's)"}}));
    sw.pfc->willing = false;
    auto ets_only = compareSwitchQos(sw, host, kPort);
    ASSERT_EQ(ets_only.size(), 1u);
    EXPECT_EQ(ets_only[0].switch_value, "willing (ETS)");
    EXPECT_EQ(ets_only[0].message,
              "leaf-07 swp12 is willing to take its peer's ETS configuration and so is this host: "
              "neither end is authoritative, and which configuration holds is left to DCBX's "
              "tie-break");
}

TEST(SwitchQosCompare, AWillingSwitchAndANonWillingHostAgree)
{
    SwitchDcb sw = agreeingSwitch();
    sw.pfc->willing = true;
    sw.ets->willing = true;
    EXPECT_TRUE(compareSwitchQos(sw, agreeingHost(), kPort).empty());
    sw.pfc->willing = false;
    sw.ets->willing = false;
    HostQos host = agreeingHost();
    host.willing = true;
    EXPECT_TRUE(compareSwitchQos(sw, host, kPort).empty());
}

TEST(SwitchQosCompare, MismatchesComeInOneOrder)
{
    SwitchDcb sw;
    sw.pfc = comparePfc(0x20, true);
    sw.ets = compareEts(5, 0);
    sw.app = compareApp({{5, AppSelector::Dscp, 26}});
    HostQos host = agreeingHost();
    host.trust_dscp = false;
    host.willing = true;
    EXPECT_EQ(settingsOf(compareSwitchQos(sw, host, kPort)),
              (std::vector<std::string>{"pfc", "app_dscp", "trust", "ets", "willing"}));
}

TEST(SwitchSettingValues, WhatTheSwitchAdvertisesBesideTheHostsSettings)
{
    SwitchDcb sw = agreeingSwitch();
    sw.pfc = comparePfc(0x18);
    const auto values = switchSettingValues(sw, 26);
    EXPECT_EQ(values.at("pfc"), "3,4");
    EXPECT_EQ(values.at("trust"), "dscp");
    EXPECT_EQ(values.at("roce_tos"), "DSCP 26 -> 3");
    EXPECT_EQ(values.at("ets"), "priority 3 in TC 3: ETS, 13 %");
    // A switch that sends no DCBX says nothing of any setting.
    EXPECT_TRUE(switchSettingValues(SwitchDcb{}, 26).empty());
    // RoCE's DSCP the switch has no entry for: no roce_tos, no ets (RoCE's class is unknown).
    const auto other = switchSettingValues(sw, 46);
    EXPECT_FALSE(other.contains("roce_tos"));
    EXPECT_FALSE(other.contains("ets"));
}

} // namespace nicd::neighbor
