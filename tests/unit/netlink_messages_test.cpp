// plugin::sdk's netlink message splitter and status reader on datagrams laid out by hand
// (support/netlink_attrs.hpp): each message with its header's fields and offset, a tail too
// short for a header left alone, lengths that run past the end or below a header rejected naming
// the offset, and NLMSG_ERROR / NLMSG_DONE statuses with and without the kernel's extack.
#include "support/netlink_attrs.hpp"

#include <nicd/plugin/sdk/netlink_messages.h>

#include <linux/netlink.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace nicd::test;
namespace sdk = nicd::plugin::sdk;

namespace {

struct SeenMessage {
    uint16_t type;
    uint16_t flags;
    uint32_t seq;
    size_t offset;
    size_t size;
    bool operator==(const SeenMessage&) const = default;
};

std::vector<SeenMessage> split(const Bytes& datagram)
{
    std::vector<SeenMessage> out;
    for (const sdk::NetlinkMessage& m : sdk::NetlinkMessages(datagram, "test"))
        out.push_back({m.type, m.flags, m.seq, m.offset, m.bytes.size()});
    return out;
}

std::string splitComplaint(const Bytes& datagram)
{
    try {
        split(datagram);
    } catch (const sdk::DecodeError& e) {
        return e.what();
    }
    return "no error";
}

sdk::NetlinkStatus statusOf(const Bytes& message)
{
    return sdk::decodeNetlinkStatus(sdk::firstMessage(message, "test"), "test");
}

std::string statusComplaint(const Bytes& message)
{
    try {
        statusOf(message);
    } catch (const sdk::DecodeError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(NetlinkMessages, YieldsEachMessageWithItsHeaderAndOffset)
{
    const Bytes datagram =
        cat({nlmsg(20, NLM_F_MULTI, 7, {1, 2, 3}), nlmsg(NLMSG_DONE, 0, 7, {0, 0, 0, 0})});
    EXPECT_EQ(split(datagram),
              (std::vector<SeenMessage>{{20, NLM_F_MULTI, 7, 0, 19}, {NLMSG_DONE, 0, 7, 20, 20}}));
    sdk::NetlinkMessage first = *sdk::NetlinkMessages(datagram, "test").begin();
    EXPECT_EQ(first.payload().size(), 3U);
    EXPECT_EQ(first.payload()[2], 3);
    EXPECT_TRUE(split({}).empty());
}

TEST(NetlinkMessages, ATailShorterThanAHeaderEndsTheWalk)
{
    Bytes datagram = nlmsg(20, 0, 1, {});
    datagram.resize(datagram.size() + 10, 0xff);
    EXPECT_EQ(split(datagram).size(), 1U);
    EXPECT_TRUE(split(Bytes(10, 0)).empty());
    // Or an error, for a caller that must not wait for the rest.
    try {
        for (const auto& m : sdk::NetlinkMessages(datagram, "test", sdk::NetlinkTail::Rejected))
            (void)m;
        ADD_FAILURE() << "a cut tail accepted";
    } catch (const sdk::DecodeError& e) {
        EXPECT_STREQ(e.what(), "test: message at offset 16: truncated header (10 bytes left)");
    }
}

TEST(NetlinkMessages, LengthsPastTheEndOrBelowAHeaderAreRejectedByOffset)
{
    Bytes past = cat({nlmsg(20, 0, 1, {}), nlmsg(20, 0, 2, {})});
    past[16] = 0xf0; // the second message claims 240 bytes with 16 left
    EXPECT_EQ(splitComplaint(past), "test: message at offset 16 has length 240 (16 bytes left)");
    Bytes below = nlmsg(20, 0, 1, {});
    below[0] = 8;
    EXPECT_EQ(splitComplaint(below),
              "test: message at offset 0 has length 8, shorter than its header");
    EXPECT_EQ(splitComplaint(Bytes(15, 0)), "no error");
    try {
        sdk::firstMessage(Bytes(15, 0), "link message");
        ADD_FAILURE() << "a 15-byte message";
    } catch (const sdk::DecodeError& e) {
        EXPECT_STREQ(e.what(), "link message of 15 bytes is shorter than a netlink header");
    }
}

TEST(NetlinkStatus, AnAckAnErrorAndTheKernelsText)
{
    EXPECT_EQ(statusOf(nlError(1, 0)).error, 0);
    auto s = statusOf(nlError(1, EOPNOTSUPP, "mlx5_core: not supported"));
    EXPECT_EQ(s.error, EOPNOTSUPP);
    EXPECT_EQ(s.extack, "mlx5_core: not supported");
    // Not capped: the whole request comes back before the TLVs.
    const Bytes request = nlmsg(20, 0, 1, {9, 9, 9, 9, 9, 9, 9, 9});
    int32_t negative = -EINVAL;
    Bytes payload(sizeof negative, 0);
    std::memcpy(payload.data(), &negative, sizeof negative);
    payload.insert(payload.end(), request.begin(), request.end());
    const Bytes tlv = stringAttr(NLMSGERR_ATTR_MSG, "bad value");
    payload.insert(payload.end(), tlv.begin(), tlv.end());
    s = statusOf(nlmsg(NLMSG_ERROR, NLM_F_ACK_TLVS, 1, payload));
    EXPECT_EQ(s.error, EINVAL);
    EXPECT_EQ(s.extack, "bad value");
    // A dump that ends in an error: NLMSG_DONE's status.
    Bytes done(4, 0);
    negative = -EBUSY;
    std::memcpy(done.data(), &negative, sizeof negative);
    EXPECT_EQ(statusOf(nlmsg(NLMSG_DONE, 0, 1, done)).error, EBUSY);
}

TEST(NetlinkStatus, MalformedStatusesAreRejectedAndABadExtackIsLeftOut)
{
    EXPECT_EQ(statusComplaint(nlmsg(NLMSG_ERROR, 0, 1, {0, 0, 0, 0})),
              "test: NLMSG_ERROR of 20 bytes is too short for struct nlmsgerr");
    EXPECT_EQ(statusComplaint(nlmsg(NLMSG_DONE, 0, 1, {})),
              "test: NLMSG_DONE of 16 bytes has no status");
    for (int32_t status : {INT32_MIN, 1, -4096}) {
        Bytes odd = nlError(1, 0);
        std::memcpy(odd.data() + NLMSG_HDRLEN, &status, sizeof status);
        EXPECT_EQ(statusComplaint(odd), "test: NLMSG_ERROR with status " + std::to_string(status) +
                                            ", not 0 or a negative errno");
    }
    EXPECT_EQ(statusComplaint(nlmsg(20, 0, 1, {})), "test: message of type 20 carries no status");
    Bytes bad_tlv = nlError(1, EIO, "text");
    bad_tlv[NLMSG_HDRLEN + 20] = 0xff; // the extack's nla_len past the end
    auto s = statusOf(bad_tlv);
    EXPECT_EQ(s.error, EIO) << "the errno stands";
    EXPECT_EQ(s.extack, "");
}
