// FEC statistics: the ETHTOOL_MSG_FEC_GET_REPLY decoder against attribute bytes laid out by hand
// from the uapi (shared/reference/pre-failure.md §1.2) and the JSON parser against published
// `ethtool --json -I --show-fec` captures (tests/data/fec/SOURCES.md). The netlink exchange:
// prefailure_ethtool_netlink_test.cpp.
#include "prefailure/ethtool_netlink.hpp"
#include "prefailure/fec_stats.hpp"
#include "support/netlink_attrs.hpp"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

using namespace nicd;
using namespace nicd::prefailure;
using namespace nicd::test;

namespace {

// ---- FEC reply pieces (attributes: support/netlink_attrs.hpp) ----

Bytes fecHeader(const std::string& netdev)
{
    return nest(ETHTOOL_A_FEC_HEADER, {u32Attr(ETHTOOL_A_HEADER_DEV_INDEX, 7),
                                       stringAttr(ETHTOOL_A_HEADER_DEV_NAME, netdev)});
}

// The 64-bit alignment padding the kernel puts before u64 arrays.
Bytes pad()
{
    return attr(ETHTOOL_A_FEC_STAT_PAD, {});
}

// A FEC_MODES bitset and FEC_AUTO, which the decoder skips.
Bytes modesAndAuto()
{
    Bytes bits = nest(ETHTOOL_A_BITSET_BITS, {});
    return cat({nest(ETHTOOL_A_FEC_MODES,
                     {attr(ETHTOOL_A_BITSET_NOMASK, {}), u32Attr(ETHTOOL_A_BITSET_SIZE, 0), bits}),
                attr(ETHTOOL_A_FEC_AUTO, {1})});
}

std::string decodeError(const Bytes& bytes)
{
    try {
        decodeFecReply(bytes);
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "no error";
}

// ---- JSON helpers ----

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(NICD_SOURCE_DIR) + "/tests/data/fec/" + name);
    EXPECT_TRUE(in) << name;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string jsonError(const std::string& text)
{
    try {
        parseFecJson(text, "eth0");
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "no error";
}

std::string withStatistics(const std::string& statistics)
{
    return R"([ { "ifname": "eth0", "config": [ "Auto" ], "active": [ "RS" ], "statistics": )" +
           statistics + " } ]";
}

// The value after "<key>: " on a line of ethtool's text output.
std::optional<std::string> valueAfter(const std::string& line, const std::string& key)
{
    size_t at = line.find(key + ": ");
    if (at == std::string::npos)
        return std::nullopt;
    return line.substr(at + key.size() + 2);
}

// What the text form of ethtool's output says, read back line by line, so that the
// hand-converted JSON files are checked against the published text.
FecStats parseFecText(const std::string& text)
{
    const std::string title = "FEC parameters for "; // then the netdev and ':'
    FecStats out;
    std::optional<FecCounter>* current = nullptr;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(title, 0) == 0)
            out.netdev = line.substr(title.size(), line.size() - title.size() - 1);
        else if (auto active = valueAfter(line, "Active FEC encoding"))
            out.active = *active == "None" ? "" : *active;
        else if (auto v = valueAfter(line, "corrected_blocks"))
            *(current = &out.corrected_blocks) = FecCounter{std::stoull(*v), {}};
        else if (auto v = valueAfter(line, "uncorrectable_blocks"))
            *(current = &out.uncorrectable_blocks) = FecCounter{std::stoull(*v), {}};
        else if (auto v = valueAfter(line, "corrected_bits"))
            *(current = &out.corrected_bits) = FecCounter{std::stoull(*v), {}};
        else if (line.find("Lane ") != std::string::npos && current)
            (*current)->lanes.push_back(std::stoull(line.substr(line.find(": ") + 2)));
    }
    return out;
}

} // namespace

// ---- decodeFecReply ----

TEST(FecReplyDecode, RsTotalsOnlyAndUnsupportedCorrectedBits)
{
    Bytes reply =
        cat({fecHeader("eth2"), modesAndAuto(),
             u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
             nest(ETHTOOL_A_FEC_STATS, {pad(), u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {123456789}),
                                        pad(), u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {3}), pad(),
                                        u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {})})});
    FecStats stats = decodeFecReply(reply);
    EXPECT_EQ(stats.netdev, "eth2");
    EXPECT_EQ(stats.active, "RS");
    EXPECT_EQ(stats.corrected_blocks, (FecCounter{123456789, {}}));
    EXPECT_EQ(stats.uncorrectable_blocks, (FecCounter{3, {}}));
    EXPECT_EQ(stats.corrected_bits, std::nullopt) << "a zero-length array is unsupported, not 0";
}

