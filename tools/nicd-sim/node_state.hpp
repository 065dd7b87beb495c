// The simulator's own bookkeeping (state.json) and the node lock. Internal to nicd-sim.
#pragma once

#include "sim.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace nicd::sim {

struct SimDevice {
    std::string name;
    std::string role;                         // pf, vf, lag, ib
    std::string ib_dir;                       // relative to root: sys/devices/.../infiniband/<name>
    std::vector<std::string> netdevs;         // port 1's netdevs
    std::vector<std::string> ethtool_netdevs; // netdevs with simulated ethtool stats
    bool removed = false;
    bool stalled = false;
};

struct NodeState {
    std::map<std::string, SimDevice> devices;
    std::map<std::string, double> rates; // counter key -> per second (overrides defaults)
    std::map<std::string, bool> width32; // counter key -> wraps at 2^32
    std::map<std::string, std::map<std::string, uint64_t>> stalled_values; // dev -> file -> value

    static NodeState load(const fs::path& root);
    void save(const fs::path& root) const;
    SimDevice& device(const std::string& name);
};

// Holds flock(DIR/run/nicd-sim/lock) for its lifetime.
class NodeLock {
public:
    explicit NodeLock(const fs::path& root);
    ~NodeLock();
    NodeLock(const NodeLock&) = delete;
    NodeLock& operator=(const NodeLock&) = delete;

private:
    int fd_ = -1;
};

// Small file helpers shared by the simulator's parts.
void writeText(const fs::path& p, const std::string& text);
std::string readText(const fs::path& p);
uint64_t readNumber(const fs::path& p);
void writeNumber(const fs::path& p, uint64_t v);
void relativeSymlink(const fs::path& target, const fs::path& link);

// ethtool -S text <-> ordered name/value pairs.
std::vector<std::pair<std::string, uint64_t>> readEthtool(const fs::path& p);
void writeEthtool(const fs::path& p, const std::vector<std::pair<std::string, uint64_t>>& stats);

fs::path simDir(const fs::path& root);

} // namespace nicd::sim
