// EthtoolNetlink's reads: what FEC_GET and MODULE_EEPROM_GET ask for, and how their answers read:
// errors (with the kernel's extack text) sorted into Unsupported and Failed, the reply decoded
// (fec_stats.cpp) or its EEPROM bytes taken. The requests go out through ethtool_netlink.cpp.
// Facts: shared/reference/pre-failure.md §1 (FEC_GET) and §3.1 (MODULE_EEPROM_GET).
#include "prefailure/decode_error.hpp"
#include "prefailure/ethtool_netlink.hpp"
#include "prefailure/ethtool_request.hpp"
#include "prefailure/fec_stats.hpp"

#include <nicd/plugin/sdk/netlink_attrs.h>

#include <fmt/format.h>
#include <linux/ethtool_netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <cerrno>
#include <system_error>

namespace nicd::prefailure {

namespace {

using ethtool_detail::Answer;
using ethtool_detail::Outcome;
using ethtool_detail::Request;

constexpr uint8_t kEepromMaxLength = 128; // ETHTOOL_A_MODULE_EEPROM_LENGTH policy: 1-128

std::string readErrnoText(int error)
{
    return fmt::format("{} (errno {})", std::generic_category().message(error), error);
}

std::string ethtoolPrefix(const Request& request)
{
    return fmt::format("netdev {}: ethtool {}: ", request.netdev, request.cmd_name);
}

bool isUnsupportedErrno(int error)
{
    return error == EOPNOTSUPP || error == ENODEV || error == EPERM || error == EACCES;
}

// Copies an unanswered or refused exchange into `reply`; true when there is a reply to decode.
template <class T>
bool takeAnswer(const Outcome& outcome, const Request& request, bool unsupported_error,
                Reply<T>& reply)
{
    using Status = typename Reply<T>::Status;
    if (!outcome.answered) {
        reply.status = outcome.unsupported ? Status::Unsupported : Status::Failed;
        reply.message = ethtoolPrefix(request) + outcome.failure;
        return false;
    }
    const Answer& answer = outcome.answer;
    if (answer.error != 0) {
        reply.status = unsupported_error ? Status::Unsupported : Status::Failed;
        reply.message = ethtoolPrefix(request) + readErrnoText(answer.error);
        if (!answer.extack.empty())
            reply.message += ": " + answer.extack;
        return false;
    }
    if (!answer.has_reply) {
        reply.status = Status::Failed;
        reply.message = ethtoolPrefix(request) + "the kernel acknowledged without a reply";
        return false;
    }
    return true;
}

// Takes ETHTOOL_A_MODULE_EEPROM_DATA out of the reply; returns why it is not usable.
std::string eepromDataOf(const Answer& answer, uint8_t length, std::vector<uint8_t>& data)
{
    try {
        for (const auto& attr :
             plugin::sdk::NetlinkAttrs(answer.reply, "MODULE_EEPROM_GET reply")) {
            if (attr.type == ETHTOOL_A_MODULE_EEPROM_DATA)
                data.assign(attr.payload.begin(), attr.payload.end());
        }
    } catch (const DecodeError& e) {
        return fmt::format("malformed reply: {}", e.what());
    }
    if (data.size() > length)
        return fmt::format("malformed reply: {} bytes of data for {} asked", data.size(), length);
    if (data.size() < length) {
        std::string text = fmt::format("the kernel returned {} of {} bytes without an error (a "
                                       "failed module read reported as success, as some drivers "
                                       "do)",
                                       data.size(), length);
        if (!answer.extack.empty())
            text += ": " + answer.extack;
        return text;
    }
    return {};
}

} // namespace

Reply<FecStats> EthtoolNetlink::readFec(const std::string& netdev)
{
    Request request{.cmd = ETHTOOL_MSG_FEC_GET,
                    .reply_cmd = ETHTOOL_MSG_FEC_GET_REPLY,
                    .header_attr = ETHTOOL_A_FEC_HEADER,
                    .cmd_name = "FEC_GET",
                    .netdev = netdev,
                    .header_flags = ETHTOOL_FLAG_STATS};
    Outcome outcome = exchange(request);
    if (outcome.answered &&
        (outcome.answer.error == EINVAL || outcome.answer.error == EOPNOTSUPP)) {
        request.header_flags = 0; // a kernel that does not take ETHTOOL_FLAG_STATS here
        outcome = exchange(request);
    }
    Reply<FecStats> reply;
    if (!takeAnswer(outcome, request, isUnsupportedErrno(outcome.answer.error), reply))
        return reply;
    FecStats stats;
    try {
        stats = decodeFecReply(outcome.answer.reply);
    } catch (const DecodeError& e) {
        return Reply<FecStats>::failed(ethtoolPrefix(request) + "malformed reply: " + e.what());
    }
    if (stats.netdev.empty())
        stats.netdev = netdev;
    return Reply<FecStats>::success(std::move(stats));
}

Reply<std::vector<uint8_t>> EthtoolNetlink::readModuleEeprom(const std::string& netdev,
                                                             uint8_t i2c_address, uint8_t page,
                                                             uint8_t bank, uint8_t offset,
                                                             uint8_t length)
{
    auto body = [=](nl_msg* msg) {
        int rc = nla_put_u32(msg, ETHTOOL_A_MODULE_EEPROM_OFFSET, offset);
        if (rc >= 0)
            rc = nla_put_u32(msg, ETHTOOL_A_MODULE_EEPROM_LENGTH, length);
        if (rc >= 0)
            rc = nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_PAGE, page);
        if (rc >= 0)
            rc = nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_BANK, bank);
        if (rc >= 0)
            rc = nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, i2c_address);
        return rc;
    };
    Request request{.cmd = ETHTOOL_MSG_MODULE_EEPROM_GET,
                    .reply_cmd = ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY,
                    .header_attr = ETHTOOL_A_MODULE_EEPROM_HEADER,
                    .cmd_name = "MODULE_EEPROM_GET",
                    .netdev = netdev,
                    .body = body};
    using Result = Reply<std::vector<uint8_t>>;
    if (length == 0 || length > kEepromMaxLength)
        return Result::failed(ethtoolPrefix(request) +
                              fmt::format("length {} is outside 1-{}", length, kEepromMaxLength));
    Result reply;
    Outcome outcome = exchange(request);
    int error = outcome.answer.error;
    bool unsupported =
        isUnsupportedErrno(error) ||
        (error == EIO && ethtool_detail::eepromIoErrorMeansNoModule(outcome.answer.extack));
    if (!takeAnswer(outcome, request, unsupported, reply)) {
        if (error == EIO && unsupported)
            reply.message += " (no module in the cage, or it does not answer)";
        return reply;
    }
    std::vector<uint8_t> data;
    if (std::string why = eepromDataOf(outcome.answer, length, data); !why.empty())
        return Result::failed(ethtoolPrefix(request) + why);
    return Result::success(std::move(data));
}

} // namespace nicd::prefailure
