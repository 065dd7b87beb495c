// RdmaStatsClient: one NETLINK_RDMA socket connected to the kernel (so that only the kernel can
// send to it), requests numbered and their answers matched by sequence number, read with a
// deadline; errors keep the kernel's errno and extack text. The bytes: rdma_stats_codec.cpp.
#include <nicd/plugin/sdk/rdma_stats_client.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace nicd::plugin::sdk {

namespace pv1 = ::nicd::plugin::v1;

namespace {

using Clock = std::chrono::steady_clock;

// A dump part is at most 32 KiB (the kernel sizes it by the reader's buffer, capped there); a
// port's counters fit in one page.
constexpr size_t kBufferSize = 32768;
constexpr int kOptionOn = 1;
constexpr int kDumpAttempts = 3; // a dump interrupted by a device coming or going is asked again

std::string errnoText(int err)
{
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

// What an errno from the kernel means for the caller (rdma_stats_client.h).
pv1::Errc errcOf(int err)
{
    switch (err) {
    case EOPNOTSUPP:
    case EINVAL:
    case EPERM:
    case EACCES:
    case EPROTONOSUPPORT:
    case EAFNOSUPPORT:
        return pv1::Errc::NotSupported;
    case ENODEV:
    case ENXIO:
        return pv1::Errc::NoDevice;
    default:
        return pv1::Errc::Io;
    }
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

RdmaStatsClient::RdmaStatsClient(std::chrono::milliseconds timeout) : timeout_(timeout) {}

RdmaStatsClient::RdmaStatsClient(int fd, std::chrono::milliseconds timeout)
    : fd_(fd), own_socket_(false), timeout_(timeout)
{
    if (setReceiveTimeout(timeout_) != 0)
        closeSocket(); // the first request says the socket failed
}

RdmaStatsClient::~RdmaStatsClient()
{
    if (fd_ >= 0)
        ::close(fd_);
}

void RdmaStatsClient::closeSocket()
{
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = -1;
    failed_ = !own_socket_;
    timeout_shortened_ = false;
}

int RdmaStatsClient::setReceiveTimeout(std::chrono::microseconds timeout)
{
    timeout = std::max(timeout, std::chrono::microseconds(1)); // 0 would mean forever
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1'000'000);
    tv.tv_usec = static_cast<suseconds_t>(timeout.count() % 1'000'000);
    return ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0 ? 0 : errno;
}

pv1::Status RdmaStatsClient::open()
{
    if (fd_ >= 0)
        return pv1::Status::ok();
    if (failed_)
        return pv1::Status::fail(pv1::Errc::Io, "RDMA netlink: the socket failed earlier", EBADF);
    fd_ = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
    if (fd_ < 0) {
        const int err = errno;
        return pv1::Status::fail(
            errcOf(err), "RDMA netlink: cannot open a NETLINK_RDMA socket: " + errnoText(err), err);
    }
    // The kernel's reason in its error messages, without the request echoed back. Kernels before
    // 4.12 lack these options; their answers then carry no text.
    (void)::setsockopt(fd_, SOL_NETLINK, NETLINK_EXT_ACK, &kOptionOn, sizeof kOptionOn);
    (void)::setsockopt(fd_, SOL_NETLINK, NETLINK_CAP_ACK, &kOptionOn, sizeof kOptionOn);
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK; // nl_pid 0: the kernel, the only peer that may send to us now
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel) != 0) {
        const int err = errno;
        closeSocket();
        return pv1::Status::fail(
            pv1::Errc::Io, "RDMA netlink: cannot connect to the kernel: " + errnoText(err), err);
    }
    if (int err = setReceiveTimeout(timeout_); err != 0) {
        closeSocket();
        return pv1::Status::fail(
            pv1::Errc::Io, "RDMA netlink: cannot set the receive timeout: " + errnoText(err), err);
    }
    return pv1::Status::ok();
}

