#include "text/clock_time.hpp"

#include <cmath>
#include <ctime>

namespace nicd {

std::string utcClock(double realtime_seconds)
{
    if (!std::isfinite(realtime_seconds) || realtime_seconds < 0 || realtime_seconds > 1e11)
        return "?";
    const auto t = static_cast<std::time_t>(realtime_seconds);
    std::tm utc{};
    char buf[32];
    if (::gmtime_r(&t, &utc) == nullptr ||
        std::strftime(buf, sizeof buf, "%H:%M:%S UTC", &utc) == 0)
        return "?";
    return buf;
}

} // namespace nicd
