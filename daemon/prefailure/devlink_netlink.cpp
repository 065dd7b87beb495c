// devlink health over generic netlink. The dump is a request: built with libnl-genl-3, sent over
// the SDK's NetlinkRequester (socket, sequence numbers, the dump's parts until NLMSG_DONE), each
// reply's payload decoded by prefailure/devlink_health.cpp. The monitor is a multicast
// subscription (no requests): libnl-genl-3 resolves its group and reads it; libnl callbacks are C
// frames, so nothing may throw out of them: decode errors are caught and counted there.
#include "prefailure/devlink_netlink.hpp"

#include "prefailure/devlink_health.hpp"
#include "text/result.hpp"

#include <nicd/plugin/sdk/genl_family.h>
#include <nicd/plugin/sdk/netlink_requester.h>

#include <linux/devlink.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace nicd::prefailure {

namespace {

constexpr const char* kDumpCommand = "DEVLINK_CMD_HEALTH_REPORTER_GET";
constexpr int kDumpAttempts = 3; // an interrupted dump (NLM_F_DUMP_INTR) is asked for again
constexpr std::chrono::milliseconds kMonitorResolveTimeout{2000};
constexpr int kMonitorReceiveBuffer = 1 << 20; // the kernel caps it at net.core.rmem_max

using Socket = std::unique_ptr<nl_sock, void (*)(nl_sock*)>;

Socket noSocket()
{
    return {nullptr, &nl_socket_free};
}

std::string nlError(int err)
{
    return nl_geterror(err);
}

// SO_RCVTIMEO of zero means "wait forever": a zero or negative timeout becomes the shortest one.
bool setReceiveTimeout(nl_sock* sock, std::chrono::milliseconds timeout)
{
    constexpr std::chrono::milliseconds kShortest{1};
    constexpr long long kMicrosPerSecond = 1000000;
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::max(timeout, kShortest)).count();
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(us / kMicrosPerSecond);
    tv.tv_usec = static_cast<suseconds_t>(us % kMicrosPerSecond);
    return setsockopt(nl_socket_get_fd(sock), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0;
}

// The monitor's generic netlink socket (libnl: it resolves the multicast group), with a
// receive timeout for that lookup, or an Error saying why not.
Result<Socket> connectGenl(std::chrono::milliseconds timeout)
{
    Socket sock(nl_socket_alloc(), &nl_socket_free);
    if (!sock)
        return Error{"cannot allocate a netlink socket"};
    if (int err = genl_connect(sock.get()); err < 0)
        return Error{"generic netlink: " + nlError(err)};
    if (!setReceiveTimeout(sock.get(), timeout))
        return Error{"cannot set the netlink receive timeout"};
    nl_socket_enable_msg_peek(sock.get()); // a datagram may not fit libnl's default buffer
    return sock;
}

// The reporter in a devlink message of command `cmd`; nullopt for other families or commands and
// for messages without a reporter nest. Throws DecodeError on malformed bytes.
std::optional<HealthReporter> reporterIn(nl_msg* msg, int family, uint8_t cmd)
{
    nlmsghdr* nlh = nlmsg_hdr(msg);
    if (nlh->nlmsg_type != family)
        return std::nullopt;
    if (!genlmsg_valid_hdr(nlh, 0))
        throw DecodeError("devlink message shorter than its generic netlink header");
    auto* genl = static_cast<genlmsghdr*>(nlmsg_data(nlh));
    if (genl->cmd != cmd)
        return std::nullopt;
    const auto* attrs = reinterpret_cast<const uint8_t*>(genlmsg_attrdata(genl, 0));
    const int len = genlmsg_attrlen(genl, 0);
    if (len < 0)
        throw DecodeError("devlink message with a negative attribute length");
    return decodeReporterMessage(std::span(attrs, static_cast<size_t>(len)));
}

// What the kernel refuses to a reader that may not, or a kernel without health reporters.
bool unsupportedError(int err)
{
    return err == EOPNOTSUPP || err == EPERM;
}

struct DumpContext {
    std::vector<HealthReporter> reporters;
    size_t skipped = 0;
    std::string first_problem;

