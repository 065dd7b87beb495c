// The pure half of the ethtool netlink exchange: a reply's payload taken (the SDK's matcher finds
// it by sequence number and reads the status with its extack text), and an EIO from a module
// EEPROM read told apart from "no module" by that text. No socket here: the tests and the fuzzer
// feed it bytes.
#include "prefailure/ethtool_answer.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/fec_stats.hpp"

#include <nicd/plugin/sdk/genl_payload.h>
#include <nicd/plugin/sdk/netlink_answer.h>

#include <fmt/format.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <algorithm>
#include <charconv>
#include <optional>

namespace nicd::prefailure {

namespace {

using ethtool_detail::Answer;

// MCIA register statuses that mean no module answers (mlxsw reg.h, mlx5 port.c).
constexpr unsigned kMciaNoEeprom = 1;
constexpr unsigned kMciaNotConnected = 3;

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

void ethtool_detail::absorbReply(std::span<const uint8_t> payload, uint8_t reply_cmd,
                                 Answer& answer)
{
    const auto genl = plugin::sdk::splitGenl(payload, "ethtool netlink");
    if (genl.cmd != reply_cmd)
        throw DecodeError(fmt::format("reply has command {}, expected {}", genl.cmd, reply_cmd));
    answer.has_reply = true;
    answer.reply.assign(genl.attrs.begin(), genl.attrs.end());
}

void ethtool_detail::absorbDatagram(std::span<const uint8_t> datagram, uint32_t seq,
                                    uint16_t family, uint8_t reply_cmd, Answer& answer)
{
    plugin::sdk::NetlinkAnswer matched;
    plugin::sdk::absorbNetlinkDatagram(
        datagram, seq, family, plugin::sdk::NetlinkReplies::OneThenAck, matched, "ethtool netlink");
    for (auto payload : matched.messages)
        absorbReply(payload, reply_cmd, answer);
    if (matched.finished) {
        answer.finished = true;
        answer.error = matched.error;
        answer.extack = std::move(matched.extack);
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
