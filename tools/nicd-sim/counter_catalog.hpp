// The counter files and ethtool statistics a simulated ConnectX device has, with the rate each
// advances at by default (per second). Names as the kernel and mlx5 driver print them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::sim {

struct CounterSpec {
    const char* name;
    double rate; // per second on an up port
};

const std::vector<CounterSpec>& ibCounters();   // ports/N/counters
const std::vector<CounterSpec>& hwCounters();   // ports/N/hw_counters
const std::vector<CounterSpec>& ethtoolStats(); // run/nicd-sim/ethtool/<netdev>

// Default rate of a counter in a directory ("counters", "hw_counters", "ethtool"); 0 if unknown.
double defaultRate(const std::string& dir, const std::string& name);

} // namespace nicd::sim
