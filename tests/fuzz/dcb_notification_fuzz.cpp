// libFuzzer target for the DCB notification decoder (RTNLGRP_DCB): the bytes are one buffer as
// received from the socket, and also one message. The one-message decoder may throw DecodeError,
// the buffer decoder nothing: a crash, another exception or a sanitizer report is a finding. A name
// it returns is a C string found in the bytes.
#include "netlink/dcb_notification.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

namespace {

void require(bool ok)
{
    if (!ok)
        std::abort();
}

void checkName(const std::string& name, size_t input_size)
{
    require(!name.empty() && name.size() < input_size);
    require(name.find('\0') == std::string::npos);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::span<const uint8_t> bytes(data, size);
    try {
        if (auto name = nicd::netlink::parseDcbNotification(bytes))
            checkName(*name, size);
    } catch (const nicd::plugin::sdk::DecodeError&) {
        // malformed bytes: the one error a decoder may throw
    }
    auto names = nicd::netlink::parseDcbNotifications(bytes);
    // Each message is at least a netlink header, a dcbmsg and a one-byte DCB_ATTR_IFNAME.
    require(names.size() * 25 <= size);
    for (const auto& name : names)
        checkName(name, size);
    return 0;
}
