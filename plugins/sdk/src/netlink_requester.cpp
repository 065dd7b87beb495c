// NetlinkRequester: one netlink socket connected to the kernel, requests numbered, their answers
// matched by sequence number (netlink_answer.cpp) and read with one deadline; the kernel's errno
// and extack kept. A steady caller allocates nothing per request: the buffer and the answer are
// reused, and a success carries no text.
#include <nicd/plugin/sdk/netlink_requester.h>

#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace nicd::plugin::sdk {

namespace {

using RequesterClock = std::chrono::steady_clock;

// A dump part is at most 32 KiB (the kernel sizes it by the reader's buffer, capped there); a
// single reply (an RDMA port's counters, a DCB state, a generic netlink family) fits in it too. A
// larger datagram is an error, never silently cut (MSG_TRUNC).
constexpr size_t kRequesterBuffer = 32768;
constexpr int kRequesterOptionOn = 1;
constexpr size_t kFlagsOffset = 6; // nlmsghdr.nlmsg_flags
constexpr size_t kSeqOffset = 8;   // nlmsghdr.nlmsg_seq
constexpr size_t kPidOffset = 12;

std::string requesterErrnoText(int err)
{
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

ssize_t sendRetrying(int fd, const void* data, size_t size)
{
    ssize_t n;
    do {
        n = ::send(fd, data, size, 0);
    } while (n < 0 && errno == EINTR);
    return n;
}

ssize_t receiveRetrying(int fd, void* data, size_t size)
{
    ssize_t n;
    do {
        n = ::recv(fd, data, size, MSG_TRUNC); // returns the datagram's real length
    } while (n < 0 && errno == EINTR);
    return n;
}

} // namespace

NetlinkRequester::NetlinkRequester(int protocol, std::chrono::milliseconds timeout,
                                   std::string_view where)
    : protocol_(protocol), where_(where), timeout_(timeout)
{
}

NetlinkRequester::NetlinkRequester(GivenNetlinkSocket socket, std::chrono::milliseconds timeout,
                                   std::string_view where)
    : fd_(socket.fd), where_(where), own_socket_(false), timeout_(timeout)
{
    if (fd_ < 0 || setReceiveTimeout(timeout_) != 0)
        closeSocket(); // the first request says the socket failed
}

NetlinkRequester::~NetlinkRequester()
{
    if (fd_ >= 0)
        ::close(fd_);
}

const char* NetlinkRequester::protocolName() const
{
    switch (protocol_) {
    case NETLINK_ROUTE:
        return "NETLINK_ROUTE";
    case NETLINK_GENERIC:
        return "NETLINK_GENERIC";
    case NETLINK_RDMA:
        return "NETLINK_RDMA";
    default:
        return "netlink";
    }
}

void NetlinkRequester::closeSocket()
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    failed_ = !own_socket_;
    timeout_shortened_ = false;
}

int NetlinkRequester::setReceiveTimeout(std::chrono::microseconds timeout)
{
    timeout = std::max(timeout, std::chrono::microseconds(1)); // 0 would mean forever
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1'000'000);
    tv.tv_usec = static_cast<suseconds_t>(timeout.count() % 1'000'000);
    return ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0 ? 0 : errno;
}

NetlinkOutcome NetlinkRequester::fail(NetlinkEnd end, std::string why, int error)
{
    if (end != NetlinkEnd::Timeout)
        closeSocket();
    NetlinkOutcome out;
    out.end = end;
    out.error = error;
    out.why = std::move(why);
    return out;
}

NetlinkOutcome NetlinkRequester::open()
{
    if (fd_ >= 0)
        return {};
    if (failed_)
        return fail(NetlinkEnd::SocketFailed, "the socket failed earlier", EBADF);
    fd_ = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol_);
    if (fd_ < 0) {
        const int err = errno;
        return fail(NetlinkEnd::NoSocket,
                    "cannot open a " + std::string(protocolName()) +
                        " socket: " + requesterErrnoText(err),
                    err);
    }
    // The kernel's reason in its error messages, without the request echoed back. Kernels before
    // 4.12 lack these options; their answers then carry no text.
    (void)::setsockopt(fd_, SOL_NETLINK, NETLINK_EXT_ACK, &kRequesterOptionOn,
                       sizeof kRequesterOptionOn);
    (void)::setsockopt(fd_, SOL_NETLINK, NETLINK_CAP_ACK, &kRequesterOptionOn,
                       sizeof kRequesterOptionOn);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK; // nl_pid 0: the kernel, the only peer that may send to us now
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel) != 0) {
        const int err = errno;
        return fail(NetlinkEnd::SocketFailed,
                    "cannot connect to the kernel: " + requesterErrnoText(err), err);
    }
    if (int err = setReceiveTimeout(timeout_); err != 0)
        return fail(NetlinkEnd::SocketFailed,
                    "cannot set the receive timeout: " + requesterErrnoText(err), err);
    return {};
}

