// The pure half of the ethtool netlink exchange: datagrams read from the socket are matched to
// a request by sequence number, errors keep the kernel's extack text, and an EIO from a module
// EEPROM read is told apart from "no module" by that text. No socket here: the tests and the
// fuzzer feed it bytes.
#include "prefailure/ethtool_answer.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/fec_stats.hpp"

#include <nicd/plugin/sdk/netlink_messages.h>

#include <fmt/format.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <algorithm>
#include <charconv>
#include <optional>

namespace nicd::prefailure {

namespace {

using ethtool_detail::Answer;
using plugin::sdk::NetlinkMessage;
using plugin::sdk::NetlinkMessages;

// MCIA register statuses that mean no module answers (mlxsw reg.h, mlx5 port.c).
constexpr unsigned kMciaNoEeprom = 1;
constexpr unsigned kMciaNotConnected = 3;

void absorbFamilyMessage(std::span<const uint8_t> message, uint8_t reply_cmd, Answer& answer)
{
    if (message.size() < NLMSG_HDRLEN + GENL_HDRLEN)
        throw DecodeError(
            fmt::format("generic netlink message of {} bytes has no genlmsghdr", message.size()));
    uint8_t cmd = message[NLMSG_HDRLEN];
    if (cmd != reply_cmd)
        throw DecodeError(fmt::format("reply has command {}, expected {}", cmd, reply_cmd));
    auto attrs = message.subspan(NLMSG_HDRLEN + GENL_HDRLEN);
    answer.has_reply = true;
    answer.reply.assign(attrs.begin(), attrs.end());
}

// The first unsigned number after `key` in `text`, if any.
std::optional<unsigned> numberAfter(std::string_view text, std::string_view key)
{
    size_t at = text.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = text.substr(at + key.size());
    unsigned value = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
    if (ec != std::errc())
        return std::nullopt;
    return value;
}

} // namespace

void ethtool_detail::absorbDatagram(std::span<const uint8_t> datagram, uint32_t seq,
                                    uint16_t family, uint8_t reply_cmd, Answer& answer)
{
    for (const NetlinkMessage& m : NetlinkMessages(datagram, "ethtool netlink")) {
        if (m.seq != seq)
            continue;
        if (m.type == NLMSG_ERROR || m.type == NLMSG_DONE) {
            auto status = decodeNetlinkStatus(m, "ethtool netlink");
            answer.finished = true;
            answer.error = status.error;
            answer.extack = std::move(status.extack);
        } else if (m.type == family) {
            absorbFamilyMessage(m.bytes, reply_cmd, answer);
        }
    }
}

bool ethtool_detail::eepromIoErrorMeansNoModule(std::string_view extack)
{
    if (auto status = numberAfter(extack, "status "))
        return *status == kMciaNoEeprom || *status == kMciaNotConnected;
    if (auto read = numberAfter(extack, "read "); read && *read > 0)
        return false;
    return extack.find("I2C") == std::string_view::npos &&
           extack.find("disabled") == std::string_view::npos;
}

} // namespace nicd::prefailure
