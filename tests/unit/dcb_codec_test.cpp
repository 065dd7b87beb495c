// The DCB codec against byte layouts written out by hand from the uapi structs
// (shared/reference/qos-provisioning.md §1.5-§1.8): requests byte for byte, replies of every
// shape the kernel sends, and malformed replies that must give an error, never a bad read.
#include <nicd/plugin/sdk/dcb_codec.h>

#include <cerrno>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

using namespace nicd::plugin::sdk::dcb;
using Bytes = std::vector<uint8_t>;
using nicd::plugin::sdk::DecodeError;

namespace {

constexpr uint32_t kSeq = 0x11223344;

// nlmsghdr + dcbmsg prefix of a request: len, type, flags REQUEST|ACK, seq, pid 0, cmd.
Bytes header(uint32_t len, uint16_t type, uint16_t flags, uint32_t seq, uint32_t pid, uint8_t cmd)
{
    Bytes b(20, 0);
    std::memcpy(&b[0], &len, 4);
    std::memcpy(&b[4], &type, 2);
    std::memcpy(&b[6], &flags, 2);
    std::memcpy(&b[8], &seq, 4);
    std::memcpy(&b[12], &pid, 4);
    b[17] = cmd;
    return b;
}

Bytes operator+(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// An attribute as the kernel lays it out: len (header + payload), type, payload, zero padding.
Bytes attr(uint16_t type, const Bytes& payload)
{
    auto len = static_cast<uint16_t>(4 + payload.size());
    Bytes b{static_cast<uint8_t>(len & 0xff), static_cast<uint8_t>(len >> 8),
            static_cast<uint8_t>(type & 0xff), static_cast<uint8_t>(type >> 8)};
    b = b + payload;
    b.resize((b.size() + 3) & ~size_t{3}, 0);
    return b;
}

// Sets nlmsg_len of the first message to the buffer's size.
Bytes sized(Bytes b)
{
    auto len = static_cast<uint32_t>(b.size());
    std::memcpy(&b[0], &len, 4);
    return b;
}

// DCB_ATTR_IFNAME "eth0" with its NUL: nla_len 9, then 3 bytes of padding.
Bytes ifnameEth0()
{
    return {0x09, 0x00, 0x01, 0x00, 'e', 't', 'h', '0', 0x00, 0x00, 0x00, 0x00};
}

// struct nlmsgerr: error, then the request's header.
Bytes nlmsgError(int32_t error, uint32_t seq)
{
    Bytes b = header(36, 2, 0x100, seq, 4321, 0);
    b.resize(16);
    Bytes e(20, 0);
    std::memcpy(&e[0], &error, 4);
    return b + e;
}

Bytes pfcPayload(uint8_t cap, uint8_t en, uint8_t mbc, uint16_t delay, uint64_t req3)
{
    Bytes p(136, 0);
    p[0] = cap;
    p[1] = en;
    p[2] = mbc;
    std::memcpy(&p[4], &delay, 2);
    std::memcpy(&p[8 + 3 * 8], &req3, 8);
    return p;
}

// An mlx5-shaped IEEE_GET reply: IFNAME, IEEE nest (no NLA_F_NESTED) with ETS, PFC and the APP
// table, then DCBX.
Bytes getReply(uint32_t seq, const Bytes& apps)
{
    Bytes ets(59, 0);
    Bytes ieee = attr(1, ets) + attr(2, pfcPayload(8, 0x08, 0, 7, 1234)) + attr(3, apps);
    return sized(header(0, 78, 0x05, seq, 4321, 21) + ifnameEth0() + attr(13, ieee) +
                 attr(14, {0x0c}));
}

Bytes app(uint8_t sel, uint8_t prio, uint16_t proto, uint16_t type = 1)
{
    return attr(type,
                {sel, prio, static_cast<uint8_t>(proto & 0xff), static_cast<uint8_t>(proto >> 8)});
}

// What a decoder returned; a DecodeError it threw is a test failure.
template <class F> auto okOf(F&& decode) -> decltype(decode())
{
    try {
        return decode();
    } catch (const DecodeError& e) {
        ADD_FAILURE() << "decode error: " << e.what();
    }
    return {};
}

// The message of the DecodeError the decoder threw; "" when it threw none.
template <class F> std::string errorOf(F&& decode)
{
    try {
        (void)decode();
    } catch (const DecodeError& e) {
        return e.what();
    }
    return "";
}

#define OK_DECODE(...) okOf([&] { return __VA_ARGS__; })
#define DECODE_ERROR(...) errorOf([&] { return __VA_ARGS__; })

} // namespace

TEST(DcbCodecEncode, IeeeGetMatchesTheWorkedLayout)
{
    Bytes want = {0x20, 0x00, 0x00, 0x00, 0x4e, 0x00, 0x05, 0x00, 0x44, 0x33,
                  0x22, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00};
    want = want + ifnameEth0();
    EXPECT_EQ(encodeIeeeGet("eth0", kSeq), want);
}

TEST(DcbCodecEncode, IeeeSetOneDscpEntry)
{
    Bytes want = header(48, 79, 0x05, kSeq, 0, 20) + ifnameEth0() +
                 Bytes{0x10, 0x00, 0x0d, 0x80, 0x0c, 0x00, 0x03, 0x80,
                       0x08, 0x00, 0x01, 0x00, 0x05, 0x03, 0x1a, 0x00};
    App a{5, 3, 26};
    EXPECT_EQ(encodeIeeeSet("eth0", kSeq, std::nullopt, std::span(&a, 1)), want);
}

TEST(DcbCodecEncode, IeeeDelIsTheSetWithCommand27)
{
    App a{5, 3, 26};
    auto set = encodeIeeeSet("eth0", kSeq, std::nullopt, std::span(&a, 1));
    auto del = encodeIeeeDel("eth0", kSeq, std::span(&a, 1));
    ASSERT_EQ(del.size(), 48U);
    EXPECT_EQ(del[17], 0x1b);
    del[17] = 0x14;
    EXPECT_EQ(del, set);
}

TEST(DcbCodecEncode, IeeeSetPfcPriorityThreeKeepsDelay)
{
    Pfc pfc;
    pfc.cap = 8;
    pfc.enabled = 0x08;
    pfc.delay = 7;
    Bytes want = header(176, 79, 0x05, kSeq, 0, 20) + ifnameEth0() +
                 Bytes{0x90, 0x00, 0x0d, 0x80, 0x8c, 0x00, 0x02, 0x00} +
                 pfcPayload(8, 0x08, 0, 7, 0);
    EXPECT_EQ(encodeIeeeSet("eth0", kSeq, pfc, {}), want);
}

TEST(DcbCodecEncode, All64DscpEntriesInOneMessage)
{
    std::vector<App> apps;
    apps.reserve(64);
    for (int d = 0; d < 64; ++d)
        apps.push_back({5, static_cast<uint8_t>(d >> 3), static_cast<uint16_t>(d)});
    auto msg = encodeIeeeSet("eth0", kSeq, std::nullopt, apps);
    EXPECT_EQ(msg.size(), 552U);
    // The last entry: DSCP 63 -> priority 7.
    Bytes tail(msg.end() - 8, msg.end());
    EXPECT_EQ(tail, (Bytes{0x08, 0x00, 0x01, 0x00, 0x05, 0x07, 0x3f, 0x00}));
}

TEST(DcbCodecEncode, PcpSelectorUsesTheDcbAppType)
{
    App a{255, 2, 5};
    auto msg = encodeIeeeSet("eth0", kSeq, std::nullopt, std::span(&a, 1));
    Bytes tail(msg.end() - 8, msg.end());
    EXPECT_EQ(tail, (Bytes{0x08, 0x00, 0x02, 0x00, 0xff, 0x02, 0x05, 0x00}));
}

TEST(DcbCodecEncode, InterfaceNameLimits)
{
    EXPECT_TRUE(validIfname("ens1f0np0"));
    EXPECT_TRUE(validIfname("abcdefghijklmno")); // 15
    EXPECT_FALSE(validIfname("abcdefghijklmnop"));
    EXPECT_FALSE(validIfname(""));
    EXPECT_FALSE(validIfname(std::string_view("a\0b", 3)));
}

TEST(DcbCodecEncode, PfcRoundTrip)
{
    Pfc p;
    p.cap = 8;
    p.enabled = 0x18;
    p.mbc = 1;
    p.delay = 300;
    p.requests[3] = 99;
    p.indications[7] = ~0ULL;
    auto bytes = encodePfc(p);
    EXPECT_EQ(OK_DECODE(decodePfc(bytes)), p);
}

TEST(DcbCodecDecode, GetReplyWithPfcAppsAndDcbx)
{
    auto reply =
        getReply(kSeq, app(5, 3, 26) + app(5, 0, 0) + app(255, 1, 2, 2)) + nlmsgError(0, kSeq);
    EXPECT_TRUE(OK_DECODE(replyComplete(reply, kSeq)));
    auto r = OK_DECODE(decodeGetReply(reply, kSeq));
    EXPECT_EQ(r.error, 0);
    EXPECT_EQ(r.state.ifname, "eth0");
    ASSERT_TRUE(r.state.pfc);
    EXPECT_EQ(r.state.pfc->cap, 8);
    EXPECT_EQ(r.state.pfc->enabled, 0x08);
    EXPECT_EQ(r.state.pfc->delay, 7);
    EXPECT_EQ(r.state.pfc->requests[3], 1234U);
    EXPECT_EQ(r.state.apps, (std::vector<App>{{5, 3, 26}, {5, 0, 0}, {255, 1, 2}}));
    EXPECT_EQ(r.state.dcbx, 0x0c);
}

TEST(DcbCodecDecode, GetReplyEmptyAppTableAndNestedFlags)
{
    Bytes ieee = attr(2 | 0x8000, pfcPayload(8, 0, 0, 7, 0)) + attr(3 | 0x8000, {}) +
                 attr(12 | 0x8000, {}) + attr(99, {1, 2, 3});
    auto reply = sized(header(0, 78, 0x05, kSeq, 1, 21) + ifnameEth0() + attr(13 | 0x8000, ieee));
    auto r = OK_DECODE(decodeGetReply(reply, kSeq));
    EXPECT_TRUE(r.state.apps.empty());
    ASSERT_TRUE(r.state.pfc);
    EXPECT_EQ(r.state.pfc->enabled, 0);
    EXPECT_FALSE(r.state.dcbx);
}

// struct ieee_ets: willing, ets_cap, cbs, then tc_tx_bw, tc_rx_bw, tc_tsa, prio_tc, tc_reco_bw,
// tc_reco_tsa, reco_prio_tc, 8 bytes each (59 in all, no padding inside).
TEST(DcbCodecEts, SetEtsLayoutAndGetReplyDecode)
{
    Ets ets;
    ets.cap = 7;
    ets.tx_bw = {50, 50};
    ets.tsa = {kTsaEts, kTsaEts};
    ets.prio_tc = {0, 0, 0, 1, 0, 0, 0, 0};
    Bytes payload(59, 0);
    payload[1] = 7;
    payload[3] = payload[4] = 50;
    payload[19] = payload[20] = 2;
    payload[27 + 3] = 1;
    auto encoded = encodeEts(ets);
    EXPECT_EQ(Bytes(encoded.begin(), encoded.end()), payload);
    // IEEE_SET: IFNAME, then the IEEE nest (NLA_F_NESTED) with ETS alone (59 bytes + 1 pad).
    Bytes want = header(100, 79, 0x05, kSeq, 0, 20) + ifnameEth0() +
                 Bytes{0x44, 0x00, 0x0d, 0x80, 0x3f, 0x00, 0x01, 0x00} + payload + Bytes{0};
    EXPECT_EQ(encodeIeeeSetEts("eth0", kSeq, ets), want);

    Bytes ieee = attr(1, payload) + attr(2, pfcPayload(3, 0, 0, 0, 0)) + attr(3, {});
    auto reply =
        sized(header(0, 78, 0x05, kSeq, 1, 21) + ifnameEth0() + attr(13, ieee) + attr(14, {0x09})) +
        nlmsgError(0, kSeq);
    auto r = OK_DECODE(decodeGetReply(reply, kSeq));
    ASSERT_TRUE(r.state.ets);
    EXPECT_EQ(*r.state.ets, ets);
    EXPECT_FALSE(etsUnset(ets));
    EXPECT_EQ(r.state.dcbx, 0x09);
    EXPECT_NE(DECODE_ERROR(decodeEts(Bytes(58, 0))), "") << "shorter than struct ieee_ets";
}

TEST(DcbCodecDecode, UnknownAppEntryTypesAreSkipped)
{
    auto reply = getReply(kSeq, app(5, 3, 26) + attr(7, {1}));
    EXPECT_EQ(OK_DECODE(decodeGetReply(reply, kSeq)).state.apps, (std::vector<App>{{5, 3, 26}}));
}

TEST(DcbCodecDecode, GetRefusedByNlmsgError)
{
    auto reply = nlmsgError(-EOPNOTSUPP, kSeq);
    EXPECT_TRUE(OK_DECODE(replyComplete(reply, kSeq)));
    EXPECT_EQ(OK_DECODE(decodeGetReply(reply, kSeq)).error, EOPNOTSUPP);
}

TEST(DcbCodecDecode, MessagesOfOtherRequestsAreIgnored)
{
    auto reply = nlmsgError(-EPERM, kSeq + 1) + getReply(kSeq, {}) + nlmsgError(0, kSeq);
    EXPECT_FALSE(OK_DECODE(replyComplete(getReply(kSeq, {}), kSeq)));
    EXPECT_FALSE(OK_DECODE(replyComplete(nlmsgError(0, kSeq + 1), kSeq)));
    EXPECT_EQ(OK_DECODE(decodeGetReply(reply, kSeq)).error, 0);
    EXPECT_NE(DECODE_ERROR(decodeGetReply(nlmsgError(0, kSeq + 1), kSeq)), "");
}

TEST(DcbCodecDecode, SetReplyStatusByteFromTheReference)
{
    // -EINVAL in-band for seq 3, pid 1234 (reference §1.7).
    Bytes reply = {0x1c, 0x00, 0x00, 0x00, 0x4f, 0x00, 0x05, 0x00, 0x03, 0x00,
                   0x00, 0x00, 0xd2, 0x04, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00,
                   0x05, 0x00, 0x0d, 0x00, 0xea, 0x00, 0x00, 0x00};
    reply = reply + nlmsgError(0, 3);
    auto r = OK_DECODE(decodeSetReply(reply, 3, kCmdIeeeSet));
    EXPECT_EQ(r.error, EINVAL);
    EXPECT_TRUE(r.in_band);
}

TEST(DcbCodecDecode, SetReplySuccessAndOtherStatusBytes)
{
    auto status = [](uint8_t cmd, uint8_t byte) {
        return sized(header(0, 79, 0x05, kSeq, 1, cmd) + attr(13, {byte})) + nlmsgError(0, kSeq);
    };
    auto r = OK_DECODE(decodeSetReply(status(20, 0), kSeq, kCmdIeeeSet));
    EXPECT_EQ(r.error, 0);
    EXPECT_FALSE(r.in_band);
    EXPECT_EQ(OK_DECODE(decodeSetReply(status(27, 0xfe), kSeq, kCmdIeeeDel)).error, ENOENT);
    EXPECT_EQ(OK_DECODE(decodeSetReply(status(20, 0xa1), kSeq, kCmdIeeeSet)).error, EOPNOTSUPP);
    EXPECT_EQ(OK_DECODE(decodeSetReply(status(20, 0xde), kSeq, kCmdIeeeSet)).error, ERANGE);
    // A positive byte is not an errno; a reply for another command is not ours.
    EXPECT_NE(DECODE_ERROR(decodeSetReply(status(20, 0x05), kSeq, kCmdIeeeSet)), "");
    EXPECT_NE(DECODE_ERROR(decodeSetReply(status(27, 0), kSeq, kCmdIeeeSet)), "");
}

TEST(DcbCodecDecode, SetRefusedByNlmsgError)
{
    auto r = OK_DECODE(decodeSetReply(nlmsgError(-EPERM, kSeq), kSeq, kCmdIeeeSet));
    EXPECT_EQ(r.error, EPERM);
    EXPECT_FALSE(r.in_band);
}

TEST(DcbCodecDecode, MalformedRepliesAreErrors)
{
    auto good = getReply(kSeq, app(5, 3, 26));
    // Truncated anywhere: never a crash, never a state.
    for (size_t n = 0; n < good.size(); ++n) {
        Bytes cut(good.begin(), good.begin() + static_cast<long>(n));
        EXPECT_NE(DECODE_ERROR(decodeGetReply(cut, kSeq)), "") << n;
    }
    // nlmsg_len below the header, or beyond the buffer.
    auto small = good;
    small[0] = 8;
    EXPECT_NE(DECODE_ERROR(decodeGetReply(small, kSeq)), "");
    auto big = good;
    big[0] = static_cast<uint8_t>(big[0] + 4);
    EXPECT_NE(DECODE_ERROR(decodeGetReply(big, kSeq)), "");
    // An attribute longer than what is left, or shorter than its header.
    auto bad_attr = good;
    bad_attr[20] = 0xff; // IFNAME nla_len
    EXPECT_NE(DECODE_ERROR(decodeGetReply(bad_attr, kSeq)), "");
    bad_attr[20] = 2;
    EXPECT_NE(DECODE_ERROR(decodeGetReply(bad_attr, kSeq)), "");
    // A PFC payload shorter than struct ieee_pfc; an APP entry shorter than struct dcb_app.
    auto short_pfc = sized(header(0, 78, 5, kSeq, 1, 21) + attr(13, attr(2, Bytes(12, 0))));
    EXPECT_NE(DECODE_ERROR(decodeGetReply(short_pfc, kSeq)).find("PFC"), std::string::npos);
    auto short_app = sized(header(0, 78, 5, kSeq, 1, 21) + attr(13, attr(3, attr(1, {5, 3}))));
    EXPECT_NE(DECODE_ERROR(decodeGetReply(short_app, kSeq)).find("APP"), std::string::npos);
    // No IEEE nest; an empty DCBX; a reply for another command.
    EXPECT_NE(
        DECODE_ERROR(decodeGetReply(sized(header(0, 78, 5, kSeq, 1, 21) + ifnameEth0()), kSeq)),
        "");
    EXPECT_NE(DECODE_ERROR(decodeGetReply(
                  sized(header(0, 78, 5, kSeq, 1, 21) + attr(13, {}) + attr(14, {})), kSeq)),
              "");
    EXPECT_NE(
        DECODE_ERROR(decodeGetReply(sized(header(0, 78, 5, kSeq, 1, 22) + attr(13, {})), kSeq)),
        "");
    // An NLMSG_ERROR too short for struct nlmsgerr, or with a positive error.
    auto short_err = nlmsgError(-EPERM, kSeq);
    short_err.resize(20);
    short_err = sized(short_err);
    EXPECT_NE(DECODE_ERROR(decodeGetReply(short_err, kSeq)), "");
    EXPECT_NE(DECODE_ERROR(decodeSetReply(short_err, kSeq, kCmdIeeeSet)), "");
    EXPECT_NE(DECODE_ERROR(decodeSetReply(nlmsgError(5, kSeq), kSeq, kCmdIeeeSet)), "");
    // A status attribute that is not exactly one byte; a SET reply without one; nothing at all.
    EXPECT_NE(DECODE_ERROR(decodeSetReply(sized(header(0, 79, 5, kSeq, 1, 20) + attr(13, {0, 0})),
                                          kSeq, kCmdIeeeSet)),
              "");
    EXPECT_NE(DECODE_ERROR(decodeSetReply(sized(header(0, 79, 5, kSeq, 1, 20) + ifnameEth0()), kSeq,
                                          kCmdIeeeSet)),
              "");
    EXPECT_NE(DECODE_ERROR(decodeSetReply({}, kSeq, kCmdIeeeSet)), "");
    EXPECT_NE(DECODE_ERROR(replyComplete(Bytes{1, 2, 3}, kSeq)), "");
}

TEST(DcbCodecDecode, GarbageNeverCrashes)
{
    std::mt19937 rng(42);
    auto base = getReply(kSeq, app(5, 3, 26) + app(5, 4, 33)) + nlmsgError(0, kSeq);
    for (int i = 0; i < 20000; ++i) {
        Bytes b = base;
        int flips = 1 + static_cast<int>(rng() % 6);
        for (int f = 0; f < flips; ++f)
            b[rng() % b.size()] = static_cast<uint8_t>(rng());
        b.resize(rng() % (b.size() + 1));
        // Malformed bytes are a DecodeError, never a crash or another exception.
        (void)DECODE_ERROR(decodeGetReply(b, kSeq));
        (void)DECODE_ERROR(decodeSetReply(b, kSeq, kCmdIeeeSet));
        (void)DECODE_ERROR(replyComplete(b, kSeq));
    }
    SUCCEED();
}
