// Netdev link changes from rtnetlink (RTNLGRP_LINK) on the sd-event loop, with an initial dump,
// so the model learns of a link going down at once instead of at the next poll.
#pragma once

#include "loop/event_loop.hpp"
#include "netlink/link_message.hpp"
#include "netlink/rtnl_subscription.hpp"

#include <functional>

namespace nicd::netlink {

class LinkMonitor {
public:
    using Handler = std::function<void(const LinkEvent&)>;

    // Opens the socket, subscribes, requests a dump of every link; throws on failure.
    LinkMonitor(loop::EventLoop& loop, Handler handler);
    ~LinkMonitor();
    LinkMonitor(const LinkMonitor&) = delete;
    LinkMonitor& operator=(const LinkMonitor&) = delete;

private:
    static int onReadable(sd_event_source*, int fd, uint32_t, void* self);
    void requestDump();

    Handler handler_;
    RtnlSubscription socket_;
    int fd_;
    uint32_t seq_ = 1;
};

} // namespace nicd::netlink
