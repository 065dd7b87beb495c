#include "collect/verbs_prober.hpp"

#include "collect/verbs_probe.hpp"
#include "log/log.hpp"

#include <fmt/format.h>

namespace nicd {

namespace {

std::string stillOut(const std::string& ibdev)
{
    return "a verbs probe of " + ibdev + " (ibv_open_device) has not returned yet";
}

} // namespace

std::string VerbsProber::lastProblem(const std::string& ibdev) const
{
    if (auto stuck = stuck_.find(ibdev); stuck != stuck_.end())
        return stuck->second->load() ? std::string() : stillOut(ibdev);
    auto last = last_.find(ibdev);
    return last == last_.end() ? std::string() : last->second;
}

std::string VerbsProber::check(const std::string& ibdev, std::chrono::milliseconds timeout)
{
    auto& last = last_[ibdev];
    last = probe(ibdev, timeout);
    return last;
}

std::string VerbsProber::probe(const std::string& ibdev, std::chrono::milliseconds timeout)
{
    if (auto stuck = stuck_.find(ibdev); stuck != stuck_.end()) {
        if (!stuck->second->load())
            return stillOut(ibdev);
        stuck_.erase(stuck);
        log::info({.device = ibdev}, "{}: the verbs probe returned; probing again", ibdev);
    }
    auto result = std::make_shared<VerbsProbeResult>();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    bool in_time =
        runner_.run([ibdev, result] { *result = probeVerbsDevice(ibdev); }, timeout, finished);
    if (!in_time) {
        stuck_[ibdev] = finished;
        auto why = fmt::format("the verbs probe of {} (ibv_open_device, ibv_query_port) did not "
                               "return within {} ms",
                               ibdev, timeout.count());
        log::error({.device = ibdev}, "{}", why);
        return why;
    }
    if (!result->error.empty()) // sysfs may still read, but NCCL could not use the device
        log::error({.device = ibdev}, "{}: verbs probe failed: {}", ibdev, result->error);
    return result->error;
}

} // namespace nicd
