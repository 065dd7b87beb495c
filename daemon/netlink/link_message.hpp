// Pure decoding of rtnetlink link messages (RTM_NEWLINK / RTM_DELLINK). Every length is checked:
// a truncated or malformed message yields nothing rather than a bad read.
#pragma once

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

// Decodes one netlink message (header included). nullopt when it is not a valid link message.
std::optional<LinkEvent> parseLinkMessage(std::span<const uint8_t> message);

// Decodes every link message in a buffer received from the socket; others are skipped.
std::vector<LinkEvent> parseLinkMessages(std::span<const uint8_t> buffer);

// "up", "down", "lowerlayerdown", "dormant", "notpresent", "testing", "unknown" as sysfs prints
// them.
const char* operstateName(uint8_t operstate);

} // namespace nicd::netlink
