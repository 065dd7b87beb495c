// A non-blocking rtnetlink socket joined to one multicast group and watched by the sd-event loop:
// what the link and DCB monitors share. Throws std::runtime_error naming the step that failed.
#pragma once

#include "loop/event_loop.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace nicd::netlink {

class RtnlSubscription {
public:
    // `group`: an RTNLGRP_* number; `rcvbuf`: SO_RCVBUF, 0 for the default.
    RtnlSubscription(loop::EventLoop& loop, int group, const std::string& name, size_t rcvbuf,
                     sd_event_io_handler_t on_readable, void* userdata);
    ~RtnlSubscription();
    RtnlSubscription(const RtnlSubscription&) = delete;
    RtnlSubscription& operator=(const RtnlSubscription&) = delete;

    int fd() const { return fd_; }

private:
    int fd_ = -1;
    loop::EventSource source_;
};

// Reads every datagram waiting on a non-blocking rtnetlink `fd` into `buffer` and hands each to
// `on_data`; `on_overrun` is called when the kernel dropped messages (ENOBUFS) so the caller can
// resynchronise. Returns once the socket is drained.
void drainRtnl(int fd, std::span<uint8_t> buffer,
               const std::function<void(std::span<const uint8_t>)>& on_data,
               const std::function<void()>& on_overrun);

} // namespace nicd::netlink
