// Netlink attributes read from bytes: the one reader nicd's decoders (rtnetlink, devlink, ethtool,
// DCB, RDMA) and plugins' codecs walk attributes with, and the one error they throw on bytes they
// cannot trust. Every header and nla_len is checked against the bytes actually there (the
// enclosing message or nest); the type comes without NLA_F_NESTED / NLA_F_NET_BYTEORDER; the last
// attribute may lack its alignment padding, as the kernel accepts. Allocates nothing.
//
//     for (const sdk::NetlinkAttr& a : sdk::NetlinkAttrs(bytes, "FEC_GET reply"))
//         if (a.type == ETHTOOL_A_FEC_ACTIVE)
//             active = a.u32("ETHTOOL_A_FEC_ACTIVE");
//
// A nest is read with NetlinkAttrs(a.payload, where, a.payloadOffset()), so that the offsets in
// its errors count from the start of the outer bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

namespace nicd::plugin::sdk {

// Bytes or text a decoder cannot trust. The message names where it was (the message, nest or
// key), the attribute and its offset, and what was wrong. The caller that read the bytes logs it
// for that device and source only and carries on.
struct DecodeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline constexpr size_t kNetlinkAttrHeader = 4; // struct nlattr, NLA_HDRLEN

// Netlink's 4-byte alignment of attributes and messages (NLA_ALIGN, NLMSG_ALIGN).
constexpr size_t netlinkAlign(size_t n)
{
    return (n + 3) & ~size_t{3};
}

// One attribute: its type (flags masked), where its header starts (from the start of the bytes
// the outermost NetlinkAttrs was given, plus the base it was given) and its payload.
struct NetlinkAttr {
    uint16_t type = 0;
    size_t offset = 0;
    std::span<const uint8_t> payload;

    size_t payloadOffset() const { return offset + kNetlinkAttrHeader; }

    // Integers of exactly their size (host byte order), else DecodeError "<what> (attribute T at
    // offset O): N bytes, want M".
    uint8_t u8(const char* what) const;
    uint16_t u16(const char* what) const;
    uint32_t u32(const char* what) const;
    uint64_t u64(const char* what) const;
    // The payload up to its first NUL (the terminator is optional); may be empty.
    std::string_view string() const;
};

// The attributes of `bytes`, in order, as a range. Reading the next attribute throws DecodeError
// "<where>: attribute at offset O: truncated header (N bytes left)", "<where>: attribute T at
// offset O: nla_len L shorter than its header" or "...: nla_len L past the end (N bytes left)".
// `where` must outlive the range (a string literal).
class NetlinkAttrs {
public:
    NetlinkAttrs(std::span<const uint8_t> bytes, std::string_view where, size_t base = 0)
        : bytes_(bytes), where_(where), base_(base)
    {
    }

    class iterator {
    public:
        using value_type = NetlinkAttr;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        const NetlinkAttr& operator*() const { return attr_; }
        const NetlinkAttr* operator->() const { return &attr_; }
        iterator& operator++();
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const { return owner_ == nullptr; }

    private:
        friend class NetlinkAttrs;
        iterator(const NetlinkAttrs* owner, size_t at) : owner_(owner), next_(at) { ++*this; }
        const NetlinkAttrs* owner_ = nullptr;
        size_t next_ = 0;
        NetlinkAttr attr_;
    };

    iterator begin() const { return iterator(this, 0); }
    std::default_sentinel_t end() const { return {}; }

private:
    std::span<const uint8_t> bytes_;
    std::string_view where_;
    size_t base_ = 0;
};

} // namespace nicd::plugin::sdk
