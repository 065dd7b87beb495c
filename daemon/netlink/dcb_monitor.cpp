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

DcbMonitor::DcbMonitor(loop::EventLoop& loop, Handler handler)
    : handler_(std::move(handler)),
      socket_(loop, RTNLGRP_DCB, "RTNLGRP_DCB", 0, &DcbMonitor::onReadable, this)
{
}

DcbMonitor::~DcbMonitor() = default;

int DcbMonitor::onReadable(sd_event_source*, int fd, uint32_t, void* self)
{
    auto* m = static_cast<DcbMonitor*>(self);
    std::array<uint8_t, 16384> buf{};
    drainRtnl(
        fd, buf,
        [m](std::span<const uint8_t> data) {
            for (const auto& netdev : parseDcbNotifications(data))
                m->handler_(netdev);
        },
        [m] {
            log::warn({}, "rtnetlink DCB notifications lost; verifying every port");
            m->handler_({});
        });
    return 0;
}

} // namespace nicd::netlink
