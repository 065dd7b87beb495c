// A clock's time in microseconds, for the soak's tools (journal_flood, notify_listen).
#pragma once

#include <ctime>

namespace nicd::test_tools {

inline unsigned long long usecNow(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<unsigned long long>(ts.tv_sec) * 1000000ULL +
           static_cast<unsigned long long>(ts.tv_nsec) / 1000ULL;
}

} // namespace nicd::test_tools
