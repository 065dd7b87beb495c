// mlx5_core's kernel lines (driver_events.hpp), as real nodes' logs hold them.
#include "driver_events.hpp"

namespace nicd::sim {

const std::vector<DriverEvent>& mlx5DriverEvents()
{
    using enum DriverLinePrefix;
    static const std::vector<DriverEvent> v{
        {"fw-fatal", {{Function, "poll_health:694:(pid 0): Fatal error 1 detected"}}},
        {"cmd-timeout",
         {{Function, "wait_func:1132:(pid 4242): QUERY_VPORT_COUNTER(0x770) timeout. "
                     "Will cause a leak of a command resource"}}},
        {"tx-timeout", {{Netdev, "TX timeout detected"}}},
    };
    return v;
}

} // namespace nicd::sim
