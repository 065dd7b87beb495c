#include "netlink/dcb_notification.hpp"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cstring>

namespace nicd::netlink {

namespace {

constexpr size_t kDcbMsgLen = 4;       // struct dcbmsg: family, cmd, pad
constexpr uint16_t kDcbAttrIfname = 1; // DCB_ATTR_IFNAME

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
    if (msg.size() < NLMSG_HDRLEN + kDcbMsgLen)
        return std::nullopt;
    uint32_t len = u32(msg, 0);
    uint16_t type = u16(msg, 4);
    if (len < NLMSG_HDRLEN + kDcbMsgLen || len > msg.size() ||
        (type != RTM_GETDCB && type != RTM_SETDCB))
        return std::nullopt;
    size_t off = NLMSG_HDRLEN + kDcbMsgLen;
    while (off + NLA_HDRLEN <= len) {
        uint16_t alen = u16(msg, off);
        uint16_t atype = u16(msg, off + 2) & NLA_TYPE_MASK;
        if (alen < NLA_HDRLEN || off + alen > len)
            return std::nullopt;
        if (atype == kDcbAttrIfname) {
            const char* s = reinterpret_cast<const char*>(msg.data() + off + NLA_HDRLEN);
            size_t n = strnlen(s, alen - NLA_HDRLEN);
            if (n == 0)
                return std::nullopt;
            return std::string(s, n);
        }
        off += NLA_ALIGN(alen);
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
        if (auto name = parseDcbNotification(buffer.subspan(off, len)))
            out.push_back(std::move(*name));
        off += NLMSG_ALIGN(len);
    }
    return out;
}

} // namespace nicd::netlink
