#include "netlink/dcb_notification.hpp"

#include <nicd/plugin/sdk/dcb_codec.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

namespace nicd::netlink {

namespace sdk = plugin::sdk;

std::optional<std::string> parseDcbNotification(const sdk::NetlinkMessage& m)
{
    if (m.type != RTM_GETDCB && m.type != RTM_SETDCB)
        return std::nullopt;
    if (m.payload().size() < sdk::dcb::kDcbmsgSize)
        throw sdk::DecodeError("DCB notification of " + std::to_string(m.bytes.size()) +
                               " bytes is too short for its headers");
    const size_t attrs_at = NLMSG_HDRLEN + sdk::dcb::kDcbmsgSize;
    for (const sdk::NetlinkAttr& a :
         sdk::NetlinkAttrs(m.bytes.subspan(attrs_at), "DCB notification", attrs_at)) {
        if (a.type != sdk::dcb::kAttrIfname)
            continue;
        if (a.string().empty())
            throw sdk::DecodeError("DCB notification: DCB_ATTR_IFNAME at offset " +
                                   std::to_string(a.offset) + " is empty");
        return std::string(a.string());
    }
    return std::nullopt;
}

std::optional<std::string> parseDcbNotification(std::span<const uint8_t> message)
{
    return parseDcbNotification(sdk::firstMessage(message, "DCB notification"));
}

std::vector<std::string> parseDcbNotifications(std::span<const uint8_t> buffer)
{
    std::vector<std::string> out;
    sdk::eachNotification(buffer, "rtnetlink datagram", [&](const sdk::NetlinkMessage& m) {
        if (auto name = parseDcbNotification(m))
            out.push_back(std::move(*name));
    });
    return out;
}

} // namespace nicd::netlink
