// The pure half of the ethtool netlink exchange: datagrams read from the socket are matched to
// a request by sequence number, errors keep the kernel's extack text, and an EIO from a module
// EEPROM read is told apart from "no module" by that text. No socket here: the tests and the
// fuzzer feed it bytes.
#include "prefailure/ethtool_answer.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/fec_stats.hpp"

#include <fmt/format.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>

namespace nicd::prefailure {

namespace {

using ethtool_detail::Answer;

constexpr size_t kNlmsgerrSize = sizeof(int32_t) + NLMSG_HDRLEN; // error + the request's header
// MCIA register statuses that mean no module answers (mlxsw reg.h, mlx5 port.c).
constexpr unsigned kMciaNoEeprom = 1;
constexpr unsigned kMciaNotConnected = 3;

template <class T> T load(std::span<const uint8_t> bytes, size_t offset)
{
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof value);
    return value;
}

// NLMSGERR_ATTR_MSG of an error or ack message, when its TLVs are there and well formed.
std::string extackMessage(std::span<const uint8_t> message, uint16_t flags)
{
    if (!(flags & NLM_F_ACK_TLVS))
        return {};
    size_t embedded = NLMSG_HDRLEN;
    if (!(flags & NLM_F_CAPPED))
        embedded = load<uint32_t>(message, NLMSG_HDRLEN + sizeof(int32_t));
    size_t tlv_offset = NLMSG_HDRLEN + sizeof(int32_t) + NLMSG_ALIGN(embedded);
    if (embedded < NLMSG_HDRLEN || tlv_offset > message.size())
        return {};
    try {
        for (const auto& attr : plugin::sdk::NetlinkAttrs(message.subspan(tlv_offset), "extack"))
            if (attr.type == NLMSGERR_ATTR_MSG)
                return std::string(attr.string());
    } catch (const DecodeError&) {
        // A malformed extack must not hide the errno it came with.
    }
    return {};
}

void absorbError(std::span<const uint8_t> message, uint16_t flags, Answer& answer)
{
    if (message.size() < NLMSG_HDRLEN + kNlmsgerrSize)
        throw DecodeError(fmt::format("netlink error message of {} bytes is too short for "
                                      "struct nlmsgerr",
                                      message.size()));
    // 0 or a negative errno; anything else (INT32_MIN could not even be negated) is no answer.
    const auto status = load<int32_t>(message, NLMSG_HDRLEN);
    if (status > 0 || status < -4095)
        throw DecodeError(
            fmt::format("netlink error message with status {}, not 0 or a negative errno", status));
    answer.finished = true;
    answer.error = -status;
    answer.extack = extackMessage(message, flags);
}

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
    size_t offset = 0;
    while (datagram.size() - offset >= NLMSG_HDRLEN) {
        auto rest = datagram.subspan(offset);
        uint32_t len = load<uint32_t>(rest, 0);
        if (len < NLMSG_HDRLEN || len > rest.size())
            throw DecodeError(fmt::format("netlink message at offset {} has length {} ({} "
                                          "bytes left)",
                                          offset, len, rest.size()));
        auto message = rest.first(len);
        uint16_t type = load<uint16_t>(message, 4);
        uint16_t flags = load<uint16_t>(message, 6);
        if (load<uint32_t>(message, 8) == seq) {
            if (type == NLMSG_ERROR)
                absorbError(message, flags, answer);
            else if (type == NLMSG_DONE)
                answer.finished = true;
            else if (type == family)
                absorbFamilyMessage(message, reply_cmd, answer);
        }
        offset += std::min<size_t>(NLMSG_ALIGN(len), rest.size());
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
