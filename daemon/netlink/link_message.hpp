// Pure decoding of rtnetlink link messages (RTM_NEWLINK / RTM_DELLINK). Every length is checked
// (the SDK's attribute reader): a truncated or malformed message throws DecodeError rather than
// reading past the end.
#pragma once

#include <nicd/plugin/sdk/netlink_messages.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nicd::netlink {

struct LinkEvent {
    bool removed = false; // RTM_DELLINK
    int ifindex = 0;
    std::string name;                 // IFLA_IFNAME
    std::optional<uint8_t> operstate; // IFLA_OPERSTATE (IF_OPER_*)
    std::optional<bool> carrier;      // IFLA_CARRIER
    uint32_t flags = 0;               // ifi_flags (IFF_UP, IFF_LOWER_UP, ...)
};

// Decodes one netlink message (header included). nullopt when it is another type of message or a
// link message without ifindex or name; throws plugin::sdk::DecodeError, naming the offset, on a
// truncated header, a length past the end or an attribute that overruns the message.
std::optional<LinkEvent> parseLinkMessage(std::span<const uint8_t> message);
// The same of a message the SDK's splitter read.
std::optional<LinkEvent> parseLinkMessage(const plugin::sdk::NetlinkMessage& message);

// Decodes every link message in a buffer received from the socket; others, and malformed ones,
// are skipped.
std::vector<LinkEvent> parseLinkMessages(std::span<const uint8_t> buffer);

// "up", "down", "lowerlayerdown", "dormant", "notpresent", "testing", "unknown" as sysfs prints
// them.
const char* operstateName(uint8_t operstate);

} // namespace nicd::netlink
