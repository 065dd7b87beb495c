// Port.GetCounters answers every statistic of a port, but a cycle keeps the statistics nothing
// reads each cycle (a netdev's per-channel ones) only for the devices someone asked about in the
// last minute (collect/statistics_filter.hpp). The calls wait here for the cycle that keeps their
// device whole; the daemon starts one at once. Loop thread.
#pragma once

#include "dbus/qos_reply.hpp"
#include "model/snapshot.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nicd::app {

class CounterRequests {
public:
    // How long a device stays whole after the last call for it: a user running `nicctl counters`
    // again, or a dashboard polling, is answered from the last cycle.
    static constexpr uint64_t kWholeUsec = 60'000'000;
    // Calls that may wait at once (a caller that never reads its answers holds no more).
    static constexpr size_t kMaxWaiting = 64;

    // The devices the next cycle keeps whole.
    std::set<std::string> wholeDevices(uint64_t now_usec);
    // A call for `device` port `port`: answered now when `last` kept the device whole (or does
    // not have it), else kept until a cycle does. True when it waits: a cycle must start (or run
    // again after the one under way, which may have started without the device).
    bool ask(const Snapshot* last, const std::string& device, uint32_t port,
             dbus::CountersReply&& reply, uint64_t now_usec);
    // A cycle was published: the waiting calls its device was kept whole in are answered; a call
    // whose device is gone, or that waited for two cycles (a plugin that keeps failing), is
    // answered with what there is.
    void published(const Snapshot& snap);

private:
    struct Waiting {
        std::string device;
        uint32_t port = 0;
        dbus::CountersReply reply;
        int cycles = 0;
    };
    std::map<std::string, uint64_t> whole_until_;
    std::vector<Waiting> waiting_;
};

} // namespace nicd::app