TEST(FecReplyDecode, BaseRPerLaneTotalIsElementZero)
{
    // The kernel recomputes the total as the lanes' sum; the decoder just reads element 0.
    Bytes reply = cat(
        {fecHeader("eth3"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_BASER_BIT),
         nest(ETHTOOL_A_FEC_STATS, {pad(), u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {10, 1, 2, 3, 4}),
                                    pad(), u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {5, 0, 5, 0, 0}),
                                    pad(), u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {UINT64_MAX})})});
    FecStats stats = decodeFecReply(reply);
    EXPECT_EQ(stats.active, "BaseR");
    EXPECT_EQ(stats.corrected_blocks, (FecCounter{10, {1, 2, 3, 4}}));
    EXPECT_EQ(stats.uncorrectable_blocks, (FecCounter{5, {0, 5, 0, 0}}));
    EXPECT_EQ(stats.corrected_bits, (FecCounter{UINT64_MAX, {}}));
}

TEST(FecReplyDecode, AllCountersUnsupported)
{
    Bytes reply =
        cat({fecHeader("eth0"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
             nest(ETHTOOL_A_FEC_STATS, {u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {}),
                                        u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {}),
                                        u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {})})});
    FecStats stats = decodeFecReply(reply);
    EXPECT_FALSE(stats.corrected_blocks);
    EXPECT_FALSE(stats.uncorrectable_blocks);
    EXPECT_FALSE(stats.corrected_bits);
}

TEST(FecReplyDecode, MissingStatsNestAndActiveLeaveThemAbsent)
{
    FecStats stats = decodeFecReply(cat({fecHeader("eth0"), modesAndAuto()}));
    EXPECT_EQ(stats.netdev, "eth0");
    EXPECT_EQ(stats.active, "") << "no ETHTOOL_A_FEC_ACTIVE: the kernel named no mode";
    EXPECT_FALSE(stats.corrected_blocks);
    EXPECT_FALSE(stats.uncorrectable_blocks);
    EXPECT_FALSE(stats.corrected_bits);
    EXPECT_EQ(decodeFecReply({}), FecStats{});
}

TEST(FecReplyDecode, SkipsHistogramUnknownAttributesAndFlagBits)
{
    constexpr uint16_t kHist = 5;         // ETHTOOL_A_FEC_STAT_HIST (Linux 6.18)
    constexpr uint16_t kFutureAttr = 200; // an attribute this decoder does not know
    Bytes bin = nest(kHist, {u32Attr(2, 0), u32Attr(3, 0), u32Attr(4, 445)});
    Bytes reply = cat({u32Attr(kFutureAttr, 1), fecHeader("eth0"),
                       u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_LLRS_BIT),
                       nest(ETHTOOL_A_FEC_STATS,
                            {bin, bin, u32Attr(kFutureAttr, 9),
                             u64Array(ETHTOOL_A_FEC_STAT_UNCORR | NLA_F_NET_BYTEORDER, {4})})});
    FecStats stats = decodeFecReply(reply);
    EXPECT_EQ(stats.active, "LLRS");
    EXPECT_EQ(stats.uncorrectable_blocks, (FecCounter{4, {}}));
    EXPECT_FALSE(stats.corrected_blocks);
}

TEST(FecReplyDecode, LastAttributeWithoutPaddingIsAccepted)
{
    // ETHTOOL_A_FEC_AUTO as nla_len 5 and one byte, without the 3 bytes of padding after it.
    Bytes reply = cat({fecHeader("eth0"), Bytes{0x05, 0x00, ETHTOOL_A_FEC_AUTO, 0x00, 0x01}});
    EXPECT_EQ(decodeFecReply(reply).netdev, "eth0");
}

TEST(FecReplyDecode, NameWithoutNulIsTakenWhole)
{
    Bytes name = attr(ETHTOOL_A_HEADER_DEV_NAME, {'e', 't', 'h', '9'});
    EXPECT_EQ(decodeFecReply(attr(ETHTOOL_A_FEC_HEADER, name)).netdev, "eth9");
}

TEST(FecReplyDecode, TruncatedAttributeHeaderThrows)
{
    Bytes reply = cat({fecHeader("eth0"), Bytes{0x08, 0x00}});
    EXPECT_NE(decodeError(reply).find("truncated header"), std::string::npos) << decodeError(reply);
}

