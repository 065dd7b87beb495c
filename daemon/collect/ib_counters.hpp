// The generic IB PMA counters, ports/N/counters/*: one firmware MAD per file, so they are read
// at PmaIntervalMs, and a file that fails is backed off rather than retried every cycle.
#pragma once

#include "collect/backoff.hpp"
#include "model/inventory.hpp"
#include "model/samples.hpp"

#include <map>
#include <mutex>
#include <string>

namespace nicd {

class IbCounterReader {
public:
    // Appends one Sample per readable counter file and one ReadError per failure. Safe to call
    // for different devices from different threads.
    void read(const Device& dev, uint64_t now_usec, DeviceSamples& out);

private:
    Backoff& backoffFor(const std::string& ibdev);

    std::mutex mutex_;
    std::map<std::string, Backoff> backoff_; // per device; node-based map keeps references valid
};

} // namespace nicd
