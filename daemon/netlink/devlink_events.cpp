#include "netlink/devlink_events.hpp"

#include "log/log.hpp"

#include <sys/epoll.h>

#include <cstring>
#include <stdexcept>

namespace nicd::netlink {

DevlinkEvents::DevlinkEvents(loop::EventLoop& loop, Handler handler) : handler_(std::move(handler))
{
    if (!monitor_.open())
        throw std::runtime_error(monitor_.error());
    sd_event_source* s = nullptr;
    int r =
        sd_event_add_io(loop.get(), &s, monitor_.fd(), EPOLLIN, &DevlinkEvents::onReadable, this);
    if (r < 0)
        throw std::runtime_error("sd_event_add_io: " + std::string(strerror(-r)));
    source_ = loop::EventSource(s);
}

DevlinkEvents::~DevlinkEvents() = default;

int DevlinkEvents::onReadable(sd_event_source*, int, uint32_t, void* self)
{
    auto* e = static_cast<DevlinkEvents*>(self);
    auto reporters = e->monitor_.drain();
    if (!e->monitor_.error().empty())
        log::warn({}, "devlink notifications: {}", e->monitor_.error());
    bool overrun = e->monitor_.takeOverrun();
    if (overrun)
        log::warn({}, "devlink notifications lost; reading every health reporter again");
    if (!reporters.empty() || overrun)
        e->handler_(std::move(reporters), overrun);
    return 0;
}

} // namespace nicd::netlink