TEST(FecReplyDecode, NlaLenPastTheEndThrows)
{
    Bytes reply = u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT);
    reply[0] = 0x40; // nla_len 64 in an 8-byte buffer
    EXPECT_NE(decodeError(reply).find("past the end"), std::string::npos) << decodeError(reply);

    // The same inside the stats nest: the nest is sound, its child is not.
    Bytes child = u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {1});
    child[0] = 0xff;
    Bytes in_nest = attr(ETHTOOL_A_FEC_STATS, child);
    EXPECT_NE(decodeError(in_nest).find("ETHTOOL_A_FEC_STATS"), std::string::npos)
        << decodeError(in_nest);
}

TEST(FecReplyDecode, NlaLenBelowHeaderThrows)
{
    Bytes reply = {0x02, 0x00, 0x04, 0x00, 0, 0, 0, 0};
    EXPECT_NE(decodeError(reply).find("shorter than its header"), std::string::npos)
        << decodeError(reply);
}

TEST(FecReplyDecode, ArrayNotMultipleOfEightThrows)
{
    Bytes reply = nest(ETHTOOL_A_FEC_STATS, {attr(ETHTOOL_A_FEC_STAT_UNCORR, Bytes(12, 0x01))});
    std::string error = decodeError(reply);
    EXPECT_NE(error.find("ETHTOOL_A_FEC_STAT_UNCORR"), std::string::npos) << error;
    EXPECT_NE(error.find("12 bytes"), std::string::npos) << error;
}

TEST(FecReplyDecode, ShortActiveThrows)
{
    Bytes reply = attr(ETHTOOL_A_FEC_ACTIVE, {50, 0});
    EXPECT_NE(decodeError(reply).find("ETHTOOL_A_FEC_ACTIVE"), std::string::npos);
}

TEST(FecModeName, NamesAsEthtoolPrintsThem)
{
    EXPECT_EQ(fecModeName(ETHTOOL_LINK_MODE_FEC_NONE_BIT), "Off");
    EXPECT_EQ(fecModeName(ETHTOOL_LINK_MODE_FEC_RS_BIT), "RS");
    EXPECT_EQ(fecModeName(ETHTOOL_LINK_MODE_FEC_BASER_BIT), "BaseR");
    EXPECT_EQ(fecModeName(ETHTOOL_LINK_MODE_FEC_LLRS_BIT), "LLRS");
    EXPECT_EQ(fecModeName(99), "BIT99");
}

// ---- parseFecJson ----

TEST(FecJson, ReferenceExampleWithLanes)
{
    FecStats stats = parseFecJson(fixture("ethtool-8145f952-eth0.json"), "eth0");
    EXPECT_EQ(stats.netdev, "eth0");
    EXPECT_EQ(stats.active, "") << "ethtool prints None when the kernel named no mode";
    EXPECT_EQ(stats.corrected_blocks, (FecCounter{256, {255, 1}}));
    EXPECT_EQ(stats.uncorrectable_blocks, (FecCounter{145, {128, 17}}));
    EXPECT_FALSE(stats.corrected_bits);
}

TEST(FecJson, HistogramCaptureIgnoresHist)
{
    FecStats stats = parseFecJson(fixture("ethtool-hist-eni8np1.json"), "eni8np1");
    EXPECT_EQ(stats.corrected_blocks, (FecCounter{123, {}}));
    EXPECT_EQ(stats.uncorrectable_blocks, (FecCounter{4, {}}));
    EXPECT_FALSE(stats.corrected_bits);
}

TEST(FecJson, ConvertedCapturesMatchTheirPublishedText)
{
    const std::pair<const char*, FecStats> cases[] = {
        {"fbnic-eth0", {"eth0", "RS", FecCounter{0, {}}, FecCounter{0, {}}, std::nullopt}},
        {"ice-ens21f0np0",
         {"ens21f0np0", "RS", FecCounter{0, {}}, FecCounter{0, {}}, std::nullopt}},
        {"connectx7-enp1s0f1np1", {"enp1s0f1np1", "RS", std::nullopt, std::nullopt, std::nullopt}},
        {"connectx7-enp1s0f0np0", {"enp1s0f0np0", "", std::nullopt, std::nullopt, std::nullopt}},
        {"ethtool-8145f952-eth0",
         {"eth0", "", FecCounter{256, {255, 1}}, FecCounter{145, {128, 17}}, std::nullopt}},
    };
    for (const auto& [name, expected] : cases) {
        std::string base = name;
        FecStats from_json = parseFecJson(fixture(base + ".json"), expected.netdev);
        EXPECT_EQ(from_json, expected) << base;
        EXPECT_EQ(parseFecText(fixture(base + ".txt")), from_json) << base << ": text vs JSON";
    }
}