    void skip(const std::string& why)
    {
        if (skipped++ == 0)
            first_problem = why;
    }

    // One message of the dump: a reporter, or skipped (counted, the first problem kept).
    void take(std::span<const uint8_t> payload)
    {
        try {
            const auto genl = plugin::sdk::splitGenl(payload, "devlink message");
            std::optional<HealthReporter> r;
            if (genl.cmd == DEVLINK_CMD_HEALTH_REPORTER_GET)
                r = decodeReporterMessage(genl.attrs);
            if (r)
                reporters.push_back(std::move(*r));
            else
                skip("a devlink message that holds no health reporter");
        } catch (const DecodeError& e) {
            skip(e.what());
        }
    }
};

std::string devlinkErrnoText(int err)
{
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

// The dump request, built with libnl-genl-3; empty when it cannot be.
using DevlinkRequest = std::unique_ptr<nl_msg, void (*)(nl_msg*)>;
DevlinkRequest dumpRequest(uint16_t family)
{
    DevlinkRequest request(nlmsg_alloc(), &nlmsg_free);
    if (request && !genlmsg_put(request.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
                                NLM_F_REQUEST | NLM_F_DUMP, DEVLINK_CMD_HEALTH_REPORTER_GET,
                                DEVLINK_GENL_VERSION))
        request.reset();
    return request;
}

Reply<std::vector<HealthReporter>> dumpOnce(std::chrono::milliseconds timeout, bool& interrupted)
{
    using Result = Reply<std::vector<HealthReporter>>;
    using plugin::sdk::NetlinkEnd;
    const std::string command(kDumpCommand);
    // A fresh socket each call: a late part of a timed-out dump can never be taken for the next.
    plugin::sdk::NetlinkRequester requester(NETLINK_GENERIC, timeout, "devlink netlink");
    uint16_t family = 0;
    const auto found = plugin::sdk::resolveGenlFamily(requester, DEVLINK_GENL_NAME, family);
    if (found.answered() && found.error == ENOENT)
        return Result::unsupported("no devlink generic netlink family in this kernel");
    if (found.end == NetlinkEnd::NoSocket || found.end == NetlinkEnd::SocketFailed)
        return Result::failed(command + ": generic netlink: " + found.why);
    if (!found.answered())
        return Result::failed("resolving the devlink family: " + found.why);
    if (found.error != 0)
        return Result::failed("resolving the devlink family: " + devlinkErrnoText(found.error));
    DevlinkRequest request = dumpRequest(family);
    if (!request)
        return Result::failed(command + ": cannot build the request");
    DumpContext ctx;
    auto take = [&ctx](std::span<const uint8_t> payload) { ctx.take(payload); };
    const auto out = requester.exchange(plugin::sdk::messageBytes(request.get()), family, take);
    interrupted = out.interrupted;
    if (out.answered() && unsupportedError(out.error))
        return Result::unsupported(command + ": " + devlinkErrnoText(out.error));
    if (out.end == NetlinkEnd::Timeout)
        return Result::failed(command + ": no reply within " + std::to_string(timeout.count()) +
                                  " ms",
                              std::move(ctx.reporters));
    if (!out.answered())
        return Result::failed(command + ": " + out.why, std::move(ctx.reporters));
    if (out.error != 0)
        return Result::failed(command + ": " + devlinkErrnoText(out.error),
                              std::move(ctx.reporters));
    if (out.interrupted)
        return Result::failed(command + ": the dump was interrupted (the reporters changed "
                                        "meanwhile)",
                              std::move(ctx.reporters));
    std::string note;
    if (ctx.skipped > 0)
        note = command + ": skipped " + std::to_string(ctx.skipped) +
               " malformed message(s); first: " + ctx.first_problem;
    return Result::success(std::move(ctx.reporters), std::move(note));
}

} // namespace

Reply<std::vector<HealthReporter>> DevlinkNetlink::dumpReporters()
{
    for (int attempt = 1;; ++attempt) {
        bool interrupted = false;
        auto reply = dumpOnce(receive_timeout_, interrupted);
        if (!interrupted || attempt == kDumpAttempts)
            return reply;
    }
}

DevlinkMonitor::DevlinkMonitor() : sock_(noSocket()) {}

DevlinkMonitor::~DevlinkMonitor() = default;

bool DevlinkMonitor::open()
{
    if (sock_)
        return true;
    error_.clear();
    auto connected = connectGenl(kMonitorResolveTimeout);
    if (!connected) {
        error_ = connected.error().message;
        return false;
    }
    Socket sock = std::move(*connected);
    const int family = genl_ctrl_resolve(sock.get(), DEVLINK_GENL_NAME);
    const int group = family < 0 ? family
                                 : genl_ctrl_resolve_grp(sock.get(), DEVLINK_GENL_NAME,
                                                         DEVLINK_GENL_MCGRP_CONFIG_NAME);
    if (group < 0) {
        error_ = group == -NLE_OBJ_NOTFOUND
                     ? "no devlink generic netlink family or \"config\" group in this kernel"
                     : "resolving devlink's \"config\" group: " + nlError(group);
        return false;
    }
    nl_socket_disable_seq_check(sock.get());
    nl_socket_disable_auto_ack(sock.get());
    int err = nl_socket_add_membership(sock.get(), group);
    if (err >= 0)
        err = nl_socket_set_nonblocking(sock.get());
    if (err >= 0)
        err = nl_socket_modify_cb(sock.get(), NL_CB_VALID, NL_CB_CUSTOM, &onMessage, this);
    if (err < 0) {
        error_ = "subscribing to devlink notifications: " + nlError(err);
        return false;
    }
    nl_socket_set_buffer_size(sock.get(), kMonitorReceiveBuffer, 0); // best effort
    family_ = family;
    sock_ = std::move(sock);
    return true;
}

int DevlinkMonitor::fd() const
{
    return sock_ ? nl_socket_get_fd(sock_.get()) : -1;
}

int DevlinkMonitor::onMessage(nl_msg* msg, void* self)
{
    auto* m = static_cast<DevlinkMonitor*>(self);
    try {
        if (auto r = reporterIn(msg, m->family_, DEVLINK_CMD_HEALTH_REPORTER_RECOVER))
            m->pending_.push_back(std::move(*r));
    } catch (const std::exception& e) {
        if (m->skipped_++ == 0)
            m->first_skip_ = e.what();
    }
    return NL_OK;
}

std::vector<HealthReporter> DevlinkMonitor::drain()
{
    pending_.clear();
    error_.clear();
    skipped_ = 0;
    if (!sock_)
        return {};
    std::string read_error;
    for (int read = 0; read < kMaxReadsPerDrain; ++read) {
        const int err = nl_recvmsgs_default(sock_.get());
        if (err >= 0)
            continue;
        if (err == -NLE_AGAIN)
            break; // nothing more pending
        if (err == -NLE_NOMEM) {
            overrun_ = true; // ENOBUFS: the kernel dropped notifications; read on
            continue;
        }
        read_error = "reading devlink notifications: " + nlError(err);
        break;
    }
    if (skipped_ > 0)
        error_ = "skipped " + std::to_string(skipped_) +
                 " malformed health notification(s); first: " + first_skip_;
    if (!read_error.empty())
        error_ += (error_.empty() ? "" : "; ") + read_error;
    return std::move(pending_);
}

bool DevlinkMonitor::takeOverrun()
{
    return std::exchange(overrun_, false);
}

} // namespace nicd::prefailure
