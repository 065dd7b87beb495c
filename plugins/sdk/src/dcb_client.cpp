// DcbClient: IEEE_GET, IEEE_SET and IEEE_DEL over the SDK's NetlinkRequester. The requests ask for
// an ack (NLM_F_ACK), so an answer is the reply message and the NLMSG_ERROR that acks it; the
// codec decodes the reply's payload, the requester reads the rest.
#include <nicd/plugin/sdk/dcb_client.h>
#include <nicd/plugin/sdk/dcb_errors.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <cerrno>
#include <optional>
#include <string>

namespace nicd::plugin::sdk {

namespace {

v1::Status dcbMalformed(std::string_view netdev, const char* op, const std::string& why)
{
    return v1::Status::fail(v1::Errc::Io, "netdev " + std::string(netdev) + ": " + op +
                                              ": malformed reply: " + why);
}

} // namespace

DcbClient::DcbClient()
    : requester_(NETLINK_ROUTE, std::chrono::milliseconds(kReplyTimeoutMs), "DCB reply")
{
}

v1::Status DcbClient::statusOf(const NetlinkOutcome& out, std::string_view netdev, const char* op)
{
    const std::string where = "netdev " + std::string(netdev) + ": " + op + ": ";
    switch (out.end) {
    case NetlinkEnd::Answered:
        return out.error == 0 ? v1::Status::ok() : dcbFailure(netdev, op, out.error);
    case NetlinkEnd::NoSocket:
    case NetlinkEnd::SocketFailed:
        return v1::Status::fail(v1::Errc::Io, "rtnetlink: " + out.why, out.error);
    case NetlinkEnd::Timeout:
        return v1::Status::fail(v1::Errc::Timeout,
                                where + "no reply from the kernel within " +
                                    std::to_string(kReplyTimeoutMs) + " ms",
                                ETIMEDOUT);
    case NetlinkEnd::Malformed:
        return v1::Status::fail(v1::Errc::Io, where + out.why);
    case NetlinkEnd::SendFailed:
    case NetlinkEnd::ReceiveFailed:
        break;
    }
    return v1::Status::fail(v1::Errc::Io, where + out.why, out.error);
}

v1::Status DcbClient::get(std::string_view netdev, dcb::DcbState& out)
{
    if (!dcb::validIfname(netdev))
        return badNetdevName(netdev);
    std::vector<uint8_t> request = dcb::encodeIeeeGet(netdev, 0); // the requester numbers it
    std::optional<dcb::DcbState> state;
    auto decode = [&](std::span<const uint8_t> payload) { state = dcb::decodeGetPayload(payload); };
    const NetlinkOutcome answer = requester_.exchange(request, RTM_GETDCB, decode);
    if (auto s = statusOf(answer, netdev, "IEEE_GET"); !s)
        return s;
    if (!state)
        return dcbMalformed(netdev, "IEEE_GET", "acknowledged without a reply");
    out = std::move(*state);
    return v1::Status::ok();
}

v1::Status DcbClient::change(std::string_view netdev, uint8_t cmd, const Encoder& encode)
{
    if (!dcb::validIfname(netdev))
        return badNetdevName(netdev);
    const char* op = cmd == dcb::kCmdIeeeDel ? "IEEE_DEL" : "IEEE_SET";
    std::vector<uint8_t> request = encode(0); // the requester numbers it
    std::optional<dcb::SetReply> reply;
    auto decode = [&](std::span<const uint8_t> payload) {
        reply = dcb::decodeSetPayload(payload, cmd);
    };
    const NetlinkOutcome answer = requester_.exchange(request, RTM_SETDCB, decode);
    if (auto s = statusOf(answer, netdev, op); !s)
        return s;
    if (!reply)
        return dcbMalformed(netdev, op, "acknowledged without a reply");
    if (reply->error != 0)
        return dcbFailure(netdev, op, reply->error, reply->in_band);
    return v1::Status::ok();
}

v1::Status DcbClient::set(std::string_view netdev, const std::optional<dcb::Pfc>& pfc,
                          std::span<const dcb::App> apps)
{
    return change(netdev, dcb::kCmdIeeeSet,
                  [&](uint32_t seq) { return dcb::encodeIeeeSet(netdev, seq, pfc, apps); });
}

v1::Status DcbClient::del(std::string_view netdev, std::span<const dcb::App> apps)
{
    return change(netdev, dcb::kCmdIeeeDel,
                  [&](uint32_t seq) { return dcb::encodeIeeeDel(netdev, seq, apps); });
}

v1::Status DcbClient::setEts(std::string_view netdev, const dcb::Ets& ets)
{
    return change(netdev, dcb::kCmdIeeeSet,
                  [&](uint32_t seq) { return dcb::encodeIeeeSetEts(netdev, seq, ets); });
}

} // namespace nicd::plugin::sdk
