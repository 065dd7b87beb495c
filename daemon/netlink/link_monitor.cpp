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

LinkMonitor::LinkMonitor(loop::EventLoop& loop, Handler handler)
    : handler_(std::move(handler)),
      socket_(loop, RTNLGRP_LINK, "RTNLGRP_LINK", 4 * 1024 * 1024, &LinkMonitor::onReadable, this),
      fd_(socket_.fd())
{
    requestDump();
}

LinkMonitor::~LinkMonitor() = default;

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
    drainRtnl(
        fd, buf,
        [m](std::span<const uint8_t> data) {
            for (const auto& ev : parseLinkMessages(data)) {
                try {
                    m->handler_(ev);
                } catch (const std::exception& e) {
                    log::warn({.netdev = ev.name},
                              "failed handling link event for {}: {}, ignoring", ev.name, e.what());
                }
            }
        },
        [m] {
            // Events were lost: resynchronise from a fresh dump.
            log::warn({}, "rtnetlink receive buffer overrun; re-reading every link");
            m->requestDump();
        });
    return 0;
}

} // namespace nicd::netlink
