// libFuzzer target for the SDK's netlink message splitter and status reader: the bytes are one
// datagram as received from a socket. Splitting may throw DecodeError, and so may reading the
// status of an NLMSG_ERROR or NLMSG_DONE; a crash, another exception or a sanitizer report is a
// finding. What comes out lies inside the datagram, in order, each at least a header long.
#include <nicd/plugin/sdk/netlink_messages.h>

#include <linux/netlink.h>

#include <cstdint>
#include <cstdlib>
#include <span>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    namespace sdk = nicd::plugin::sdk;
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
    return 0;
}
