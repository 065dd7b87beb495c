// Netlink messages read from a datagram: the one splitter nicd's decoders (rtnetlink link and DCB
// notifications, ethtool and DCB replies, RDMA netlink) and plugins' codecs walk a datagram with,
// and the one reader of an NLMSG_ERROR or NLMSG_DONE status with its extended ack. Each decoder
// then decodes only its family's payload (with NetlinkAttrs). Every nlmsg_len is checked against
// the bytes actually there; a tail shorter than a header ends the walk, as the kernel's NLMSG_OK
// does (or is an error: NetlinkTail). Allocates nothing but the extack's text.
//
//     for (const sdk::NetlinkMessage& m : sdk::NetlinkMessages(datagram, "ethtool netlink"))
//         if (m.seq == seq && (m.type == NLMSG_ERROR || m.type == NLMSG_DONE))
//             status = sdk::decodeNetlinkStatus(m, "ethtool netlink");
#pragma once

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

namespace nicd::plugin::sdk {

inline constexpr size_t kNetlinkHeader = 16; // struct nlmsghdr, NLMSG_HDRLEN

// One message: its header's fields, where it starts in the datagram, and its bytes (header
// included, nlmsg_len of them).
struct NetlinkMessage {
    uint16_t type = 0;
    uint16_t flags = 0;
    uint32_t seq = 0;
    uint32_t pid = 0;
    size_t offset = 0;
    std::span<const uint8_t> bytes;

    // What follows the header: the family's header and attributes, or struct nlmsgerr.
    std::span<const uint8_t> payload() const { return bytes.subspan(kNetlinkHeader); }
};

// What a tail too short for a header is: the end (as the kernel's NLMSG_OK has it), or an error
// (DecodeError "<where>: message at offset O: truncated header (N bytes left)"), for a decoder
// whose caller must learn that a datagram was cut rather than wait for more.
enum class NetlinkTail : uint8_t { Ignored, Rejected };

// The messages of `datagram`, in order, as a range. Reading the next one throws DecodeError
// "<where>: message at offset O has length L (N bytes left)" when nlmsg_len runs past the end,
// or "...has length L, shorter than its header". `where` must outlive the range (a literal).
class NetlinkMessages {
public:
    NetlinkMessages(std::span<const uint8_t> datagram, std::string_view where,
                    NetlinkTail tail = NetlinkTail::Ignored)
        : bytes_(datagram), where_(where), tail_(tail)
    {
    }

    class iterator {
    public:
        using value_type = NetlinkMessage;
        using difference_type = std::ptrdiff_t;
        iterator() = default;
        const NetlinkMessage& operator*() const { return message_; }
        const NetlinkMessage* operator->() const { return &message_; }
        iterator& operator++();
        void operator++(int) { ++*this; }
        bool operator==(std::default_sentinel_t) const { return owner_ == nullptr; }

    private:
        friend class NetlinkMessages;
        iterator(const NetlinkMessages* owner) : owner_(owner) { ++*this; }
        const NetlinkMessages* owner_ = nullptr;
        size_t next_ = 0;
        NetlinkMessage message_;
    };

    iterator begin() const { return iterator(this); }
    std::default_sentinel_t end() const { return {}; }

private:
    std::span<const uint8_t> bytes_;
    std::string_view where_;
    NetlinkTail tail_;
};

// Each message of a datagram of notifications, to `decode`: a message it throws DecodeError on
// is skipped and the others still count; a length past the end ends the walk (what follows
// cannot be split).
template <class Decode>
void eachNotification(std::span<const uint8_t> datagram, std::string_view where, Decode&& decode)
{
    try {
        for (const NetlinkMessage& m : NetlinkMessages(datagram, where)) {
            try {
                decode(m);
            } catch (const DecodeError&) {
                // one malformed message: the others in the datagram still count
            }
        }
    } catch (const DecodeError&) {
        // a length past the end: what follows cannot be split
    }
}

// The message `bytes` starts with, for a decoder handed one message (a test's, a fuzz target's):
// DecodeError "<where> of N bytes is shorter than a netlink header", or as the range says.
NetlinkMessage firstMessage(std::span<const uint8_t> bytes, std::string_view where);

// The status an NLMSG_ERROR (0: an ACK) or NLMSG_DONE carries, and the kernel's extended ack
// text (NLMSGERR_ATTR_MSG) when the message has one (NLM_F_ACK_TLVS).
struct NetlinkStatus {
    int error = 0; // 0 or a positive errno
    std::string extack;
};

// Throws DecodeError "<where>: NLMSG_ERROR of N bytes is too short for struct nlmsgerr",
// "<where>: NLMSG_DONE of N bytes has no status", or "<where>: NLMSG_ERROR with status S, not 0
// or a negative errno". A malformed extack is left out: it never hides the errno it came with.
// Any other type of message throws DecodeError too.
NetlinkStatus decodeNetlinkStatus(const NetlinkMessage& m, std::string_view where);

} // namespace nicd::plugin::sdk
