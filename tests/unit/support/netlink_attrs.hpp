// Netlink attributes laid out by hand as the kernel does (nla_len, nla_type, payload, padding to
// 4 bytes), and the messages around them, for decoder tests over bytes.
#pragma once

#include <linux/netlink.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace nicd::test {

using Bytes = std::vector<uint8_t>;

inline Bytes cat(std::initializer_list<Bytes> parts)
{
    Bytes out;
    for (const Bytes& part : parts)
        out.insert(out.end(), part.begin(), part.end());
    return out;
}

// An attribute as the kernel lays it out: nla_len (header + payload), nla_type, payload, zero
// padding to 4 bytes.
inline Bytes attr(uint16_t type, const Bytes& payload)
{
    auto len = static_cast<uint16_t>(NLA_HDRLEN + payload.size());
    Bytes out(NLA_ALIGN(len), 0);
    std::memcpy(&out[0], &len, sizeof len);
    std::memcpy(&out[2], &type, sizeof type);
    std::copy(payload.begin(), payload.end(), out.begin() + NLA_HDRLEN);
    return out;
}

inline Bytes u32Attr(uint16_t type, uint32_t value)
{
    Bytes payload(sizeof value);
    std::memcpy(payload.data(), &value, sizeof value);
    return attr(type, payload);
}

inline Bytes stringAttr(uint16_t type, const std::string& text)
{
    Bytes payload(text.begin(), text.end());
    payload.push_back(0);
    return attr(type, payload);
}

inline Bytes nest(uint16_t type, std::initializer_list<Bytes> children)
{
    return attr(type | NLA_F_NESTED, cat(children));
}

inline Bytes u64Array(uint16_t type, std::initializer_list<uint64_t> values)
{
    Bytes payload(values.size() * sizeof(uint64_t));
    if (values.size() != 0)
        std::memcpy(payload.data(), std::data(values), payload.size());
    return attr(type, payload);
}

// The same layout as a chain, for messages with many attributes:
// Attrs().str(NAME, "tx").u8(STATE, 1).nest(...). raw(..., false) leaves the padding off, as a
// message cut short does.
class Attrs {
public:
    Attrs& raw(uint16_t type, const void* data, size_t len, bool pad = true)
    {
        const auto* p = static_cast<const uint8_t*>(data);
        Bytes a = attr(type, len == 0 ? Bytes() : Bytes(p, p + len));
        if (!pad)
            a.resize(NLA_HDRLEN + len);
        bytes.insert(bytes.end(), a.begin(), a.end());
        return *this;
    }
    Attrs& str(uint16_t type, const std::string& s) { return raw(type, s.c_str(), s.size() + 1); }
    Attrs& u8(uint16_t type, uint8_t v) { return raw(type, &v, sizeof v); }
    Attrs& u32(uint16_t type, uint32_t v) { return raw(type, &v, sizeof v); }
    Attrs& u64(uint16_t type, uint64_t v) { return raw(type, &v, sizeof v); }
    // Without NLA_F_NESTED, as nla_nest_start_noflag() (devlink's nests) leaves it.
    Attrs& nest(uint16_t type, const Attrs& inner)
    {
        return raw(type, inner.bytes.data(), inner.bytes.size());
    }

    Bytes bytes;
};

// nlmsghdr (length, type, flags, seq, port id 0: the kernel) and the payload, padded to 4 bytes.
inline Bytes nlmsg(uint16_t type, uint16_t flags, uint32_t seq, const Bytes& payload)
{
    auto len = static_cast<uint32_t>(NLMSG_HDRLEN + payload.size());
    Bytes out(NLMSG_ALIGN(len), 0);
    std::memcpy(&out[0], &len, 4);
    std::memcpy(&out[4], &type, 2);
    std::memcpy(&out[6], &flags, 2);
    std::memcpy(&out[8], &seq, 4);
    std::copy(payload.begin(), payload.end(), out.begin() + NLMSG_HDRLEN);
    return out;
}

// NLMSG_ERROR as a socket with NETLINK_CAP_ACK and NETLINK_EXT_ACK gets it: the negative errno,
// the request's header alone, and the kernel's text when it gave one.
inline Bytes nlError(uint32_t seq, int error, const std::string& extack = {})
{
    int32_t negative = -error;
    Bytes payload(sizeof negative + NLMSG_HDRLEN, 0);
    std::memcpy(payload.data(), &negative, sizeof negative);
    uint16_t flags = NLM_F_CAPPED;
    if (!extack.empty()) {
        Bytes tlv = stringAttr(NLMSGERR_ATTR_MSG, extack);
        payload.insert(payload.end(), tlv.begin(), tlv.end());
        flags |= NLM_F_ACK_TLVS;
    }
    return nlmsg(NLMSG_ERROR, flags, seq, payload);
}

} // namespace nicd::test
