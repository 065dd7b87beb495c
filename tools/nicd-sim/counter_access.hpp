// Finding one counter of a simulated device by name and reading or changing it, wherever it
// lives: a counters/ or hw_counters/ file, an ethtool statistic, or (while the device is stalled)
// the value the simulator keeps for a counters/ file that is now a FIFO.
#pragma once

#include "counter_catalog.hpp"
#include "node_state.hpp"

#include <string>

namespace nicd::sim {

struct CounterRef {
    std::string dev;
    uint32_t port = 1;
    std::string group; // counters, hw_counters or ethtool:<netdev>
    std::string name;
    fs::path file;      // the sysfs file or the ethtool statistics file
    std::string netdev; // ethtool only
    CounterSpec spec;
    std::string key() const { return counterKey(dev, port, group, name); }
};

// Looks in ports/<port>/counters, ports/<port>/hw_counters, then the device's netdevs' ethtool
// statistics (port 0 means 1). Throws SimError naming the device, port and counter.
CounterRef locateCounter(const fs::path& root, NodeState& st, const std::string& dev,
                         const std::string& counter, uint32_t port);

uint64_t readCounter(const fs::path& root, const NodeState& st, const CounterRef& c);
void writeCounter(const fs::path& root, NodeState& st, const CounterRef& c, uint64_t value);

// How `key` overflows now: its hardware behaviour unless a wrap injection made it wrap at 2^32.
uint64_t advanceKeyed(const NodeState& st, const std::string& key, const CounterSpec& spec,
                      uint64_t value, uint64_t inc);

// The stalled-values key of a counters/ file: its path relative to DIR.
std::string stalledKey(const fs::path& root, const fs::path& file);

} // namespace nicd::sim
