// nicd-sim: builds and drives a simulated GPU node under a directory, in the real kernel's
// layout (/sys/devices/... with /sys/class/* symlinks, /proc/net/route, /run, /var), so nicd runs
// on it unchanged with --root DIR. Every call takes the node's lock; errors throw SimError with a
// message naming the device, port or counter.
//
// Files owned by the simulator besides the kernel-shaped tree:
//   DIR/run/nicd-sim/state.json        devices, counter rates, removed/stalled devices
//   DIR/run/nicd-sim/ethtool/<netdev>  `ethtool -S` text ("NIC statistics:" then "     name:
//   value") DIR/run/nicd-sim/lock              flock(2) for read-modify-write
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace nicd::sim {

namespace fs = std::filesystem;

struct SimError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CreateOptions {
    int devices = 0;           // 0: the default mixed node; N: N RoCE PFs, all up
    bool driver_ready = false; // create /run/mellanox/drivers/.driver-ready
    std::string boot_id = "5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    bool force = false; // replace an existing node
};

void create(const fs::path& root, const CreateOptions& options);

// Advances every counter as if `seconds` passed.
void tick(const fs::path& root, double seconds);

void linkDown(const fs::path& root, const std::string& dev, uint32_t port = 0); // 0 = every port
void linkUp(const fs::path& root, const std::string& dev, uint32_t port = 0);
// Adds n to a counter found by name in counters/, hw_counters/ or the device's ethtool stats.
void addToCounter(const fs::path& root, const std::string& dev, const std::string& counter,
                  uint64_t n, uint32_t port = 0);
// Makes a counter climb by `per_second` on every tick (0 stops it).
void setRate(const fs::path& root, const std::string& dev, const std::string& counter,
             double per_second, uint32_t port = 0);
// Sets a counter just below 2^32 and makes it wrap at 32 bits from now on.
void wrap(const fs::path& root, const std::string& dev, const std::string& counter,
          uint32_t port = 0);
void resetCounters(const fs::path& root, const std::string& dev);
void remove(const fs::path& root, const std::string& dev);
void restore(const fs::path& root, const std::string& dev);
// Replaces the device's ports/*/counters/* files with FIFOs: reads block like wedged firmware.
void stall(const fs::path& root, const std::string& dev);
void unstall(const fs::path& root, const std::string& dev);

// One line per device: name, role, port states, netdevs.
std::vector<std::string> list(const fs::path& root);

// Value of a counter file or ethtool stat, for tests and the demo.
uint64_t counterValue(const fs::path& root, const std::string& dev, const std::string& counter,
                      uint32_t port = 1);

} // namespace nicd::sim
