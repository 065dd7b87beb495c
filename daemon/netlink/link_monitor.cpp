#include "netlink/link_monitor.hpp"

#include "log/log.hpp"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace nicd::netlink {

LinkMonitor::LinkMonitor(EventLoop& loop, Handler handler) : handler_(std::move(handler))
{
    fd_ = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd_ < 0)
        throw std::runtime_error(std::string("rtnetlink socket: ") + std::strerror(errno));
    int rcvbuf = 4 * 1024 * 1024;
    setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_nl addr{};
    addr.nl_family = AF_NETLINK;
    addr.nl_groups = RTMGRP_LINK;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) {
        int err = errno;
        close(fd_);
        throw std::runtime_error(std::string("rtnetlink bind RTMGRP_LINK: ") + std::strerror(err));
    }
    sd_event_source* s = nullptr;
    int r = sd_event_add_io(loop.get(), &s, fd_, EPOLLIN, &LinkMonitor::onReadable, this);
    if (r < 0) {
        close(fd_);
        throw std::runtime_error(std::string("sd_event_add_io: ") + std::strerror(-r));
    }
    source_ = EventSource(s);
    requestDump();
}

LinkMonitor::~LinkMonitor()
{
    source_ = EventSource();
    if (fd_ >= 0)
        close(fd_);
}

void LinkMonitor::requestDump()
{
    struct {
        nlmsghdr hdr;
        rtgenmsg gen;
    } req{};
    req.hdr.nlmsg_len = NLMSG_LENGTH(sizeof(rtgenmsg));
    req.hdr.nlmsg_type = RTM_GETLINK;
    req.hdr.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.hdr.nlmsg_seq = seq_++;
    req.gen.rtgen_family = AF_UNSPEC;
    if (send(fd_, &req, req.hdr.nlmsg_len, 0) < 0)
        log::warn({}, "rtnetlink link dump request failed: {}; relying on events",
                  std::strerror(errno));
}

int LinkMonitor::onReadable(sd_event_source*, int fd, uint32_t, void* self)
{
    auto* m = static_cast<LinkMonitor*>(self);
    std::array<uint8_t, 65536> buf{};
    for (;;) {
        ssize_t n = recv(fd, buf.data(), buf.size(), 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ENOBUFS) {
                // Events were lost: resynchronise from a fresh dump.
                log::warn({}, "rtnetlink receive buffer overrun; re-reading every link");
                m->requestDump();
                continue;
            }
            break; // EAGAIN: drained
        }
        for (const auto& ev : parseLinkMessages({buf.data(), static_cast<size_t>(n)})) {
            try {
                m->handler_(ev);
            } catch (const std::exception& e) {
                log::warn({.netdev = ev.name}, "failed handling link event for {}: {}, ignoring",
                          ev.name, e.what());
            }
        }
    }
    return 0;
}

} // namespace nicd::netlink
