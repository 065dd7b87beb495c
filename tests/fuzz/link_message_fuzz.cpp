// libFuzzer target for the rtnetlink link-message decoder: the bytes are one buffer as received
// from the socket, and also one message. The one-message decoder may throw DecodeError, the
// buffer decoder nothing: a crash, another exception or a sanitizer report is a finding. What
// comes out is a link with an index and a name.
#include "netlink/link_message.hpp"

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

void checkEvent(const nicd::netlink::LinkEvent& ev, size_t input_size)
{
    require(ev.ifindex > 0 && !ev.name.empty() && ev.name.size() < input_size);
    require(ev.name.find('\0') == std::string::npos);
    if (ev.operstate)
        require(std::strlen(nicd::netlink::operstateName(*ev.operstate)) > 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    try {
        if (auto ev = nicd::netlink::parseLinkMessage(bytes))
            checkEvent(*ev, size);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        // malformed bytes: the one error a decoder may throw
    }
    auto events = nicd::netlink::parseLinkMessages(bytes);
    // Each message is at least a netlink header, an ifinfomsg and a one-byte IFLA_IFNAME.
    require(events.size() * 37 <= size);
    for (const auto& ev : events)
        checkEvent(ev, size);
    return 0;
}
