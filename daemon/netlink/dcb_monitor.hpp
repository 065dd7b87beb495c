// DCB changes from rtnetlink (RTNLGRP_DCB) on the sd-event loop: another tool (or nicd) changed a
// netdev's DCB configuration, so its QoS is verified again.
#pragma once

#include "loop/event_loop.hpp"
#include "netlink/rtnl_subscription.hpp"

#include <functional>
#include <string>

namespace nicd::netlink {

class DcbMonitor {
public:
    using Handler = std::function<void(const std::string& netdev)>;

    // Opens the socket and joins RTNLGRP_DCB; throws on failure.
    DcbMonitor(loop::EventLoop& loop, Handler handler);
    ~DcbMonitor();
    DcbMonitor(const DcbMonitor&) = delete;
    DcbMonitor& operator=(const DcbMonitor&) = delete;

private:
    static int onReadable(sd_event_source*, int fd, uint32_t, void* self);

    Handler handler_;
    RtnlSubscription socket_;
};

} // namespace nicd::netlink
