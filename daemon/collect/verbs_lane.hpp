// The verbs probe against the driver deadline, as the collector runs it on the real root: one
// probe per device at a time on a lane of its own. A probe that does not return in time is left
// behind, the device is unresponsive, and it is not probed again until that probe returns.
#pragma once

#include "collect/deadline.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nicd::collect {

class VerbsLane {
public:
    // Empty when the device opened and answered in time (or rdma-core does not list it, or nicd
    // may not open it: said once in the log); otherwise why it is unresponsive, for the
    // driver_unresponsive condition.
    std::string check(const std::string& ibdev, std::chrono::milliseconds timeout);
    // Between probes: what the last check() said, or that its probe is still out. Empty once a
    // probe left behind has returned (the next check() says how the device is).
    std::string lastProblem(const std::string& ibdev) const;
    // The active MTU of each port (bytes, from port 1; 0: unknown) as the last probe that
    // returned in time saw it; nullptr when none did.
    const std::vector<uint32_t>* activeMtus(const std::string& ibdev) const
    {
        auto it = mtus_.find(ibdev);
        return it == mtus_.end() ? nullptr : &it->second;
    }

private:
    std::string probe(const std::string& ibdev, std::chrono::milliseconds timeout);

    DeadlineRunner runner_;
    std::map<std::string, std::shared_ptr<std::atomic<bool>>> stuck_; // ibdev -> returned yet?
    std::map<std::string, std::string> last_;                         // ibdev -> last check()
    std::map<std::string, std::vector<uint32_t>> mtus_;               // ibdev -> active MTUs
    std::map<std::string, std::string> refused_; // ibdev -> why its open was refused, as logged
};

} // namespace nicd::collect