template <class Describe, class OnMessage>
pv1::Status RdmaStatsClient::exchange(Describe&& describe, uint16_t type, bool dump,
                                      OnMessage&& on_message)
{
    // The socket failed, or what came on it cannot be trusted: the next request starts on a
    // fresh one. After a timeout it is kept (a late answer is skipped by its sequence number).
    auto fail = [&](pv1::Errc code, const std::string& why, int err) {
        if (code != pv1::Errc::Timeout)
            closeSocket();
        return pv1::Status::fail(code, "RDMA netlink " + describe() + ": " + why, err);
    };
    if (auto s = open(); !s)
        return s;
    if (timeout_shortened_) {
        if (int err = setReceiveTimeout(timeout_); err != 0)
            return fail(pv1::Errc::Io, "cannot set the receive timeout: " + errnoText(err), err);
        timeout_shortened_ = false;
    }
    ++requests_;
    const ssize_t sent = sendRetrying(fd_, request_.data(), request_.size());
    if (sent < 0) {
        const int err = errno;
        return fail(errcOf(err), "send: " + errnoText(err), err);
    }
    if (static_cast<size_t>(sent) != request_.size())
        return fail(pv1::Errc::Io, "short send", EIO);
    const auto deadline = Clock::now() + timeout_;
    answer_.reset();
    buffer_.resize(kBufferSize);
    for (bool first = true; !answer_.finished; first = false) {
        // The first wait is the socket's standing timeout; a further one (a dump's next part,
        // or the answer after a stale message) only what is left of it.
        if (!first) {
            auto left =
                std::chrono::duration_cast<std::chrono::microseconds>(deadline - Clock::now());
            if (left.count() <= 0)
                return fail(pv1::Errc::Timeout,
                            "no answer within " + std::to_string(timeout_.count()) + " ms",
                            ETIMEDOUT);
            if (int err = setReceiveTimeout(left); err != 0)
                return fail(pv1::Errc::Io, "cannot set the receive timeout: " + errnoText(err),
                            err);
            timeout_shortened_ = true;
        }
        const ssize_t n = receiveRetrying(fd_, buffer_.data(), buffer_.size());
        if (n < 0) {
            const int err = errno;
            if (err == EAGAIN || err == EWOULDBLOCK)
                return fail(pv1::Errc::Timeout,
                            "no answer within " + std::to_string(timeout_.count()) + " ms",
                            ETIMEDOUT);
            return fail(pv1::Errc::Io, "receive: " + errnoText(err), err);
        }
        if (n == 0)
            return fail(pv1::Errc::Io, "the socket was closed", EPIPE);
        if (static_cast<size_t>(n) > buffer_.size())
            return fail(pv1::Errc::Io,
                        "a datagram of " + std::to_string(n) + " bytes, more than the " +
                            std::to_string(buffer_.size()) + " read",
                        EMSGSIZE);
        try {
            absorbRdmaDatagram({buffer_.data(), static_cast<size_t>(n)}, seq_, type, dump, answer_);
            for (auto message : answer_.messages)
                on_message(message);
        } catch (const DecodeError& e) {
            return fail(pv1::Errc::Io, std::string("malformed answer: ") + e.what(), EBADMSG);
        }
    }
    if (answer_.error != 0) { // the kernel's answer: the socket is as good as before
        const int err = answer_.error;
        return pv1::Status::fail(errcOf(err),
                                 "RDMA netlink " + describe() + ": " + errnoText(err) +
                                     (answer_.extack.empty() ? "" : ": " + answer_.extack),
                                 err);
    }
    return pv1::Status::ok();
}

pv1::Status RdmaStatsClient::listDevices(std::vector<RdmaDevice>& out)
{
    for (int attempt = 1;; ++attempt) {
        out.clear();
        buildDeviceDumpRequest(++seq_, request_);
        auto s = exchange(
            [] { return std::string("device list (RDMA_NLDEV_CMD_GET)"); },
            rdmaNldevType(RDMA_NLDEV_CMD_GET), true,
            [&](std::span<const uint8_t> attrs) { out.push_back(decodeDeviceMessage(attrs)); });
        if (!s)
            return s;
        if (!answer_.interrupted || attempt == kDumpAttempts)
            break;
    }
    devices_ = out;
    return pv1::Status::ok();
}

pv1::Status RdmaStatsClient::refreshDevices()
{
    std::vector<RdmaDevice> list;
    return listDevices(list);
}

const RdmaDevice* RdmaStatsClient::findDevice(std::string_view ibdev) const
{
    auto it = std::find_if(devices_.begin(), devices_.end(),
                           [&](const RdmaDevice& d) { return d.name == ibdev; });
    return it == devices_.end() ? nullptr : &*it;
}

pv1::Status RdmaStatsClient::statGet(std::string_view ibdev, uint32_t index, uint32_t port,
                                     RdmaHwCounters& out, bool& other_device)
{
    other_device = false;
    buildStatGetRequest(++seq_, index, port, request_);
    bool replied = false;
    RdmaStatHeader header;
    auto what = [&] { return "STAT_GET " + std::string(ibdev) + " port " + std::to_string(port); };
    auto s = exchange(what, rdmaNldevType(RDMA_NLDEV_CMD_STAT_GET), false,
                      [&](std::span<const uint8_t> attrs) {
                          header = decodeStatGetReply(attrs, out);
                          replied = true;
                      });
    if (!s)
        return s;
    if (!replied)
        return pv1::Status::fail(
            pv1::Errc::Io, "RDMA netlink " + what() + ": acknowledged without a reply", EBADMSG);
    if (header.dev_name != ibdev || header.dev_index != index) {
        other_device = true;
        return pv1::Status::fail(pv1::Errc::Io,
                                 "RDMA netlink " + what() + ": the reply is about " +
                                     std::string(header.dev_name) + " (index " +
                                     std::to_string(header.dev_index) + "), not index " +
                                     std::to_string(index),
                                 EBADMSG);
    }
    if (header.port != port)
        return pv1::Status::fail(pv1::Errc::Io,
                                 "RDMA netlink " + what() + ": the reply is about port " +
                                     std::to_string(header.port),
                                 EBADMSG);
    return pv1::Status::ok();
}

pv1::Status RdmaStatsClient::readHwCounters(std::string_view ibdev, uint32_t port,
                                            RdmaHwCounters& out)
{
    bool listed_now = false;
    const RdmaDevice* dev = findDevice(ibdev);
    for (;;) {
        if (!dev && !listed_now) {
            if (auto s = refreshDevices(); !s)
                return s;
            listed_now = true;
            dev = findDevice(ibdev);
        }
        if (!dev)
            return pv1::Status::fail(pv1::Errc::NoDevice,
                                     "RDMA netlink: no RDMA device named " + std::string(ibdev) +
                                         " among the " + std::to_string(devices_.size()) +
                                         " the kernel lists",
                                     ENODEV);
        bool other_device = false;
        auto s = statGet(ibdev, dev->index, port, out, other_device);
        // An index that no longer names this device: the device was registered again (a new
        // index) or renamed. The list is asked for again, once.
        const bool stale = other_device || s.sys_errno == EINVAL || s.sys_errno == ENODEV;
        if (s || listed_now || !stale)
            return s;
        dev = nullptr;
    }
}

} // namespace nicd::plugin::sdk
