#include "netlink/link_message.hpp"

// glibc's <net/if.h> first: <linux/if.h> then leaves out what glibc defines (linux/libc-compat.h),
// so a unity batch may hold this file and one that includes <net/if.h>.
// clang-format off
#include <net/if.h>
#include <linux/if.h>
// clang-format on
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <algorithm>
#include <cstring>

namespace nicd::netlink {

namespace {

using plugin::sdk::DecodeError;
using plugin::sdk::NetlinkAttr;
using plugin::sdk::NetlinkAttrs;

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
        throw DecodeError("link message of " + std::to_string(message.size()) +
                          " bytes is shorter than a netlink header");
    auto hdr = load<nlmsghdr>(message.data());
    if (hdr.nlmsg_len < sizeof(nlmsghdr) || hdr.nlmsg_len > message.size())
        throw DecodeError("link message has length " + std::to_string(hdr.nlmsg_len) + " (" +
                          std::to_string(message.size()) + " bytes)");
    if (hdr.nlmsg_type != RTM_NEWLINK && hdr.nlmsg_type != RTM_DELLINK)
        return std::nullopt;
    const size_t body_at = NLMSG_HDRLEN;
    if (hdr.nlmsg_len < body_at + sizeof(ifinfomsg))
        throw DecodeError("link message of " + std::to_string(hdr.nlmsg_len) +
                          " bytes is too short for struct ifinfomsg");
    auto ifi = load<ifinfomsg>(message.data() + body_at);

    LinkEvent ev;
    ev.removed = hdr.nlmsg_type == RTM_DELLINK;
    ev.ifindex = ifi.ifi_index;
    ev.flags = ifi.ifi_flags;

    const size_t attrs_at = body_at + NLMSG_ALIGN(sizeof(ifinfomsg));
    const auto attrs =
        message.first(hdr.nlmsg_len).subspan(std::min<size_t>(attrs_at, hdr.nlmsg_len));
    for (const NetlinkAttr& a : NetlinkAttrs(attrs, "link message", attrs_at)) {
        switch (a.type) {
        case IFLA_IFNAME:
            ev.name.assign(a.string());
            break;
        case IFLA_OPERSTATE:
            if (!a.payload.empty())
                ev.operstate = a.payload[0];
            break;
        case IFLA_CARRIER:
            if (!a.payload.empty())
                ev.carrier = a.payload[0] != 0;
            break;
        default:
            break;
        }
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
        try {
            if (auto ev = parseLinkMessage(buffer.subspan(off, hdr.nlmsg_len)))
                out.push_back(std::move(*ev));
        } catch (const DecodeError&) {
            // one malformed message: the others in the datagram still count
        }
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
