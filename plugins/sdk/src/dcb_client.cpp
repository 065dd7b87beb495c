#include <nicd/plugin/sdk/dcb_client.h>
#include <nicd/plugin/sdk/dcb_errors.h>

#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <poll.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace nicd::plugin::sdk {

namespace {

constexpr int kMaxDatagrams = 64; // a reply is 1 or 2 datagrams; anything beyond is broken

v1::Status malformed(std::string_view netdev, const char* op,
                     const nicd::plugin::sdk::DecodeError& e)
{
    return v1::Status::fail(v1::Errc::Io, "netdev " + std::string(netdev) + ": " + op +
                                              ": malformed reply: " + e.what());
}

} // namespace

DcbClient::~DcbClient()
{
    if (sock_)
        nl_socket_free(sock_);
}

v1::Status DcbClient::open()
{
    if (sock_)
        return v1::Status::ok();
    sock_ = nl_socket_alloc();
    if (!sock_)
        return v1::Status::fail(v1::Errc::Internal, "rtnetlink: cannot allocate a socket");
    if (int rc = nl_connect(sock_, NETLINK_ROUTE); rc < 0) {
        nl_socket_free(sock_);
        sock_ = nullptr;
        return v1::Status::fail(v1::Errc::Io,
                                std::string("rtnetlink: cannot open socket: ") + nl_geterror(rc));
    }
    return v1::Status::ok();
}

uint32_t DcbClient::nextSeq()
{
    return nl_socket_use_seq(sock_);
}

v1::Status DcbClient::exchange(std::string_view netdev, const char* op,
                               const std::vector<uint8_t>& request, uint32_t seq,
                               std::vector<uint8_t>& reply)
{
    const std::string where = "netdev " + std::string(netdev) + ": " + op + ": ";
    // nl_sendto takes a non-const buffer but only reads it.
    auto* data = const_cast<uint8_t*>(request.data());
    if (int rc = nl_sendto(sock_, data, request.size()); rc < 0)
        return v1::Status::fail(v1::Errc::Io, where + "send failed: " + nl_geterror(rc));
    reply.clear();
    for (int i = 0; i < kMaxDatagrams; ++i) {
        pollfd pfd{nl_socket_get_fd(sock_), POLLIN, 0};
        int ready = ::poll(&pfd, 1, kReplyTimeoutMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return v1::Status::fail(v1::Errc::Timeout,
                                    where + "no reply from the kernel within " +
                                        std::to_string(kReplyTimeoutMs) + " ms",
                                    ETIMEDOUT);
        unsigned char* buf = nullptr;
        sockaddr_nl from{};
        int n = nl_recv(sock_, &from, &buf, nullptr);
        if (n < 0)
            return v1::Status::fail(v1::Errc::Io, where + "receive failed: " + nl_geterror(n));
        if (from.nl_pid != 0) { // only the kernel answers; ignore anything else
            std::free(buf);
            continue;
        }
        const size_t datagram_at = reply.size();
        reply.insert(reply.end(), buf, buf + n);
        std::free(buf);
        // A datagram holds whole messages: the one just received is enough to look for the
        // NLMSG_ERROR that ends the reply, without splitting the earlier ones again.
        try {
            if (dcb::replyComplete(std::span(reply).subspan(datagram_at), seq))
                return v1::Status::ok();
        } catch (const nicd::plugin::sdk::DecodeError& e) {
            return malformed(netdev, op, e);
        }
    }
    return v1::Status::fail(v1::Errc::Io, where + "reply never completed");
}

v1::Status DcbClient::get(std::string_view netdev, dcb::DcbState& out)
{
    if (!dcb::validIfname(netdev))
        return badNetdevName(netdev);
    if (auto s = open(); !s)
        return s;
    uint32_t seq = nextSeq();
    std::vector<uint8_t> reply;
    if (auto s = exchange(netdev, "IEEE_GET", dcb::encodeIeeeGet(netdev, seq), seq, reply); !s)
        return s;
    dcb::GetReply r;
    try {
        r = dcb::decodeGetReply(reply, seq);
    } catch (const nicd::plugin::sdk::DecodeError& e) {
        return malformed(netdev, "IEEE_GET", e);
    }
    if (r.error != 0)
        return dcbFailure(netdev, "IEEE_GET", r.error);
    out = std::move(r.state);
    return v1::Status::ok();
}

v1::Status DcbClient::change(std::string_view netdev, uint8_t cmd, const Encoder& encode)
{
    if (!dcb::validIfname(netdev))
        return badNetdevName(netdev);
    if (auto s = open(); !s)
        return s;
    const uint32_t seq = nextSeq();
    const char* op = cmd == dcb::kCmdIeeeDel ? "IEEE_DEL" : "IEEE_SET";
    std::vector<uint8_t> reply;
    if (auto s = exchange(netdev, op, encode(seq), seq, reply); !s)
        return s;
    dcb::SetReply r;
    try {
        r = dcb::decodeSetReply(reply, seq, cmd);
    } catch (const nicd::plugin::sdk::DecodeError& e) {
        return malformed(netdev, op, e);
    }
    if (r.error != 0)
        return dcbFailure(netdev, op, r.error, r.in_band);
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
