// A generic netlink message's payload split into its command and attributes: what every decoder
// of a generic netlink reply (ethtool, devlink, the controller's family lookup) reads first. Pure,
// so that the fuzz targets reach it without libnl.
#pragma once

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <cstdint>
#include <span>
#include <string_view>

namespace nicd::plugin::sdk {

// The payload after the nlmsghdr: its genlmsghdr's command and the attributes after it.
struct GenlPayload {
    uint8_t cmd = 0;
    std::span<const uint8_t> attrs;
};

// Throws DecodeError "<where>: generic netlink payload of N bytes has no genlmsghdr".
GenlPayload splitGenl(std::span<const uint8_t> payload, std::string_view where);

} // namespace nicd::plugin::sdk
