// Pure decoding of rtnetlink DCB notifications (RTNLGRP_DCB): the kernel sends one after every
// successful DCB change, by any tool (mlnx_qos, dcb, lldpad, nicd itself). Only the interface
// name matters to nicd: that netdev's QoS is verified again.
#pragma once

#include <nicd/plugin/sdk/netlink_messages.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nicd::netlink {

// The netdev named by one RTM_GETDCB/RTM_SETDCB message (header included); nullopt when it is
// another message or names none. Throws plugin::sdk::DecodeError on a malformed one (truncated,
// a length past the end, an attribute that overruns it, an empty DCB_ATTR_IFNAME).
std::optional<std::string> parseDcbNotification(std::span<const uint8_t> message);
// The same of a message the SDK's splitter read.
std::optional<std::string> parseDcbNotification(const plugin::sdk::NetlinkMessage& message);

// Every netdev named in a buffer received from the socket, in order (repeats kept); malformed
// messages are skipped.
std::vector<std::string> parseDcbNotifications(std::span<const uint8_t> buffer);

} // namespace nicd::netlink
