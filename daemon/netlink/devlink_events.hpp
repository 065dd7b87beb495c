// devlink health notifications on the loop: a reporter that goes to error (or is recovered) is
// announced on the devlink "config" multicast group at once; the handler gets the reporters the
// notifications carried, or `overrun` when some were lost (then read every reporter again).
// Real root only: a simulated node has no devlink.
#pragma once

#include "loop/event_loop.hpp"
#include "model/prefailure_readings.hpp"
#include "prefailure/devlink_netlink.hpp"

#include <functional>
#include <vector>

namespace nicd::netlink {

class DevlinkEvents {
public:
    using Handler = std::function<void(std::vector<HealthReporter> reporters, bool overrun)>;

    // Throws std::runtime_error saying why when devlink cannot be watched.
    DevlinkEvents(loop::EventLoop& loop, Handler handler);
    ~DevlinkEvents();
    DevlinkEvents(const DevlinkEvents&) = delete;
    DevlinkEvents& operator=(const DevlinkEvents&) = delete;

private:
    static int onReadable(sd_event_source*, int fd, uint32_t, void* self);

    Handler handler_;
    prefailure::DevlinkMonitor monitor_;
    loop::EventSource source_;
};

} // namespace nicd::netlink
