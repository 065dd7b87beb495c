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

namespace nicd {

class VerbsProber {
public:
    // Empty when the device opened and answered in time (or rdma-core does not list it);
    // otherwise why it is unresponsive, for the driver_unresponsive condition.
    std::string check(const std::string& ibdev, std::chrono::milliseconds timeout);
    // Between probes: what the last check() said, or that its probe is still out. Empty once a
    // probe left behind has returned (the next check() says how the device is).
    std::string lastProblem(const std::string& ibdev) const;

private:
    std::string probe(const std::string& ibdev, std::chrono::milliseconds timeout);

    DeadlineRunner runner_;
    std::map<std::string, std::shared_ptr<std::atomic<bool>>> stuck_; // ibdev -> returned yet?
    std::map<std::string, std::string> last_;                         // ibdev -> last check()
};

} // namespace nicd
