// The counters a simulated ConnectX-7 has, named as the kernel and the mlx5 driver print them,
// with the rate each advances at on a busy up port and how it overflows in hardware.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace nicd::sim {

enum class Overflow { Saturate, Wrap };

// The overflow column's short names in the catalogs' tables (`using namespace overflow_column;`).
namespace overflow_column {
inline constexpr Overflow S = Overflow::Saturate;
inline constexpr Overflow W = Overflow::Wrap;
} // namespace overflow_column

inline constexpr double kCorrectedBitsPerSecond = 4000; // rx_corrected_bits_phy, healthy
// A busy port at full load: ~100 Gb/s of RDMA each way (12.5e9 B/s) in ~4 KiB packets, plus a
// little kernel-stack traffic on the netdev.
inline constexpr double kRdmaBytes = 1.25e10;
inline constexpr double kRdmaPackets = 3.05e6;
inline constexpr double kStackBytes = 1.0e6;
inline constexpr double kStackPackets = 1.0e3;

struct CounterSpec {
    std::string name;
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
// run/nicd-sim/ethtool/<netdev>: ethtool_catalog.hpp.

// A counter's spec by vendor: counterSpec (vendor_catalog.hpp).

// A driver's ethtool statistics for a kind of function and a channel count, made by `build` on
// first use and kept for the process (thousands of specs, looked up on every tick).
using EthtoolBuilder = std::vector<CounterSpec> (*)(bool physical_function, unsigned channels);
const std::vector<CounterSpec>& keptCatalog(EthtoolBuilder build, bool physical_function,
                                            unsigned channels);
// The specs of `catalog` by name, leaving out those `per_channel` says are a channel's.
using NameIndex = std::unordered_map<std::string_view, const CounterSpec*>;
NameIndex indexByName(const std::vector<CounterSpec>& catalog,
                      bool (*per_channel)(std::string_view name));

// v + inc, overflowing as a counter of `bits` does (bits >= 64: saturates at 2^64 - 1).
uint64_t advanceCounter(uint64_t v, uint64_t inc, unsigned bits, Overflow overflow);

} // namespace nicd::sim
