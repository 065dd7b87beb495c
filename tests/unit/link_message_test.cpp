// rtnetlink link messages decoded from hand-built bytes (uapi layouts).
#include "netlink/link_message.hpp"

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using nicd::netlink::parseLinkMessage;
using nicd::netlink::parseLinkMessages;

namespace {

class MessageBuilder {
public:
    MessageBuilder(uint16_t type, int ifindex, uint32_t flags)
    {
        bytes_.resize(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg)));
        ifinfomsg ifi{};
        ifi.ifi_family = AF_UNSPEC;
        ifi.ifi_index = ifindex;
        ifi.ifi_flags = flags;
        std::memcpy(bytes_.data() + NLMSG_HDRLEN, &ifi, sizeof ifi);
        type_ = type;
    }
    MessageBuilder& attr(uint16_t type, const void* data, size_t len)
    {
        rtattr rta{};
        rta.rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
        rta.rta_type = type;
        size_t at = bytes_.size();
        bytes_.resize(at + RTA_SPACE(len));
        std::memcpy(bytes_.data() + at, &rta, sizeof rta);
        std::memcpy(bytes_.data() + at + RTA_LENGTH(0), data, len);
        return *this;
    }
    MessageBuilder& name(const std::string& n)
    {
        return attr(IFLA_IFNAME, n.c_str(), n.size() + 1);
    }
    MessageBuilder& u8(uint16_t type, uint8_t v) { return attr(type, &v, 1); }
    std::vector<uint8_t> build() const
    {
        auto out = bytes_;
        nlmsghdr hdr{};
        hdr.nlmsg_len = static_cast<uint32_t>(out.size());
        hdr.nlmsg_type = type_;
        std::memcpy(out.data(), &hdr, sizeof hdr);
        return out;
    }

private:
    std::vector<uint8_t> bytes_;
    uint16_t type_;
};

} // namespace

TEST(LinkMessage, NewLinkDownCarriesNameOperstateAndCarrier)
{
    auto msg = MessageBuilder(RTM_NEWLINK, 7, IFF_UP)
                   .name("ens1f0np0")
                   .u8(IFLA_OPERSTATE, IF_OPER_DOWN)
                   .u8(IFLA_CARRIER, 0)
                   .build();
    auto ev = parseLinkMessage(msg);
    ASSERT_TRUE(ev);
    EXPECT_FALSE(ev->removed);
    EXPECT_EQ(ev->ifindex, 7);
    EXPECT_EQ(ev->name, "ens1f0np0");
    ASSERT_TRUE(ev->operstate);
    EXPECT_STREQ(nicd::netlink::operstateName(*ev->operstate), "down");
    ASSERT_TRUE(ev->carrier);
    EXPECT_FALSE(*ev->carrier);
}

TEST(LinkMessage, DelLinkIsRemoval)
{
    auto ev = parseLinkMessage(MessageBuilder(RTM_DELLINK, 3, 0).name("eth9").build());
    ASSERT_TRUE(ev);
    EXPECT_TRUE(ev->removed);
    EXPECT_FALSE(ev->operstate);
}

TEST(LinkMessage, TruncatedAndOverrunningMessagesAreRejected)
{
    auto msg =
        MessageBuilder(RTM_NEWLINK, 7, 0).name("ens1f0np0").u8(IFLA_OPERSTATE, IF_OPER_UP).build();
    for (size_t cut = 0; cut < msg.size(); ++cut) {
        std::vector<uint8_t> part(msg.begin(), msg.begin() + static_cast<long>(cut));
        EXPECT_THROW(parseLinkMessage(part), nicd::plugin::sdk::DecodeError)
            << "accepted a message cut at " << cut;
    }
    // An attribute whose length runs past the message.
    auto bad = msg;
    rtattr rta{};
    std::memcpy(&rta, bad.data() + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg)), sizeof rta);
    rta.rta_len = 200;
    std::memcpy(bad.data() + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg)), &rta, sizeof rta);
    try {
        parseLinkMessage(bad);
        ADD_FAILURE() << "accepted an attribute past the end";
    } catch (const nicd::plugin::sdk::DecodeError& e) {
        EXPECT_NE(std::string(e.what()).find("attribute 3 at offset 32: nla_len 200 past the end"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LinkMessage, OtherTypesAndNamelessMessagesAreIgnored)
{
    EXPECT_FALSE(parseLinkMessage(MessageBuilder(RTM_NEWADDR, 7, 0).name("x").build()));
    EXPECT_FALSE(parseLinkMessage(MessageBuilder(RTM_NEWLINK, 7, 0).build()));
    EXPECT_FALSE(parseLinkMessage(MessageBuilder(RTM_NEWLINK, 0, 0).name("x").build()));
}

TEST(LinkMessage, BufferWithSeveralMessagesSkipsTheBadOne)
{
    auto a = MessageBuilder(RTM_NEWLINK, 1, 0).name("a").u8(IFLA_OPERSTATE, IF_OPER_UP).build();
    auto b = MessageBuilder(RTM_NEWADDR, 2, 0).name("b").build();
    auto c = MessageBuilder(RTM_DELLINK, 3, 0).name("c").build();
    std::vector<uint8_t> buf;
    for (auto* m : {&a, &b, &c}) {
        buf.insert(buf.end(), m->begin(), m->end());
        buf.resize(NLMSG_ALIGN(buf.size()));
    }
    auto evs = parseLinkMessages(buf);
    ASSERT_EQ(evs.size(), 2U);
    EXPECT_EQ(evs[0].name, "a");
    EXPECT_EQ(evs[1].name, "c");
    EXPECT_TRUE(evs[1].removed);
}
