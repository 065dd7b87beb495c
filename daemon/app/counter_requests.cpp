#include "app/counter_requests.hpp"

#include "dbus/object_values.hpp"

#include <algorithm>
#include <utility>

namespace nicd::app {

namespace {

const DeviceSamples* samplesOf(const Snapshot& snap, const std::string& device)
{
    for (const auto& ds : snap.samples)
        if (ds.ibdev == device)
            return &ds;
    return nullptr;
}

// Answers `reply` from `snap`; false when the snapshot does not have the port.
bool answerFrom(const Snapshot& snap, const std::string& device, uint32_t port,
                dbus::CountersReply& reply)
{
    auto counters = dbus::countersOf(snap, device, port);
    if (!counters)
        return false;
    reply.succeed(*counters);
    return true;
}

} // namespace

std::set<std::string> CounterRequests::wholeDevices(uint64_t now_usec)
{
    std::erase_if(whole_until_, [&](const auto& d) { return d.second <= now_usec; });
    std::set<std::string> out;
    for (const auto& [device, _] : whole_until_)
        out.insert(device);
    for (const auto& w : waiting_)
        out.insert(w.device);
    return out;
}

bool CounterRequests::ask(const Snapshot* last, const std::string& device, uint32_t port,
                          dbus::CountersReply&& reply, uint64_t now_usec)
{
    whole_until_[device] = now_usec + kWholeUsec;
    if (last) {
        auto counters = dbus::countersOf(*last, device, port);
        if (!counters) {
            reply.fail("NotFound",
                       device + " port " + std::to_string(port) + " is not in the last cycle");
            return false;
        }
        const auto* ds = samplesOf(*last, device);
        if (!ds || ds->all_statistics) {
            reply.succeed(*counters);
            return false;
        }
    }
    if (waiting_.size() >= kMaxWaiting) {
        reply.fail("Busy", std::to_string(kMaxWaiting) +
                               " GetCounters calls are waiting for a cycle already; try again");
        return false;
    }
    waiting_.push_back({device, port, std::move(reply), 0});
    return true;
}

void CounterRequests::published(const Snapshot& snap)
{
    std::erase_if(waiting_, [&](Waiting& w) {
        const auto* ds = samplesOf(snap, w.device);
        if (ds && !ds->all_statistics && ++w.cycles < 2)
            return false;
        if (!answerFrom(snap, w.device, w.port, w.reply))
            w.reply.fail("NotFound", w.device + " port " + std::to_string(w.port) +
                                         " is not in the last cycle");
        return true;
    });
}

} // namespace nicd::app
