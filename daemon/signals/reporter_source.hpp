// devlink health reporters of every device: one DEVLINK_CMD_HEALTH_REPORTER_GET dump per read
// (under --root, the simulator's `devlink -j health show` capture), on the slow interval.
// Between reads, the devlink "config" multicast group tells at once of a reporter changing state
// (signals/devlink_netlink.hpp DevlinkMonitor; the app asks for an early read).
#pragma once

#include "config/host_paths.hpp"
#include "signals/keyed_source.hpp"

#include <atomic>
#include <memory>
#include <vector>

namespace nicd::signals {

class DevlinkNetlink;

class ReporterSource : public KeyedSource<std::vector<HealthReporter>> {
public:
    ReporterSource(HostPaths paths, SourceTiming timing);

    // The next collection cycle reads the reporters whatever the interval (a notification came).
    // Any thread.
    std::shared_ptr<std::atomic<bool>> readSoonFlag() const { return soon_; }
    std::chrono::milliseconds interval() const override;

protected:
    std::vector<std::string> keysOf(const Inventory& inventory) override;
    ReadOne reader() override;
    void place(const std::map<std::string, std::vector<HealthReporter>>& values,
               Snapshot& snap) override;

private:
    HostPaths paths_;
    std::shared_ptr<DevlinkNetlink> netlink_;
    std::shared_ptr<std::atomic<bool>> soon_ = std::make_shared<std::atomic<bool>>(false);
    std::chrono::milliseconds interval_;
};

} // namespace nicd::signals
