#include "netlink/dcb_notification.hpp"

#include <nicd/plugin/dcb_codec.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstring>

namespace nicd::netlink {

namespace {

using plugin::sdk::DecodeError;
using plugin::sdk::NetlinkAttr;
using plugin::sdk::NetlinkAttrs;

using plugin::sdk::dcb::kAttrIfname;
using plugin::sdk::dcb::kDcbmsgSize;

uint16_t u16(std::span<const uint8_t> b, size_t off)
{
    uint16_t v;
    std::memcpy(&v, b.data() + off, sizeof v);
    return v;
}

uint32_t u32(std::span<const uint8_t> b, size_t off)
{
    uint32_t v;
    std::memcpy(&v, b.data() + off, sizeof v);
    return v;
}

} // namespace

std::optional<std::string> parseDcbNotification(std::span<const uint8_t> msg)
{
    if (msg.size() < NLMSG_HDRLEN + kDcbmsgSize)
        throw DecodeError("DCB notification of " + std::to_string(msg.size()) +
                          " bytes is too short for its headers");
    uint32_t len = u32(msg, 0);
    uint16_t type = u16(msg, 4);
    if (len < NLMSG_HDRLEN + kDcbmsgSize || len > msg.size())
        throw DecodeError("DCB notification has length " + std::to_string(len) + " (" +
                          std::to_string(msg.size()) + " bytes)");
    if (type != RTM_GETDCB && type != RTM_SETDCB)
        return std::nullopt;
    const size_t attrs_at = NLMSG_HDRLEN + kDcbmsgSize;
    for (const NetlinkAttr& a :
         NetlinkAttrs(msg.subspan(attrs_at, len - attrs_at), "DCB notification", attrs_at)) {
        if (a.type != kAttrIfname)
            continue;
        if (a.string().empty())
            throw DecodeError("DCB notification: DCB_ATTR_IFNAME at offset " +
                              std::to_string(a.offset) + " is empty");
        return std::string(a.string());
    }
    return std::nullopt;
}

std::vector<std::string> parseDcbNotifications(std::span<const uint8_t> buffer)
{
    std::vector<std::string> out;
    size_t off = 0;
    while (off + NLMSG_HDRLEN <= buffer.size()) {
        uint32_t len = u32(buffer, off);
        if (len < NLMSG_HDRLEN || off + len > buffer.size())
            break;
        try {
            if (auto name = parseDcbNotification(buffer.subspan(off, len)))
                out.push_back(std::move(*name));
        } catch (const DecodeError&) {
            // one malformed message: the others in the datagram still count
        }
        off += NLMSG_ALIGN(len);
    }
    return out;
}

} // namespace nicd::netlink
