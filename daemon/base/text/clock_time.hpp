// A moment in a condition's message, as a technician reads it beside the node's clock: "when it
// clears" and "when it turns fatal" ("14:32:05 UTC"). UTC, as nicctl's times: a fleet spans zones.
#pragma once

#include <string>

namespace nicd {

// "14:32:05 UTC" for `realtime_seconds` since the epoch; "?" when it cannot be shown.
std::string utcClock(double realtime_seconds);

} // namespace nicd
