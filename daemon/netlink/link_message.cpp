#include "netlink/link_message.hpp"

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstring>

namespace nicd::netlink {

namespace {
template <typename T> T load(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
} // namespace

std::optional<LinkEvent> parseLinkMessage(std::span<const uint8_t> message)
{
    if (message.size() < sizeof(nlmsghdr))
        return std::nullopt;
    auto hdr = load<nlmsghdr>(message.data());
    if (hdr.nlmsg_len < sizeof(nlmsghdr) || hdr.nlmsg_len > message.size())
        return std::nullopt;
    if (hdr.nlmsg_type != RTM_NEWLINK && hdr.nlmsg_type != RTM_DELLINK)
        return std::nullopt;
    const size_t body_at = NLMSG_HDRLEN;
    if (hdr.nlmsg_len < body_at + sizeof(ifinfomsg))
        return std::nullopt;
    auto ifi = load<ifinfomsg>(message.data() + body_at);

    LinkEvent ev;
    ev.removed = hdr.nlmsg_type == RTM_DELLINK;
    ev.ifindex = ifi.ifi_index;
    ev.flags = ifi.ifi_flags;

    size_t off = body_at + NLMSG_ALIGN(sizeof(ifinfomsg));
    const size_t end = hdr.nlmsg_len;
    while (off + sizeof(rtattr) <= end) {
        auto rta = load<rtattr>(message.data() + off);
        if (rta.rta_len < sizeof(rtattr) || off + rta.rta_len > end)
            return std::nullopt; // an attribute that overruns the message: reject the message
        const uint8_t* payload = message.data() + off + RTA_LENGTH(0);
        const size_t len = rta.rta_len - RTA_LENGTH(0);
        switch (rta.rta_type) {
        case IFLA_IFNAME:
            ev.name.assign(reinterpret_cast<const char*>(payload),
                           strnlen(reinterpret_cast<const char*>(payload), len));
            break;
        case IFLA_OPERSTATE:
            if (len >= 1)
                ev.operstate = payload[0];
            break;
        case IFLA_CARRIER:
            if (len >= 1)
                ev.carrier = payload[0] != 0;
            break;
        default:
            break;
        }
        off += RTA_ALIGN(rta.rta_len);
    }
    if (ev.ifindex <= 0 || ev.name.empty())
        return std::nullopt;
    return ev;
}

std::vector<LinkEvent> parseLinkMessages(std::span<const uint8_t> buffer)
{
    std::vector<LinkEvent> out;
    size_t off = 0;
    while (off + sizeof(nlmsghdr) <= buffer.size()) {
        auto hdr = load<nlmsghdr>(buffer.data() + off);
        if (hdr.nlmsg_len < sizeof(nlmsghdr) || off + hdr.nlmsg_len > buffer.size())
            break;
        if (auto ev = parseLinkMessage(buffer.subspan(off, hdr.nlmsg_len)))
            out.push_back(std::move(*ev));
        off += NLMSG_ALIGN(hdr.nlmsg_len);
    }
    return out;
}

const char* operstateName(uint8_t operstate)
{
    switch (operstate) {
    case IF_OPER_NOTPRESENT:
        return "notpresent";
    case IF_OPER_DOWN:
        return "down";
    case IF_OPER_LOWERLAYERDOWN:
        return "lowerlayerdown";
    case IF_OPER_TESTING:
        return "testing";
    case IF_OPER_DORMANT:
        return "dormant";
    case IF_OPER_UP:
        return "up";
    default:
        return "unknown";
    }
}

} // namespace nicd::netlink
