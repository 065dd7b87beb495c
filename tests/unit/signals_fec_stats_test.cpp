// FEC statistics: the ETHTOOL_MSG_FEC_GET_REPLY decoder against attribute bytes laid out by hand
// from the uapi (shared/reference/pre-failure.md §1.2), the JSON parser against published
// `ethtool --json -I --show-fec` captures (tests/data/fec/SOURCES.md), the netlink answer
// matching, and EthtoolNetlink against this machine's kernel (lo, a missing netdev, a veth pair).
#include "signals/ethtool_netlink.hpp"
#include "signals/fec_stats.hpp"

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
using namespace nicd::signals;
using Bytes = std::vector<uint8_t>;

namespace {

// ---- netlink attribute builder ----

Bytes cat(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const Bytes& part : parts)
        out.insert(out.end(), part.begin(), part.end());
    return out;
}

// An attribute as the kernel lays it out: nla_len (header + payload), nla_type, payload, zero
// padding to 4 bytes.
Bytes attr(uint16_t type, const Bytes& payload)
{
    auto len = static_cast<uint16_t>(NLA_HDRLEN + payload.size());
    Bytes out(NLA_ALIGN(len), 0);
    std::memcpy(&out[0], &len, sizeof len);
    std::memcpy(&out[2], &type, sizeof type);
    std::copy(payload.begin(), payload.end(), out.begin() + NLA_HDRLEN);
    return out;
}

Bytes u32Attr(uint16_t type, uint32_t value)
{
    Bytes payload(sizeof value);
    std::memcpy(payload.data(), &value, sizeof value);
    return attr(type, payload);
}

Bytes stringAttr(uint16_t type, const std::string& text)
{
    Bytes payload(text.begin(), text.end());
    payload.push_back(0);
    return attr(type, payload);
}

Bytes nest(uint16_t type, std::initializer_list<Bytes> children)
{
    return attr(type | NLA_F_NESTED, cat(children));
}

Bytes u64Array(uint16_t type, std::initializer_list<uint64_t> values)
{
    Bytes payload(values.size() * sizeof(uint64_t));
    if (values.size() != 0)
        std::memcpy(payload.data(), std::data(values), payload.size());
    return attr(type, payload);
}

