#include "collect/verbs_prober.hpp"

#include "collect/verbs_probe.hpp"
#include "log/log.hpp"

#include <fmt/format.h>

namespace nicd {

std::string VerbsProber::check(const std::string& ibdev, std::chrono::milliseconds timeout)
{
    if (auto stuck = stuck_.find(ibdev); stuck != stuck_.end()) {
        if (!stuck->second->load())
            return "a verbs probe of " + ibdev + " (ibv_open_device) has not returned yet";
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
