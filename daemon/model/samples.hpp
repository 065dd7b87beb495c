// Counter values of one collection, with the monotonic time they were read at.
#pragma once

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicd {

using Sample = plugin::v1::Sample;
using SampleKind = plugin::v1::SampleKind;

// Sources of samples. Plugins may add their own names.
inline constexpr const char* kSourceIbCounters = "counters";    // ports/N/counters (IB PMA)
inline constexpr const char* kSourceHwCounters = "hw_counters"; // ports/N/hw_counters (vendor)
inline constexpr const char* kSourceEthtool = "ethtool";        // netdev statistics

// A read that failed, with enough to say which file and why.
struct ReadError {
    std::string device;
    uint32_t port = 0;
    std::string what; // file path or counter name
    std::string message;
};

struct DeviceSamples {
    std::string ibdev;
    uint64_t monotonic_usec = 0;     // CLOCK_MONOTONIC when the read finished
    uint64_t pma_monotonic_usec = 0; // when the "counters" samples were read (they are carried
                                     // between PMA reads, so rates must use this time)
    std::vector<Sample> samples;
    std::vector<ReadError> errors;
    std::string unresponsive; // set when a read through the driver did not return in time
};

} // namespace nicd
