// A non-blocking rtnetlink socket joined to one multicast group and watched by the sd-event loop:
// what the link and DCB monitors share. Throws std::runtime_error naming the step that failed.
#pragma once

#include "loop/event_loop.hpp"

#include <cstddef>
#include <string>

namespace nicd::netlink {

class RtnlSubscription {
public:
    // `group`: an RTNLGRP_* number; `rcvbuf`: SO_RCVBUF, 0 for the default.
    RtnlSubscription(EventLoop& loop, int group, const std::string& name, size_t rcvbuf,
                     sd_event_io_handler_t on_readable, void* userdata);
    ~RtnlSubscription();
    RtnlSubscription(const RtnlSubscription&) = delete;
    RtnlSubscription& operator=(const RtnlSubscription&) = delete;

    int fd() const { return fd_; }

private:
    int fd_ = -1;
    EventSource source_;
};

} // namespace nicd::netlink