TEST(FecJson, CorrectedBitsAndOff)
{
    // mlx5 on Linux 5.13-5.16 reports corrected_bits only; "Off" is the FEC_NONE bit.
    std::string text = R"([ { "ifname": "eth0", "config": [ "Auto" ], "active": [ "Off" ],
        "statistics": { "corrected_bits": { "total": 18446744073709551615 } } } ])";
    FecStats stats = parseFecJson(text, "eth0");
    EXPECT_EQ(stats.active, "Off");
    EXPECT_EQ(stats.corrected_bits, (FecCounter{UINT64_MAX, {}}));
    EXPECT_FALSE(stats.corrected_blocks);
    EXPECT_FALSE(stats.uncorrectable_blocks);
}

TEST(FecJson, MissingOrEmptyStatisticsLeaveCountersAbsent)
{
    FecStats none = parseFecJson(R"([{"ifname":"eth0","active":["RS"]}])", "eth0");
    FecStats empty = parseFecJson(withStatistics("{}"), "eth0");
    for (const FecStats& stats : {none, empty}) {
        EXPECT_EQ(stats.active, "RS");
        EXPECT_FALSE(stats.corrected_blocks);
        EXPECT_FALSE(stats.uncorrectable_blocks);
        EXPECT_FALSE(stats.corrected_bits);
    }
}

TEST(FecJson, PicksTheNamedDeviceOrTheOnlyOne)
{
    std::string two = R"([{"ifname":"eth0","active":["RS"]},{"ifname":"eth1","active":["BaseR"]}])";
    EXPECT_EQ(parseFecJson(two, "eth1").active, "BaseR");
    EXPECT_EQ(parseFecJson(two, "eth0").active, "RS");
    EXPECT_NE(jsonError(R"([{"ifname":"a"},{"ifname":"b"}])").find("no object with ifname"),
              std::string::npos);
    FecStats only = parseFecJson(R"([{"ifname":"ens1np0","active":["LLRS"]}])", "eth0");
    EXPECT_EQ(only.netdev, "ens1np0") << "the only object, under the kernel's name";
    EXPECT_EQ(parseFecJson(R"([{"active":["RS"]}])", "eth5").netdev, "eth5");
}

TEST(FecJson, MalformedInputNamesTheKey)
{
    const std::pair<std::string, std::string> cases[] = {
        {"", "not JSON"},
        {"[ {", "not JSON"},
        {R"({"ifname":"eth0"})", "not an array"},
        {"[]", "empty array"},
        {"[1]", "[0]: not an object"},
        {R"([{"ifname":7}])", "[0].ifname"},
        {R"([{"ifname":"eth0","active":"RS"}])", "[0].active"},
        {R"([{"ifname":"eth0","active":[3]}])", "[0].active[0]"},
        {withStatistics("[]"), "[0].statistics: not an object"},
        {withStatistics(R"({"corrected_blocks":5})"), "statistics.corrected_blocks: not an object"},
        {withStatistics(R"({"corrected_blocks":{}})"), "corrected_blocks.total: missing"},
        {withStatistics(R"({"uncorrectable_blocks":{"total":-1}})"),
         "uncorrectable_blocks.total: not a non-negative integer"},
        {withStatistics(R"({"corrected_bits":{"total":1.5}})"), "corrected_bits.total"},
        {withStatistics(R"({"corrected_bits":{"total":"7"}})"), "corrected_bits.total"},
        {withStatistics(R"({"corrected_bits":{"total":18446744073709551616}})"),
         "corrected_bits.total"},
        {withStatistics(R"({"corrected_blocks":{"total":1,"lanes":2}})"),
         "corrected_blocks.lanes: not an array"},
        {withStatistics(R"({"corrected_blocks":{"total":1,"lanes":[1,-2]}})"),
         "corrected_blocks.lanes[1]"},
        {std::string(40, '[') + std::string(40, ']'), "nested deeper"},
    };
    for (const auto& [text, key] : cases)
        EXPECT_NE(jsonError(text).find(key), std::string::npos)
            << text << " -> " << jsonError(text);
}

TEST(FecJson, SameKernelStateSameStatsAsNetlink)
{
    Bytes reply =
        cat({fecHeader("ens21f0np0"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
             nest(ETHTOOL_A_FEC_STATS, {u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {0}),
                                        u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {0}),
                                        u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {})})});
    EXPECT_EQ(decodeFecReply(reply), parseFecJson(fixture("ice-ens21f0np0.json"), "ens21f0np0"));
    EXPECT_EQ(decodeFecReply(fecHeader("enp1s0f0np0")),
              parseFecJson(fixture("connectx7-enp1s0f0np0.json"), "enp1s0f0np0"))
        << "no active mode: empty from both";
}
