// The DCBX TLV decoders and the fold of a neighbour's TLVs, against information strings written
// out by hand from IEEE 802.1Q-2018 Annex D.2 (and the CEE DCBX v1.01 sub-TLVs): the examples of
// shared/reference/lldp-dcbx.md and of a frame that tcpdump 4.99.3 decoded as intended, what a
// switch may send that is odd but well formed, and every malformed shape with the byte its error
// names (counted from the first byte after the subtype, as lldpcli prints the value).
#include "neighbor/dcbx_tlv.hpp"
#include "support/decode_error.hpp"

#include <gtest/gtest.h>

namespace nicd::neighbor {

namespace {

using DcbxBytes = std::vector<uint8_t>;
using test::decodeErrorOf;

// ETS Configuration as tcpdump 4.99.3 decoded it: willing, max TCs 0 (= 8), priority n in TC n,
// TCs 0-3 ETS with 10/20/30/40 %, 4-6 strict, 7 vendor.
const DcbxBytes kTcpdumpEts{0x80, 0x01, 0x23, 0x45, 0x67, 0x0a, 0x14, 0x1e, 0x28, 0x00, 0x00,
                            0x00, 0x00, 0x02, 0x02, 0x02, 0x02, 0x00, 0x00, 0x00, 0xff};
// The Application Priority TLV of the same check: Ethertype 0x8906 (FCoE) on 3, UDP 4791 (RoCEv2)
// on 4, DSCP 26 on 5.
const DcbxBytes kTcpdumpApp{0x00, 0x61, 0x89, 0x06, 0x83, 0x12, 0xb7, 0xa5, 0x00, 0x1a};

OrgTlv ieeeTlv(uint8_t subtype, DcbxBytes info)
{
    return OrgTlv{kIeee8021Oui, subtype, std::move(info)};
}

// One CEE sub-TLV: the 2-byte type<<9|length header, then the body.
DcbxBytes ceeSub(uint8_t type, const DcbxBytes& body)
{
    auto header = static_cast<uint16_t>(type << 9 | body.size());
    DcbxBytes b{static_cast<uint8_t>(header >> 8), static_cast<uint8_t>(header & 0xff)};
    b.insert(b.end(), body.begin(), body.end());
    return b;
}

DcbxBytes ceeJoin(std::initializer_list<DcbxBytes> parts)
{
    DcbxBytes out;
    for (const auto& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

// Control (versions 0, seq 1, ack 1); PFC enabled, priority 3, 8 TCs: as a Cisco Nexus 5000
// sends them in a public capture.
const DcbxBytes kCeeControl = ceeSub(1, {0, 0, 0, 0, 0, 1, 0, 0, 0, 1});
const DcbxBytes kCeePfc = ceeSub(3, {0, 0, 0x80, 0, 0x08, 8});
// Priority groups, enabled and willing: priorities 0-2 and 4-6 in PG 0, 3 in PG 1, 7 strict;
// PG 0 and PG 1 50 % each; 8 TCs.
const DcbxBytes kCeePg =
    ceeSub(2, {0, 0, 0xc0, 0, 0x00, 0x01, 0x00, 0x0f, 50, 50, 0, 0, 0, 0, 0, 0, 8});

} // namespace

TEST(DcbxTlv, TheExperimentsPfcPayloadIsCapability8WithPriority3Enabled)
{
    PfcConfig pfc = decodePfcConfig(DcbxBytes{0x08, 0x08});
    EXPECT_FALSE(pfc.willing);
    EXPECT_FALSE(pfc.mbc);
    EXPECT_EQ(pfc.capability, 8);
    EXPECT_EQ(pfc.enabled_bitmap, 0x08);
    EXPECT_TRUE(pfc.enabled(3));
    EXPECT_FALSE(pfc.enabled(4));
    EXPECT_FALSE(pfc.enabled(8));
}

TEST(DcbxTlv, PfcWillingAndMacsecBypassAreTheTopBitsAndReservedBitsAreIgnored)
{
    PfcConfig pfc = decodePfcConfig(DcbxBytes{0xf4, 0x18});
    EXPECT_TRUE(pfc.willing);
    EXPECT_TRUE(pfc.mbc);
    EXPECT_EQ(pfc.capability, 4);
    EXPECT_TRUE(pfc.enabled(3));
    EXPECT_TRUE(pfc.enabled(4));
    EXPECT_EQ(pfc.enabled_bitmap, 0x18);
}

TEST(DcbxTlv, PfcOnMorePrioritiesThanItsCapabilityIsReportedAsSent)
{
    EXPECT_EQ(decodePfcConfig(DcbxBytes{0x01, 0xff}).enabled_bitmap, 0xff);
}

TEST(DcbxTlv, APfcCapabilityAbove8NamesByte0)
{
    EXPECT_EQ(decodeErrorOf([] {
                  decodePfcConfig(DcbxBytes{0x09, 0x08});
              }),
              "PFC Configuration TLV (00-80-C2 subtype 11), byte 0: PFC capability 9, above 8");
}

TEST(DcbxTlv, APfcTlvOfTheWrongLengthNamesWhereItEndsOrOverruns)
{
    EXPECT_EQ(decodeErrorOf([] { decodePfcConfig(DcbxBytes{0x08}); }),
              "PFC Configuration TLV (00-80-C2 subtype 11), byte 1: 1 byte of information, "
              "want 2");
    EXPECT_EQ(decodeErrorOf([] { decodePfcConfig(DcbxBytes{}); }),
              "PFC Configuration TLV (00-80-C2 subtype 11), byte 0: 0 bytes of information, "
              "want 2");
    EXPECT_EQ(decodeErrorOf([] {
                  decodePfcConfig(DcbxBytes{0x08, 0x08, 0x00});
              }),
              "PFC Configuration TLV (00-80-C2 subtype 11), byte 2: 3 bytes of information, "
              "want 2");
}

TEST(DcbxTlv, EtsConfigurationReadsAsTcpdumpDecodesIt)
{
    EtsConfig ets = decodeEtsConfig(kTcpdumpEts);
    EXPECT_TRUE(ets.willing);
    EXPECT_FALSE(ets.cbs); // tcpdump prints CBS:2 for 0x80, masking with 0x02; CBS is bit 6
    EXPECT_EQ(ets.max_tcs, 8);
    EXPECT_EQ(ets.tables.priority_tc, (std::array<uint8_t, 8>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(ets.tables.tc_bandwidth, (std::array<uint8_t, 8>{10, 20, 30, 40, 0, 0, 0, 0}));
    EXPECT_EQ(ets.tables.tc_tsa,
              (std::array<Tsa, 8>{Tsa::Ets, Tsa::Ets, Tsa::Ets, Tsa::Ets, Tsa::Strict, Tsa::Strict,
                                  Tsa::Strict, Tsa::Vendor}));
}

TEST(DcbxTlv, EtsOfTheLldpdExperimentHas3TrafficClassesAndIsNotWilling)
{
    const DcbxBytes info{0x03, 0x01, 0x23, 0x45, 0x67, 0x0A, 0x14, 0x1E, 0x28, 0x00, 0x00,
                         0x00, 0x00, 0x02, 0x02, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
    EtsConfig ets = decodeEtsConfig(info);
    EXPECT_FALSE(ets.willing);
    EXPECT_FALSE(ets.cbs);
    EXPECT_EQ(ets.max_tcs, 3);
    // TCs past the switch's own maximum are reported as sent.
    EXPECT_EQ(ets.tables.priority_tc[7], 7);
}

TEST(DcbxTlv, PriorityZeroIsTheHighNibbleOfTheFirstTableByte)
{
    DcbxBytes info(21, 0);
    info[0] = 0x40; // CBS
    info[1] = 0x31; // priority 0 in TC 3, priority 1 in TC 1
    info[4] = 0x07; // priority 6 in TC 0, priority 7 in TC 7
    EtsConfig ets = decodeEtsConfig(info);
    EXPECT_TRUE(ets.cbs);
    EXPECT_FALSE(ets.willing);
    EXPECT_EQ(ets.tables.priority_tc, (std::array<uint8_t, 8>{3, 1, 0, 0, 0, 0, 0, 7}));
}

TEST(DcbxTlv, EtsSharesNotSumming100AndReservedTsaAreReportedAsTheSwitchSaysThem)
{
    DcbxBytes info = kTcpdumpEts;
    info[5] = 50; // TC 0: 50 %, the ETS classes now sum to 140
    info[14] = 3; // TC 1: a reserved TSA
    EtsConfig ets = decodeEtsConfig(info);
    EXPECT_EQ(ets.tables.tc_bandwidth[0], 50);
    EXPECT_EQ(ets.tables.tc_tsa[1], static_cast<Tsa>(3));
}

TEST(DcbxTlv, ATrafficClassAbove7NamesThePriorityAndItsByte)
{
    DcbxBytes info = kTcpdumpEts;
    info[3] = 0x48; // priority 4 in TC 4, priority 5 in TC 8
    EXPECT_EQ(decodeErrorOf([&] { decodeEtsConfig(info); }),
              "ETS Configuration TLV (00-80-C2 subtype 9), byte 3: priority 5 in traffic class 8, "
              "above 7");
    info[3] = 0xf5;
    EXPECT_EQ(decodeErrorOf([&] { decodeEtsRecommendation(info); }),
              "ETS Recommendation TLV (00-80-C2 subtype 10), byte 3: priority 4 in traffic class "
              "15, above 7");
}

TEST(DcbxTlv, ABandwidthShareAbove100PercentNamesTheTrafficClassAndItsByte)
{
    DcbxBytes info = kTcpdumpEts;
    info[7] = 101; // TC 2
    EXPECT_EQ(decodeErrorOf([&] { decodeEtsConfig(info); }),
              "ETS Configuration TLV (00-80-C2 subtype 9), byte 7: traffic class 2 given 101 % of "
              "the bandwidth, above 100");
}

TEST(DcbxTlv, AnEtsTlvOfTheWrongLengthNamesWhereItEndsOrOverruns)
{
    DcbxBytes shorter(kTcpdumpEts.begin(), kTcpdumpEts.end() - 1);
    EXPECT_EQ(decodeErrorOf([&] { decodeEtsConfig(shorter); }),
              "ETS Configuration TLV (00-80-C2 subtype 9), byte 20: 20 bytes of information, "
              "want 21");
    DcbxBytes longer = kTcpdumpEts;
    longer.push_back(0);
    EXPECT_EQ(decodeErrorOf([&] { decodeEtsRecommendation(longer); }),
              "ETS Recommendation TLV (00-80-C2 subtype 10), byte 21: 22 bytes of information, "
              "want 21");
}

TEST(DcbxTlv, EtsRecommendationHasTheSameTablesAndAReservedFirstByte)
{
    DcbxBytes info = kTcpdumpEts;
    info[0] = 0xff;
    EXPECT_EQ(decodeEtsRecommendation(info).tables, decodeEtsConfig(kTcpdumpEts).tables);
}

TEST(DcbxTlv, ApplicationPriorityReadsAsTcpdumpDecodesIt)
{
    AppPriority app = decodeAppPriority(kTcpdumpApp);
    EXPECT_EQ(app.entries, (std::vector<AppEntry>{{3, AppSelector::Ethertype, 0x8906},
                                                  {4, AppSelector::DatagramPort, 4791},
                                                  {5, AppSelector::Dscp, 26}}));
}

TEST(DcbxTlv, ApplicationPriorityKeepsReservedSelectorsAndIgnoresReservedBits)
{
    // The reserved byte set, then priority 3 with reserved bits 4..3 set and selector 5;
    // selector 6.
    AppPriority app = decodeAppPriority(DcbxBytes{0xff, 0x7d, 0x00, 0x1a, 0x06, 0x12, 0x34});
    EXPECT_EQ(app.entries, (std::vector<AppEntry>{{3, AppSelector::Dscp, 26},
                                                  {0, static_cast<AppSelector>(6), 0x1234}}));
    EXPECT_TRUE(decodeAppPriority(DcbxBytes{0x00}).entries.empty());
}

TEST(DcbxTlv, AnApplicationPriorityTlvCutInsideAnEntryNamesTheEntrysFirstByte)
{
    DcbxBytes cut(kTcpdumpApp.begin(), kTcpdumpApp.end() - 1);
    EXPECT_EQ(decodeErrorOf([&] { decodeAppPriority(cut); }),
              "Application Priority TLV (00-80-C2 subtype 12), byte 7: an entry cut after 2 of "
              "its 3 bytes");
    EXPECT_EQ(decodeErrorOf([] { decodeAppPriority(DcbxBytes{}); }),
              "Application Priority TLV (00-80-C2 subtype 12), byte 0: 0 bytes of information, "
              "want a reserved byte, then 3 bytes an entry");
}

TEST(DcbxTlv, ADscpAbove63NamesTheEntryAndItsProtocolByte)
{
    EXPECT_EQ(decodeErrorOf([] {
                  decodeAppPriority(DcbxBytes{0x00, 0x61, 0x89, 0x06, 0xa5, 0x00, 0x40});
              }),
              "Application Priority TLV (00-80-C2 subtype 12), byte 5: entry 1 maps DSCP 64, "
              "above 63");
}

TEST(DcbxTlv, OneTlvIsDecodedByItsOuiAndSubtype)
{
    auto pfc = decodeDcbxTlv(kIeee8021Oui, kSubtypePfcConfig, DcbxBytes{0x08, 0x08});
    ASSERT_TRUE(pfc && std::holds_alternative<PfcConfig>(*pfc));
    EXPECT_EQ(std::get<PfcConfig>(*pfc).enabled_bitmap, 0x08);
    auto app = decodeDcbxTlv(kIeee8021Oui, kSubtypeAppPriority, kTcpdumpApp);
    ASSERT_TRUE(app && std::holds_alternative<AppPriority>(*app));
    auto cee = decodeDcbxTlv(kCeeDcbxOui, kSubtypeCeeDcbx, ceeJoin({kCeeControl, kCeePfc}));
    ASSERT_TRUE(cee && std::holds_alternative<CeeDcbx>(*cee));
    // An 802.3 TLV is no DCBX TLV.
    EXPECT_FALSE(decodeDcbxTlv(Oui{0x00, 0x12, 0x0F}, 1, DcbxBytes{1, 2, 3}));
}

TEST(DcbxTlv, AnUnknownSubtypeOfTheDcbxOuisIsAnError)
{
    EXPECT_EQ(decodeErrorOf([] { decodeDcbxTlv(kIeee8021Oui, 13, DcbxBytes{0}); }),
              "TLV 00-80-C2 subtype 13: an unknown DCBX subtype (nicd decodes 9-12)");
    EXPECT_EQ(decodeErrorOf([] { decodeDcbxTlv(kCeeDcbxOui, 1, DcbxBytes{0}); }),
              "TLV 00-1B-21 subtype 1: an unknown CEE DCBX subtype (nicd decodes 2)");
    EXPECT_FALSE(isDcbxTlv(kIeee8021Oui, 1));
    EXPECT_TRUE(isDcbxTlv(kIeee8021Oui, 12));
    EXPECT_FALSE(isDcbxTlv(kCeeDcbxOui, 1));
}

TEST(CeeDcbxTlv, PriorityGroupsAndPfcAreReadAndTheOtherSubTlvsSkipped)
{
    const DcbxBytes app = ceeSub(4, {0, 0, 0x80, 0, 0x89, 0x06, 0x00, 0x1b, 0x21, 0x08});
    CeeDcbx cee = decodeCeeDcbx(ceeJoin({kCeeControl, kCeePg, kCeePfc, app}));
    ASSERT_TRUE(cee.pfc);
    EXPECT_TRUE(cee.pfc->feature.enabled);
    EXPECT_FALSE(cee.pfc->feature.willing);
    EXPECT_EQ(cee.pfc->enabled_bitmap, 0x08);
    EXPECT_EQ(cee.pfc->num_tcs, 8);
    ASSERT_TRUE(cee.priority_groups);
    const CeePriorityGroups& pg = *cee.priority_groups;
    EXPECT_TRUE(pg.feature.enabled);
    EXPECT_TRUE(pg.feature.willing);
    EXPECT_FALSE(pg.feature.error);
    EXPECT_EQ(pg.priority_group, (std::array<uint8_t, 8>{0, 0, 0, 1, 0, 0, 0, kCeeStrictGroup}));
    EXPECT_EQ(pg.group_bandwidth, (std::array<uint8_t, 8>{50, 50, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(decodeCeeDcbx(DcbxBytes{}), CeeDcbx{});
}

TEST(CeeDcbxTlv, MalformedSubTlvsNameTheirByte)
{
    const std::string tlv = "CEE DCBX TLV (00-1B-21 subtype 2), byte ";
    auto cutHeader = ceeJoin({kCeeControl, DcbxBytes{0x06}});
    EXPECT_EQ(decodeErrorOf([&] { decodeCeeDcbx(cutHeader); }),
              tlv + "12: a sub-TLV header cut after 1 byte");
    auto overrun = ceeJoin({kCeeControl, DcbxBytes(kCeePfc.begin(), kCeePfc.end() - 1)});
    EXPECT_EQ(decodeErrorOf([&] { decodeCeeDcbx(overrun); }),
              tlv + "12: sub-TLV type 3 of 6 bytes, 5 left");
    EXPECT_EQ(decodeErrorOf([] {
                  decodeCeeDcbx(ceeSub(3, {0, 0, 0x80, 0, 0x08}));
              }),
              tlv + "0: PFC sub-TLV of 5 bytes, want 6");
    EXPECT_EQ(decodeErrorOf([] { decodeCeeDcbx(ceeSub(2, DcbxBytes(16, 0))); }),
              tlv + "0: Priority Group sub-TLV of 16 bytes, want 17");
    EXPECT_EQ(decodeErrorOf([] {
                  decodeCeeDcbx(ceeJoin({kCeePfc, kCeePfc}));
              }),
              tlv + "8: a second PFC sub-TLV");
    EXPECT_EQ(decodeErrorOf([] {
                  decodeCeeDcbx(ceeJoin({kCeePg, kCeePg}));
              }),
              tlv + "19: a second Priority Group sub-TLV");
    auto group9 = kCeePg;
    group9[9] = 0x09; // priorities 6 and 7: PG 0 and PG 9
    EXPECT_EQ(decodeErrorOf([&] { decodeCeeDcbx(group9); }),
              tlv + "9: priority 7 in priority group 9 (0-7, or 15 for strict)");
    auto share = kCeePg;
    share[11] = 101; // PG 1
    EXPECT_EQ(decodeErrorOf([&] { decodeCeeDcbx(share); }),
              tlv + "11: priority group 1 given 101 % of the bandwidth, above 100");
}

TEST(SwitchDcbFold, ANeighboursDcbxTlvsAreGatheredInOne)
{
    const std::vector<OrgTlv> tlvs{
        {Oui{0x00, 0x12, 0x0F}, 1, {0x03, 0x6c, 0x00, 0x00, 0x10}}, // 802.3 MAC/PHY: skipped
        ieeeTlv(kSubtypeEtsConfig, kTcpdumpEts),
        ieeeTlv(kSubtypeEtsRecommendation, kTcpdumpEts),
        ieeeTlv(kSubtypePfcConfig, {0x08, 0x08}),
        ieeeTlv(kSubtypeAppPriority, kTcpdumpApp),
        {kCeeDcbxOui, kSubtypeCeeDcbx, ceeJoin({kCeeControl, kCeePfc})},
    };
    SwitchDcb sw = foldDcbxTlvs(tlvs);
    EXPECT_TRUE(sw.errors.empty()) << (sw.errors.empty() ? "" : sw.errors[0].message);
    EXPECT_EQ(sw.ets, decodeEtsConfig(kTcpdumpEts));
    EXPECT_EQ(sw.ets_recommendation, decodeEtsRecommendation(kTcpdumpEts));
    EXPECT_EQ(sw.pfc, decodePfcConfig(DcbxBytes{0x08, 0x08}));
    EXPECT_EQ(sw.app, decodeAppPriority(kTcpdumpApp));
    ASSERT_TRUE(sw.cee && sw.cee->pfc);
    EXPECT_TRUE(sw.advertisesDcb());
}

TEST(SwitchDcbFold, AMalformedTlvIsShownWithItsErrorAndTheOthersStillCount)
{
    SwitchDcb sw = foldDcbxTlvs(std::vector<OrgTlv>{ieeeTlv(kSubtypePfcConfig, {0x09, 0x08}),
                                                    ieeeTlv(kSubtypeAppPriority, kTcpdumpApp)});
    EXPECT_FALSE(sw.pfc);
    EXPECT_TRUE(sw.app);
    EXPECT_EQ(sw.errors,
              (std::vector<TlvError>{{kIeee8021Oui, kSubtypePfcConfig,
                                      "PFC Configuration TLV (00-80-C2 subtype 11), byte 0: PFC "
                                      "capability 9, above 8"}}));
}

TEST(SwitchDcbFold, OtherOuisAndThe8021TlvsThatAreNotDcbxAreSkippedSilently)
{
    SwitchDcb sw = foldDcbxTlvs(
        std::vector<OrgTlv>{ieeeTlv(1, {0x00, 0x64}),                   // Port VLAN ID
                            ieeeTlv(7, {0x03, 0x00, 0x00, 0x00, 0x00}), // link aggregation
                            {kCeeDcbxOui, 1, {0x00}},                   // CIN-DCBX, older than CEE
                            {Oui{0x00, 0x12, 0xBB}, 1, {0x00, 0x33, 0x03}}});
    EXPECT_EQ(sw, SwitchDcb{});
    EXPECT_FALSE(sw.advertisesDcb());
}

TEST(SwitchDcbFold, ATlvSentTwiceIsShownOnceAndNeitherCopyIsBelieved)
{
    SwitchDcb sw = foldDcbxTlvs(std::vector<OrgTlv>{
        ieeeTlv(kSubtypePfcConfig, {0x08, 0x08}), ieeeTlv(kSubtypeEtsConfig, kTcpdumpEts),
        ieeeTlv(kSubtypePfcConfig, {0x08, 0x18}), ieeeTlv(kSubtypePfcConfig, {0x08})});
    EXPECT_FALSE(sw.pfc);
    EXPECT_TRUE(sw.ets);
    ASSERT_EQ(sw.errors.size(), 1u);
    EXPECT_EQ(sw.errors[0].message, "PFC Configuration TLV (00-80-C2 subtype 11): sent 3 times in "
                                    "one advertisement; none of them is used");
}

TEST(SwitchDcbFold, EveryCutOfEveryTlvIsEitherDecodedOrShownAsAnErrorOfThatTlv)
{
    const std::vector<OrgTlv> whole{
        ieeeTlv(kSubtypeEtsConfig, kTcpdumpEts),
        ieeeTlv(kSubtypeEtsRecommendation, kTcpdumpEts),
        ieeeTlv(kSubtypePfcConfig, {0x08, 0x08}),
        ieeeTlv(kSubtypeAppPriority, kTcpdumpApp),
        {kCeeDcbxOui, kSubtypeCeeDcbx, ceeJoin({kCeeControl, kCeePg, kCeePfc})}};
    for (const OrgTlv& t : whole) {
        for (size_t cut = 0; cut <= t.info.size(); ++cut) {
            OrgTlv part = t;
            part.info.resize(cut);
            SwitchDcb sw = foldDcbxTlvs(std::vector<OrgTlv>{part});
            if (sw.errors.empty()) {
                EXPECT_TRUE(sw.advertisesDcb()) << int{t.subtype} << " cut at " << cut;
                continue;
            }
            EXPECT_FALSE(sw.advertisesDcb());
            EXPECT_EQ(sw.errors[0].subtype, t.subtype);
            EXPECT_NE(sw.errors[0].message.find(ouiText(t.oui)), std::string::npos)
                << sw.errors[0].message;
        }
    }
}

} // namespace nicd::neighbor