Bytes header(const std::string& netdev)
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
        cat({header("eth2"), modesAndAuto(),
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
        {header("eth3"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_BASER_BIT),
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
    Bytes reply = cat({header("eth0"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
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
    FecStats stats = decodeFecReply(cat({header("eth0"), modesAndAuto()}));
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
    Bytes reply = cat({u32Attr(kFutureAttr, 1), header("eth0"),
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
    Bytes reply = cat({header("eth0"), Bytes{0x05, 0x00, ETHTOOL_A_FEC_AUTO, 0x00, 0x01}});
    EXPECT_EQ(decodeFecReply(reply).netdev, "eth0");
}

TEST(FecReplyDecode, NameWithoutNulIsTakenWhole)
{
    Bytes name = attr(ETHTOOL_A_HEADER_DEV_NAME, {'e', 't', 'h', '9'});
    EXPECT_EQ(decodeFecReply(attr(ETHTOOL_A_FEC_HEADER, name)).netdev, "eth9");
}

TEST(FecReplyDecode, TruncatedAttributeHeaderThrows)
{
    Bytes reply = cat({header("eth0"), Bytes{0x08, 0x00}});
    EXPECT_NE(decodeError(reply).find("too few for an attribute header"), std::string::npos)
        << decodeError(reply);
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
    EXPECT_NE(decodeError(reply).find("less than its header"), std::string::npos)
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
        cat({header("ens21f0np0"), u32Attr(ETHTOOL_A_FEC_ACTIVE, ETHTOOL_LINK_MODE_FEC_RS_BIT),
             nest(ETHTOOL_A_FEC_STATS, {u64Array(ETHTOOL_A_FEC_STAT_CORRECTED, {0}),
                                        u64Array(ETHTOOL_A_FEC_STAT_UNCORR, {0}),
                                        u64Array(ETHTOOL_A_FEC_STAT_CORR_BITS, {})})});
    EXPECT_EQ(decodeFecReply(reply), parseFecJson(fixture("ice-ens21f0np0.json"), "ens21f0np0"));
    EXPECT_EQ(decodeFecReply(header("enp1s0f0np0")),
              parseFecJson(fixture("connectx7-enp1s0f0np0.json"), "enp1s0f0np0"))
        << "no active mode: empty from both";
}

// ---- ethtool_detail ----

namespace {

constexpr uint32_t kSeq = 0x01020304;
constexpr uint16_t kFamily = 0x1a;

Bytes nlmsg(uint16_t type, uint16_t flags, uint32_t seq, const Bytes& payload)
{
    auto len = static_cast<uint32_t>(NLMSG_HDRLEN + payload.size());
    Bytes out(NLMSG_ALIGN(len), 0);
    std::memcpy(&out[0], &len, 4);
    std::memcpy(&out[4], &type, 2);
    std::memcpy(&out[6], &flags, 2);
    std::memcpy(&out[8], &seq, 4);
    std::copy(payload.begin(), payload.end(), out.begin() + NLMSG_HDRLEN);
    return out;
}

// An NLMSG_ERROR as a socket with NETLINK_CAP_ACK and NETLINK_EXT_ACK gets it.
Bytes errorMessage(int error, uint32_t seq, const std::string& extack)
{
    int32_t negative = -error;
    Bytes payload(sizeof negative + NLMSG_HDRLEN, 0);
    std::memcpy(payload.data(), &negative, sizeof negative);
    uint16_t flags = NLM_F_CAPPED;
    if (!extack.empty()) {
        Bytes tlv = stringAttr(NLMSGERR_ATTR_MSG, extack);
        payload.insert(payload.end(), tlv.begin(), tlv.end());
        flags |= NLM_F_ACK_TLVS;
    }
    return nlmsg(NLMSG_ERROR, flags, seq, payload);
}

Bytes genlReply(uint8_t cmd, uint32_t seq, const Bytes& attrs)
{
    Bytes payload = {cmd, ETHTOOL_GENL_VERSION, 0, 0};
    payload.insert(payload.end(), attrs.begin(), attrs.end());
    return nlmsg(kFamily, 0, seq, payload);
}

std::string absorbError(const Bytes& datagram)
{
    ethtool_detail::Answer answer;
    try {
        ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(EthtoolAnswer, ReplyThenAckInOneDatagram)
{
    Bytes attrs = header("eth0");
    Bytes datagram =
        cat({genlReply(ETHTOOL_MSG_FEC_GET_REPLY, kSeq, attrs), errorMessage(0, kSeq, "")});
    ethtool_detail::Answer answer;
    ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, 0);
    EXPECT_TRUE(answer.has_reply);
    EXPECT_EQ(answer.reply, attrs);
}

TEST(EthtoolAnswer, ErrorWithExtackAndStaleMessagesSkipped)
{
    Bytes datagram = cat({genlReply(ETHTOOL_MSG_FEC_GET_REPLY, kSeq - 1, header("old0")),
                          errorMessage(ENODEV, kSeq - 1, "stale"),
                          errorMessage(EIO, kSeq,
                                       "mlx5_core: Query module eeprom by page "
                                       "failed, read 0 bytes, err -5, status 3")});
    ethtool_detail::Answer answer;
    ethtool_detail::absorbDatagram(datagram, kSeq, kFamily, ETHTOOL_MSG_FEC_GET_REPLY, answer);
    EXPECT_TRUE(answer.finished);
    EXPECT_EQ(answer.error, EIO);
    EXPECT_FALSE(answer.has_reply);
    EXPECT_NE(answer.extack.find("status 3"), std::string::npos);
}

TEST(EthtoolAnswer, MalformedDatagramsThrow)
{
    Bytes overlong = errorMessage(0, kSeq, "");
    overlong[0] = 0xf0;
    EXPECT_NE(absorbError(overlong).find("length 240"), std::string::npos);
    Bytes truncated_error = nlmsg(NLMSG_ERROR, 0, kSeq, {0, 0, 0, 0});
    EXPECT_NE(absorbError(truncated_error).find("nlmsgerr"), std::string::npos);
    Bytes wrong_cmd = genlReply(ETHTOOL_MSG_LINKINFO_GET_REPLY, kSeq, {});
    EXPECT_NE(absorbError(wrong_cmd).find("command"), std::string::npos);
    EXPECT_EQ(absorbError(Bytes(10, 0)), "no error") << "a tail shorter than a header is ignored";
}

TEST(EthtoolAnswer, EepromIoErrorNoModuleRule)
{
    using ethtool_detail::eepromIoErrorMeansNoModule;
    EXPECT_TRUE(eepromIoErrorMeansNoModule("mlx5_core: Query module eeprom by page failed, read "
                                           "0 bytes, err -5, status 3"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                           "err -5, status 1"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                            "err -5, status 9"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 0 bytes, "
                                           "err -5"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule("Query module eeprom by page failed, read 48 bytes, "
                                            "err -5"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule("No module present indication"));
    EXPECT_FALSE(eepromIoErrorMeansNoModule(
        "Error occurred while trying to access module's EEPROM using I2C"));
    EXPECT_TRUE(eepromIoErrorMeansNoModule(""));
}

// ---- EthtoolNetlink against this machine's kernel ----

namespace {

constexpr std::chrono::milliseconds kLiveTimeout{2000};
constexpr std::chrono::seconds kMaxCallTime{5};
constexpr uint8_t kI2cA0 = 0x50;
constexpr uint8_t kHalfPage = 128;

template <class T> std::string describe(const Reply<T>& reply)
{
    const char* names[] = {"Ok", "Unsupported", "Failed"};
    return std::string(names[static_cast<int>(reply.status)]) + ": " + reply.message;
}

// A veth pair for the test's lifetime; empty name when it could not be made.
class VethPair {
public:
    VethPair()
    {
        std::string candidate = "nfec" + std::to_string(::getpid() % 100000);
        std::string command =
            "ip link add " + candidate + "a type veth peer name " + candidate + "b >/dev/null 2>&1";
        if (std::system(command.c_str()) == 0)
            name_ = candidate + "a";
    }
    ~VethPair()
    {
        if (!name_.empty())
            (void)std::system(("ip link del " + name_ + " >/dev/null 2>&1").c_str());
    }
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

} // namespace

TEST(EthtoolNetlinkLive, LoopbackHasNoFecAndNoModule)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    auto start = std::chrono::steady_clock::now();
    Reply<FecStats> fec = ethtool.readFec("lo");
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Unsupported) << describe(fec);
    EXPECT_NE(fec.message.find("lo"), std::string::npos) << fec.message;
    EXPECT_NE(fec.message.find("FEC_GET"), std::string::npos) << fec.message;

    auto eeprom = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, kHalfPage);
    EXPECT_EQ(eeprom.status, Reply<std::vector<uint8_t>>::Status::Unsupported) << describe(eeprom);
    EXPECT_TRUE(eeprom.value.empty());
    EXPECT_NE(eeprom.message.find("MODULE_EEPROM_GET"), std::string::npos) << eeprom.message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
    std::cout << "lo: " << describe(fec) << "\nlo: " << describe(eeprom) << "\n";
}

TEST(EthtoolNetlinkLive, MissingNetdevIsNamed)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    Reply<FecStats> fec = ethtool.readFec("does-not-exist0");
    EXPECT_NE(fec.status, Reply<FecStats>::Status::Ok) << describe(fec);
    EXPECT_NE(fec.message.find("does-not-exist0"), std::string::npos) << fec.message;
    auto eeprom = ethtool.readModuleEeprom("does-not-exist0", kI2cA0, 0, 0, 0, 1);
    EXPECT_NE(eeprom.status, Reply<std::vector<uint8_t>>::Status::Ok) << describe(eeprom);
    EXPECT_NE(eeprom.message.find("does-not-exist0"), std::string::npos) << eeprom.message;
    std::cout << "does-not-exist0: " << describe(fec) << "\n";
}

TEST(EthtoolNetlinkLive, BadLengthFailsWithoutAsking)
{
    EthtoolNetlink ethtool(kLiveTimeout);
    auto zero = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, 0);
    auto big = ethtool.readModuleEeprom("lo", kI2cA0, 0, 0, 0, kHalfPage + 1);
    EXPECT_EQ(zero.status, Reply<std::vector<uint8_t>>::Status::Failed);
    EXPECT_EQ(big.status, Reply<std::vector<uint8_t>>::Status::Failed);
    EXPECT_NE(big.message.find("outside 1-128"), std::string::npos) << big.message;
}

TEST(EthtoolNetlinkLive, TinyTimeoutNeverHangs)
{
    EthtoolNetlink ethtool(std::chrono::milliseconds(1));
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 3; ++i) {
        Reply<FecStats> fec = ethtool.readFec("lo");
        EXPECT_NE(fec.status, Reply<FecStats>::Status::Ok) << describe(fec);
        std::cout << "lo with 1 ms: " << describe(fec) << "\n";
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
}

TEST(EthtoolNetlinkLive, ZeroTimeoutFailsAsATimeout)
{
    EthtoolNetlink ethtool(std::chrono::milliseconds(0));
    auto start = std::chrono::steady_clock::now();
    Reply<FecStats> fec = ethtool.readFec("lo");
    if (fec.status == Reply<FecStats>::Status::Unsupported)
        GTEST_SKIP() << "no generic netlink here: " << fec.message;
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Failed) << describe(fec);
    EXPECT_NE(fec.message.find("timeout"), std::string::npos) << fec.message;
    EXPECT_NE(fec.message.find("lo"), std::string::npos) << fec.message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, kMaxCallTime);
    std::cout << "lo with 0 ms: " << describe(fec) << "\n";
}

TEST(EthtoolNetlinkLive, VethPairHasNoFecAndNoModule)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "creating a veth pair needs root";
    VethPair veth;
    if (veth.name().empty())
        GTEST_SKIP() << "ip link add ... type veth failed (no CAP_NET_ADMIN, no veth module or "
                        "no ip command)";
    EthtoolNetlink ethtool(kLiveTimeout);
    Reply<FecStats> fec = ethtool.readFec(veth.name());
    EXPECT_EQ(fec.status, Reply<FecStats>::Status::Unsupported) << describe(fec);
    EXPECT_NE(fec.message.find(veth.name()), std::string::npos) << fec.message;
    auto eeprom = ethtool.readModuleEeprom(veth.name(), kI2cA0, 0, 0, 0, kHalfPage);
    EXPECT_EQ(eeprom.status, Reply<std::vector<uint8_t>>::Status::Unsupported) << describe(eeprom);
    std::cout << veth.name() << ": " << describe(fec) << "\n"
              << veth.name() << ": " << describe(eeprom) << "\n";
}
