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
using plugin::sdk::NetlinkMessage;

template <typename T> T load(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
} // namespace

std::optional<LinkEvent> parseLinkMessage(const NetlinkMessage& m)
{
    if (m.type != RTM_NEWLINK && m.type != RTM_DELLINK)
        return std::nullopt;
    const auto body = m.payload();
    if (body.size() < sizeof(ifinfomsg))
        throw DecodeError("link message of " + std::to_string(m.bytes.size()) +
                          " bytes is too short for struct ifinfomsg");
    auto ifi = load<ifinfomsg>(body.data());

    LinkEvent ev;
    ev.removed = m.type == RTM_DELLINK;
    ev.ifindex = ifi.ifi_index;
    ev.flags = ifi.ifi_flags;

    const size_t attrs_at = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(ifinfomsg));
    const auto attrs = m.bytes.subspan(std::min<size_t>(attrs_at, m.bytes.size()));
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

std::optional<LinkEvent> parseLinkMessage(std::span<const uint8_t> message)
{
    return parseLinkMessage(plugin::sdk::firstMessage(message, "link message"));
}

std::vector<LinkEvent> parseLinkMessages(std::span<const uint8_t> buffer)
{
    std::vector<LinkEvent> out;
    plugin::sdk::eachNotification(buffer, "rtnetlink datagram", [&](const NetlinkMessage& m) {
        if (auto ev = parseLinkMessage(m))
            out.push_back(std::move(*ev));
    });
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
