// The counters a simulated ConnectX-7 has, named as the kernel and the mlx5 driver print them,
// with the rate each advances at on a busy up port and how it overflows in hardware.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace nicd::sim {

enum class Overflow { Saturate, Wrap };

inline constexpr double kCorrectedBitsPerSecond = 4000; // rx_corrected_bits_phy, healthy

struct CounterSpec {
    const char* name;
    double rate;       // per second on an up port at full load (0: errors, events)
    unsigned bits;     // hardware width
    Overflow overflow; // IB PMA counters saturate; mlx5 Q counters (32-bit) wrap
    uint64_t initial = 0;
    bool setting = false; // not a counter (hw_counters/lifespan): never advanced nor reset
};

// ports/N/counters (the PMA extended table mlx5 registers).
const std::vector<CounterSpec>& ibCounters();
// ports/N/hw_counters; RoCE ports also have the congestion (DCQCN) group.
const std::vector<CounterSpec>& hwCounters(bool roce);
// run/nicd-sim/ethtool/<netdev>: a PF netdev has the physical-port (_phy, per-priority) stats,
// a VF netdev only the vport and software ones.
const std::vector<CounterSpec>& ethtoolStats(bool physical_function);

// The spec of a counter in a group ("counters", "hw_counters", "ethtool"); an unknown name is a
// 64-bit saturating counter with rate 0.
CounterSpec counterSpec(const std::string& group, const std::string& name);

// v + inc, overflowing as a counter of `bits` does (bits >= 64: saturates at 2^64 - 1).
uint64_t advanceCounter(uint64_t v, uint64_t inc, unsigned bits, Overflow overflow);

} // namespace nicd::sim
