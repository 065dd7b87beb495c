#include "collect/verbs_lane.hpp"

#include "collect/verbs_probe.hpp"
#include "log/log.hpp"

#include <fmt/format.h>

namespace nicd::collect {

namespace {

std::string stillOut(const std::string& ibdev)
{
    return "a verbs probe of " + ibdev + " (ibv_open_device) has not returned yet";
}

} // namespace

std::string VerbsLane::lastProblem(const std::string& ibdev) const
{
    if (auto stuck = stuck_.find(ibdev); stuck != stuck_.end())
        return stuck->second->load() ? std::string() : stillOut(ibdev);
    auto last = last_.find(ibdev);
    return last == last_.end() ? std::string() : last->second;
}

// Logged when what the probe says changes, not at every probe of a device that stays broken.
std::string VerbsLane::check(const std::string& ibdev, std::chrono::milliseconds timeout)
{
    auto& last = last_[ibdev];
    auto now = probe(ibdev, timeout);
    if (now != last && !now.empty())
        log::error({.device = ibdev}, "{}: verbs probe: {}", ibdev, now);
    else if (now != last)
        log::info({.device = ibdev}, "{}: the verbs probe answers again", ibdev);
    last = now;
    return last;
}

std::string VerbsLane::probe(const std::string& ibdev, std::chrono::milliseconds timeout)
{
    if (auto stuck = stuck_.find(ibdev); stuck != stuck_.end()) {
        if (!stuck->second->load())
            return stillOut(ibdev);
        stuck_.erase(stuck);
    }
    auto result = std::make_shared<VerbsProbeResult>();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    bool in_time =
        runner_.run([ibdev, result] { *result = probeVerbsDevice(ibdev); }, timeout, finished);
    if (!in_time) {
        stuck_[ibdev] = finished;
        return fmt::format("the verbs probe of {} (ibv_open_device, ibv_query_port) did not "
                           "return within {} ms",
                           ibdev, timeout.count());
    }
    mtus_[ibdev] = result->port_active_mtus;
    if (auto& said = refused_[ibdev]; said != result->refused && !result->refused.empty())
        log::warn({.device = ibdev},
                  "{}: verbs probe not run: {} (nicd may not open the device; in a container it "
                  "needs it from a device plugin); not judged as a fault",
                  ibdev, result->refused);
    refused_[ibdev] = result->refused;
    return result->error; // sysfs may still read, but NCCL could not use the device
}

} // namespace nicd::collect
