// The two clocks the daemon reads, in seconds: CLOCK_MONOTONIC for rates, windows and hold
// times (valid within one boot), CLOCK_REALTIME for what events and the textfile show.
#pragma once

#include <ctime>

namespace nicd::loop {

inline double monotonicSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

inline double realtimeSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

} // namespace nicd::loop
