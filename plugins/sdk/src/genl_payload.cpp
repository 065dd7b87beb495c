// The genlmsghdr of a generic netlink payload, its length checked.
#include <nicd/plugin/sdk/genl_payload.h>

#include <linux/genetlink.h>

#include <string>

namespace nicd::plugin::sdk {

GenlPayload splitGenl(std::span<const uint8_t> payload, std::string_view where)
{
    if (payload.size() < GENL_HDRLEN)
        throw DecodeError(std::string(where) + ": generic netlink payload of " +
                          std::to_string(payload.size()) + " bytes has no genlmsghdr");
    return {payload[0], payload.subspan(GENL_HDRLEN)};
}

} // namespace nicd::plugin::sdk
