// devlink health reporters of every device: one DEVLINK_CMD_HEALTH_REPORTER_GET dump per read
// (under --root, the simulator's `devlink -j health show` capture), on the slow interval.
// Between reads, the devlink "config" multicast group tells at once of a reporter changing state
// (netlink/devlink_events.hpp); the app then sets the source's readSoonFlag() for a full dump.
#pragma once

#include "config/host_paths.hpp"
#include "prefailure/keyed_source.hpp"

#include <memory>
#include <vector>

namespace nicd::prefailure {

using ReporterSource = KeyedSource<std::vector<HealthReporter>>;

std::unique_ptr<ReporterSource> makeReporterSource(const HostPaths& paths, SourceTiming timing);

} // namespace nicd::prefailure
