// libFuzzer target for the SDK's netlink message splitter and status reader, and the answer
// matcher NetlinkRequester reads every datagram with (netlink_answer.h): the bytes are one
// datagram as received from a socket. Splitting may throw DecodeError, and so may reading the
// status of an NLMSG_ERROR or NLMSG_DONE or matching the datagram to a request; a crash, another
// exception or a sanitizer report is a finding. What comes out lies inside the datagram, in order,
// each at least a header long; the kernel's text comes only with the end of an answer.
#include <nicd/plugin/sdk/genl_payload.h>
#include <nicd/plugin/sdk/netlink_answer.h>
#include <nicd/plugin/sdk/netlink_messages.h>

#include <linux/netlink.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

namespace sdk = nicd::plugin::sdk;

// The first message's sequence number and type (bytes 8-11 and 4-5) pick the request, so that the
// matcher's paths are all reached.
void absorb(std::span<const uint8_t> datagram, sdk::NetlinkReplies replies, sdk::NetlinkTail tail)
{
    uint32_t seq = 0;
    uint16_t type = 0;
    if (datagram.size() >= sdk::kNetlinkHeader) {
        std::memcpy(&type, datagram.data() + 4, sizeof type);
        std::memcpy(&seq, datagram.data() + 8, sizeof seq);
    }
    sdk::NetlinkAnswer answer;
    try {
        sdk::absorbNetlinkDatagram(datagram, seq, type, replies, answer, "fuzz", tail);
    } catch (const sdk::DecodeError&) {
        return;
    }
    require(answer.extack.empty() || answer.finished);
    require(answer.error >= 0 && answer.error <= 4095);
    require(replies != sdk::NetlinkReplies::One || answer.messages.size() <= 1);
    for (auto payload : answer.messages) {
        require(payload.data() >= datagram.data() &&
                payload.data() + payload.size() <= datagram.data() + datagram.size());
        try {
            const sdk::GenlPayload genl = sdk::splitGenl(payload, "fuzz");
            require(genl.attrs.size() + 4 == payload.size());
        } catch (const sdk::DecodeError&) {
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::span<const uint8_t> datagram(data, size);
    size_t next = 0;
    try {
        for (const sdk::NetlinkMessage& m : sdk::NetlinkMessages(datagram, "fuzz")) {
            require(m.offset >= next && m.offset % 4 == 0);
            require(m.bytes.size() >= sdk::kNetlinkHeader);
            require(m.bytes.data() == data + m.offset && m.offset + m.bytes.size() <= size);
            next = m.offset + m.bytes.size();
            if (m.type != NLMSG_ERROR && m.type != NLMSG_DONE)
                continue;
            try {
                auto status = sdk::decodeNetlinkStatus(m, "fuzz");
                require(status.error >= 0 && status.error <= 4095);
                require(status.extack.size() < size);
            } catch (const sdk::DecodeError&) {
                // a status the kernel never sends
            }
        }
    } catch (const sdk::DecodeError&) {
        // a length past the end: the one error the splitter throws
    }
    try {
        (void)sdk::firstMessage(datagram, "fuzz");
    } catch (const sdk::DecodeError&) {
    }
    absorb(datagram, sdk::NetlinkReplies::One, sdk::NetlinkTail::Ignored);
    absorb(datagram, sdk::NetlinkReplies::OneThenAck, sdk::NetlinkTail::Rejected);
    absorb(datagram, sdk::NetlinkReplies::Dump, sdk::NetlinkTail::Rejected);
    return 0;
}
