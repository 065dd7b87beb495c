// DCB notifications decoded from hand-built rtnetlink bytes (uapi layouts: nlmsghdr, dcbmsg,
// nlattr DCB_ATTR_IFNAME).
#include "netlink/dcb_notification.hpp"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstring>

#include <gtest/gtest.h>

using namespace nicd::netlink;

namespace {

// nlmsghdr + dcbmsg{AF_UNSPEC, cmd} + DCB_ATTR_IFNAME "<name>\0" (+ an attribute before it).
std::vector<uint8_t> dcbMessage(uint16_t type, const std::string& ifname, bool leading_attr = false)
{
    std::vector<uint8_t> m(NLMSG_HDRLEN + 4, 0);
    m[NLMSG_HDRLEN + 1] = 20; // DCB_CMD_IEEE_SET
    auto attr = [&m](uint16_t atype, const void* data, size_t len) {
        uint16_t alen = static_cast<uint16_t>(NLA_HDRLEN + len);
        size_t at = m.size();
        m.resize(at + NLA_ALIGN(alen), 0);
        std::memcpy(&m[at], &alen, 2);
        std::memcpy(&m[at + 2], &atype, 2);
        std::memcpy(&m[at + NLA_HDRLEN], data, len);
    };
    if (leading_attr) {
        uint8_t dcbx = 0x08;
        attr(14, &dcbx, 1); // DCB_ATTR_DCBX
    }
    attr(1, ifname.c_str(), ifname.size() + 1);
    uint32_t len = static_cast<uint32_t>(m.size());
    std::memcpy(&m[0], &len, 4);
    std::memcpy(&m[4], &type, 2);
    return m;
}

} // namespace

TEST(DcbNotification, NamesTheNetdevOfASetOrGet)
{
    EXPECT_EQ(parseDcbNotification(dcbMessage(RTM_SETDCB, "ens1f0np0")), "ens1f0np0");
    EXPECT_EQ(parseDcbNotification(dcbMessage(RTM_GETDCB, "eth0", true)), "eth0");
}

TEST(DcbNotification, OtherMessagesYieldNothingMalformedOnesThrow)
{
    EXPECT_FALSE(parseDcbNotification(dcbMessage(RTM_NEWLINK, "eth0")));
    auto m = dcbMessage(RTM_SETDCB, "eth0");
    for (size_t cut = 0; cut < m.size(); ++cut) {
        auto part = std::vector<uint8_t>(m.begin(), m.begin() + static_cast<long>(cut));
        EXPECT_THROW(parseDcbNotification(part), nicd::plugin::sdk::DecodeError) << cut;
    }
    auto bad = m;
    bad[NLMSG_HDRLEN + 4] = 0xff; // attribute length beyond the message
    bad[NLMSG_HDRLEN + 5] = 0x00;
    EXPECT_THROW(parseDcbNotification(bad), nicd::plugin::sdk::DecodeError);
}

TEST(DcbNotification, ABufferOfSeveralMessages)
{
    auto a = dcbMessage(RTM_SETDCB, "ens1f0np0");
    auto b = dcbMessage(RTM_NEWLINK, "x");
    auto c = dcbMessage(RTM_SETDCB, "ens2f0np0");
    std::vector<uint8_t> buf;
    for (auto* m : {&a, &b, &c})
        buf.insert(buf.end(), m->begin(), m->end());
    EXPECT_EQ(parseDcbNotifications(buf), (std::vector<std::string>{"ens1f0np0", "ens2f0np0"}));
}
