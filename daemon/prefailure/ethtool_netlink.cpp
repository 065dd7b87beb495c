// EthtoolNetlink: requests built with libnl-genl-3, answers read with a deadline and matched by
// sequence number, errors (with the kernel's extack text) sorted into Unsupported and Failed.
// Facts: shared/reference/pre-failure.md §1 (FEC_GET) and §3.1 (MODULE_EEPROM_GET).
#include "prefailure/ethtool_netlink.hpp"

#include "prefailure/decode_error.hpp"
#include "prefailure/fec_stats.hpp"

#include <fmt/format.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <system_error>

namespace nicd::prefailure {

namespace ethtool_detail {

// One request: the command, the header nest (device name and flags) and the attributes after it.
struct Request {
    uint8_t cmd = 0;
    uint8_t reply_cmd = 0;
    uint16_t header_attr = 0; // 0: no header nest
    const char* cmd_name = "";
    std::string netdev{};
    uint32_t header_flags = 0;
    std::function<int(nl_msg*)> body{}; // adds the attributes after the header; libnl error code
    uint8_t version = ETHTOOL_GENL_VERSION;
};

// How an exchange ended: answered by the kernel, or not (and why).
struct Outcome {
    bool answered = false;
    bool unsupported = false; // not answered because netlink or the family is not there
    std::string failure;      // why it was not answered
    Answer answer;
};

} // namespace ethtool_detail

namespace {

using ethtool_detail::Answer;
using ethtool_detail::Outcome;
using ethtool_detail::Request;
using Clock = std::chrono::steady_clock;

constexpr uint8_t kEepromMaxLength = 128; // ETHTOOL_A_MODULE_EEPROM_LENGTH policy: 1-128
constexpr int kNetlinkOptionOn = 1;
constexpr uint8_t kCtrlVersion = 1;
constexpr auto kMinimumWait = std::chrono::microseconds(1); // SO_RCVTIMEO 0 would mean forever

struct FreeDeleter {
    void operator()(unsigned char* p) const { std::free(p); }
};
using ReceiveBuffer = std::unique_ptr<unsigned char, FreeDeleter>;
using MessagePtr = std::unique_ptr<nl_msg, decltype(&nlmsg_free)>;

std::string errnoText(int error)
{
    return fmt::format("{} (errno {})", std::generic_category().message(error), error);
}

std::string prefix(const Request& request)
{
    return fmt::format("netdev {}: ethtool {}: ", request.netdev, request.cmd_name);
}

// ---- socket helpers ----

bool setReceiveTimeout(nl_sock* sock, std::chrono::microseconds left)
{
    left = std::max(left, kMinimumWait);
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(left.count() / 1'000'000);
    tv.tv_usec = static_cast<suseconds_t>(left.count() % 1'000'000);
    return setsockopt(nl_socket_get_fd(sock), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0;
}

// The kernel's error text in extended acks, without the request echoed back. Kernels before
// 4.12 lack these options; the answers then simply carry no text, so failure is not an error.
void askForExtendedAcks(nl_sock* sock)
{
    int fd = nl_socket_get_fd(sock);
    (void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &kNetlinkOptionOn, sizeof kNetlinkOptionOn);
    (void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &kNetlinkOptionOn, sizeof kNetlinkOptionOn);
}

std::string buildRequest(nl_msg* msg, const Request& request, int family, uint32_t seq)
{
    if (!genlmsg_put(msg, NL_AUTO_PORT, seq, family, 0, NLM_F_REQUEST | NLM_F_ACK, request.cmd,
                     request.version))
        return "cannot build the generic netlink header";
    int rc = 0;
    if (request.header_attr != 0) {
        nlattr* header = nla_nest_start(msg, request.header_attr | NLA_F_NESTED);
        if (!header)
            return "cannot start the header nest";
        rc = nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, request.netdev.c_str());
        if (rc >= 0 && request.header_flags != 0)
            rc = nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, request.header_flags);
        if (rc >= 0)
            rc = nla_nest_end(msg, header);
    }
    if (rc >= 0 && request.body)
        rc = request.body(msg);
    if (rc < 0)
        return fmt::format("cannot build the request: {}", nl_geterror(rc));
    return {};
}

// Reads datagrams until the kernel's ack or error for `seq` arrives or the deadline passes.
// Returns why it stopped early; empty when `answer` is finished.
std::string receiveAnswer(nl_sock* sock, const Request& request, uint32_t seq, int family,
                          Clock::time_point deadline, Answer& answer)
{
    while (!answer.finished) {
        auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return "no answer from the kernel before the timeout";
        if (!setReceiveTimeout(sock, left))
            return fmt::format("cannot set the receive timeout: {}", errnoText(errno));
        sockaddr_nl peer{};
        unsigned char* raw = nullptr;
        int n = nl_recv(sock, &peer, &raw, nullptr);
        ReceiveBuffer buffer(raw);
        if (n == 0 || n == -NLE_AGAIN)
            return "no answer from the kernel before the timeout";
        if (n < 0)
            return fmt::format("receive failed: {}", nl_geterror(n));
        if (peer.nl_pid != 0)
            continue; // not from the kernel
        try {
            ethtool_detail::absorbDatagram({buffer.get(), static_cast<size_t>(n)}, seq,
                                           static_cast<uint16_t>(family), request.reply_cmd,
                                           answer);
        } catch (const DecodeError& e) {
            return fmt::format("malformed answer: {}", e.what());
        }
    }
    return {};
}

// ---- classification ----

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
        reply.message = prefix(request) + outcome.failure;
        return false;
    }
    const Answer& answer = outcome.answer;
    if (answer.error != 0) {
        reply.status = unsupported_error ? Status::Unsupported : Status::Failed;
        reply.message = prefix(request) + errnoText(answer.error);
        if (!answer.extack.empty())
            reply.message += ": " + answer.extack;
        return false;
    }
    if (!answer.has_reply) {
        reply.status = Status::Failed;
        reply.message = prefix(request) + "the kernel acknowledged without a reply";
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

// CTRL_ATTR_FAMILY_ID of a CTRL_CMD_NEWFAMILY reply; -1 when it is missing or malformed.
int familyIdOf(const Answer& answer)
{
    try {
        for (const auto& attr :
             plugin::sdk::NetlinkAttrs(answer.reply, "CTRL_CMD_NEWFAMILY reply")) {
            if (attr.type == CTRL_ATTR_FAMILY_ID && attr.payload.size() >= sizeof(uint16_t)) {
                uint16_t id = 0;
                std::memcpy(&id, attr.payload.data(), sizeof id);
                return id;
            }
        }
    } catch (const DecodeError&) {
    }
    return -1;
}

} // namespace