NetlinkOutcome NetlinkRequester::exchangeWith(std::span<uint8_t> request, uint16_t reply_type,
                                              PayloadSink decode)
{
    if (auto opened = open(); !opened.answered())
        return opened;
    if (request.size() < kNetlinkHeader)
        return fail(NetlinkEnd::SendFailed, "a request shorter than a netlink header", EINVAL);
    if (timeout_shortened_) {
        if (int err = setReceiveTimeout(timeout_); err != 0)
            return fail(NetlinkEnd::SocketFailed,
                        "cannot set the receive timeout: " + requesterErrnoText(err), err);
        timeout_shortened_ = false;
    }
    const uint32_t seq = ++seq_;
    const uint32_t kernel_fills_in = 0;
    std::memcpy(request.data() + kSeqOffset, &seq, sizeof seq);
    std::memcpy(request.data() + kPidOffset, &kernel_fills_in, sizeof kernel_fills_in);
    uint16_t flags = 0;
    std::memcpy(&flags, request.data() + kFlagsOffset, sizeof flags);
    const NetlinkReplies replies = repliesOf(flags);

    ++requests_;
    const ssize_t sent = sendRetrying(fd_, request.data(), request.size());
    if (sent < 0) {
        const int err = errno;
        return fail(NetlinkEnd::SendFailed, "send: " + requesterErrnoText(err), err);
    }
    if (static_cast<size_t>(sent) != request.size())
        return fail(NetlinkEnd::SendFailed, "short send", EIO);
    const auto deadline = RequesterClock::now() + timeout_;
    // Built only when it is needed: a steady caller allocates nothing per request.
    auto noAnswer = [this] {
        return "no answer within " + std::to_string(timeout_.count()) + " ms";
    };
    answer_.reset();
    buffer_.resize(kRequesterBuffer);
    for (bool first = true; !answer_.finished; first = false) {
        // The first wait is the socket's standing timeout; a further one (a dump's next part,
        // or the answer after a stale message) only what is left of it. A timeout of 0 asks for
        // nothing to be read.
        const auto left =
            std::chrono::duration_cast<std::chrono::microseconds>(deadline - RequesterClock::now());
        if (left.count() <= 0)
            return fail(NetlinkEnd::Timeout, noAnswer(), ETIMEDOUT);
        if (!first) {
            if (int err = setReceiveTimeout(left); err != 0)
                return fail(NetlinkEnd::SocketFailed,
                            "cannot set the receive timeout: " + requesterErrnoText(err), err);
            timeout_shortened_ = true;
        }
        const ssize_t n = receiveRetrying(fd_, buffer_.data(), buffer_.size());
        if (n < 0) {
            const int err = errno;
            if (err == EAGAIN || err == EWOULDBLOCK)
                return fail(NetlinkEnd::Timeout, noAnswer(), ETIMEDOUT);
            return fail(NetlinkEnd::ReceiveFailed, "receive: " + requesterErrnoText(err), err);
        }
        if (n == 0)
            return fail(NetlinkEnd::ReceiveFailed, "the socket was closed", EPIPE);
        if (static_cast<size_t>(n) > buffer_.size())
            return fail(NetlinkEnd::ReceiveFailed,
                        "a datagram of " + std::to_string(n) + " bytes, more than the " +
                            std::to_string(buffer_.size()) + " read",
                        EMSGSIZE);
        try {
            // A datagram holds whole messages: a cut one is an error, not a reason to wait.
            absorbNetlinkDatagram({buffer_.data(), static_cast<size_t>(n)}, seq, reply_type,
                                  replies, answer_, where_, NetlinkTail::Rejected);
            for (auto payload : answer_.messages)
                decode(payload);
        } catch (const DecodeError& e) {
            return fail(NetlinkEnd::Malformed, std::string("malformed answer: ") + e.what(),
                        EBADMSG);
        }
    }
    NetlinkOutcome out; // the kernel's answer: the socket is as good as before
    out.error = answer_.error;
    out.extack = answer_.extack;
    out.interrupted = answer_.interrupted;
    return out;
}

} // namespace nicd::plugin::sdk
