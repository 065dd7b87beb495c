#include "netlink/dcb_monitor.hpp"

#include "log/log.hpp"
#include "netlink/dcb_notification.hpp"

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

DcbMonitor::DcbMonitor(EventLoop& loop, Handler handler) : handler_(std::move(handler))
{
    fd_ = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd_ < 0)
        throw std::runtime_error(std::string("rtnetlink socket: ") + std::strerror(errno));
    sockaddr_nl addr{};
    addr.nl_family = AF_NETLINK;
    int group = RTNLGRP_DCB;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 ||
        setsockopt(fd_, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof group) < 0) {
        int err = errno;
        close(fd_);
        throw std::runtime_error(std::string("rtnetlink RTNLGRP_DCB: ") + std::strerror(err));
    }
    sd_event_source* s = nullptr;
    int r = sd_event_add_io(loop.get(), &s, fd_, EPOLLIN, &DcbMonitor::onReadable, this);
    if (r < 0) {
        close(fd_);
        throw std::runtime_error(std::string("sd_event_add_io: ") + std::strerror(-r));
    }
    source_ = EventSource(s);
}

DcbMonitor::~DcbMonitor()
{
    source_ = EventSource();
    if (fd_ >= 0)
        close(fd_);
}

int DcbMonitor::onReadable(sd_event_source*, int fd, uint32_t, void* self)
{
    auto* m = static_cast<DcbMonitor*>(self);
    std::array<uint8_t, 16384> buf{};
    for (;;) {
        ssize_t n = recv(fd, buf.data(), buf.size(), 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ENOBUFS) {
                log::warn({}, "rtnetlink DCB notifications lost; verifying every port");
                m->handler_({});
                continue;
            }
            return 0; // EAGAIN: drained
        }
        for (const auto& netdev :
             parseDcbNotifications(std::span<const uint8_t>(buf.data(), static_cast<size_t>(n))))
            m->handler_(netdev);
    }
}

} // namespace nicd::netlink