// ---- EthtoolNetlink ----

EthtoolNetlink::EthtoolNetlink(std::chrono::milliseconds timeout)
    : timeout_(timeout), sock_(nullptr, &nl_socket_free)
{
}

EthtoolNetlink::~EthtoolNetlink() = default;

std::string EthtoolNetlink::open(bool& unsupported)
{
    unsupported = false;
    if (!sock_) {
        sock_.reset(nl_socket_alloc());
        if (!sock_)
            return "cannot allocate a netlink socket";
        if (int rc = genl_connect(sock_.get()); rc < 0) {
            sock_.reset();
            unsupported = rc == -NLE_PERM || rc == -NLE_AF_NOSUPPORT;
            return fmt::format("cannot open a generic netlink socket: {}", nl_geterror(rc));
        }
        nl_socket_enable_msg_peek(sock_.get());
        askForExtendedAcks(sock_.get());
    }
    return family_ >= 0 ? std::string() : lookUpFamily(unsupported);
}

// CTRL_CMD_GETFAMILY by hand rather than genl_ctrl_resolve(), which answers a timeout or any
// other failure as "not found": only ENOENT means the kernel has no ethtool family.
std::string EthtoolNetlink::lookUpFamily(bool& unsupported)
{
    Request lookup{.cmd = CTRL_CMD_GETFAMILY,
                   .reply_cmd = CTRL_CMD_NEWFAMILY,
                   .cmd_name = "CTRL_CMD_GETFAMILY",
                   .body =
                       [](nl_msg* msg) {
                           return nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
                       },
                   .version = kCtrlVersion};
    Outcome found = roundTrip(lookup, GENL_ID_CTRL);
    const std::string what = fmt::format("generic netlink family \"{}\": ", ETHTOOL_GENL_NAME);
    if (!found.answered)
        return what + found.failure;
    if (found.answer.error == ENOENT) {
        unsupported = true;
        return what + "the kernel has none";
    }
    if (found.answer.error != 0)
        return what + errnoText(found.answer.error);
    int family = found.answer.has_reply ? familyIdOf(found.answer) : -1;
    if (family < 0)
        return what + "the lookup reply carries no family id";
    family_ = family;
    return {};
}

Outcome EthtoolNetlink::exchange(const Request& request)
{
    Outcome outcome;
    if (std::string why = open(outcome.unsupported); !why.empty()) {
        outcome.failure = why;
        return outcome;
    }
    return roundTrip(request, family_);
}

Outcome EthtoolNetlink::roundTrip(const Request& request, int family)
{
    Outcome outcome;
    MessagePtr msg(nlmsg_alloc(), &nlmsg_free);
    if (!msg) {
        outcome.failure = "cannot allocate a netlink message";
        return outcome;
    }
    uint32_t seq = nl_socket_use_seq(sock_.get());
    if (std::string why = buildRequest(msg.get(), request, family, seq); !why.empty()) {
        outcome.failure = why;
        return outcome;
    }
    if (int rc = nl_send_auto(sock_.get(), msg.get()); rc < 0) {
        outcome.failure = fmt::format("send failed: {}", nl_geterror(rc));
        return outcome;
    }
    std::string why =
        receiveAnswer(sock_.get(), request, seq, family, Clock::now() + timeout_, outcome.answer);
    if (!why.empty()) {
        // Drop the socket: what is still queued on it belongs to a request given up on.
        sock_.reset();
        outcome.failure = why;
        return outcome;
    }
    outcome.answered = true;
    return outcome;
}

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
        return Reply<FecStats>::failed(prefix(request) + "malformed reply: " + e.what());
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
        return Result::failed(prefix(request) +
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
        return Result::failed(prefix(request) + why);
    return Result::success(std::move(data));
}

} // namespace nicd::prefailure
