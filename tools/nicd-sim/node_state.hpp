// The simulator's own bookkeeping, DIR/run/nicd-sim/state.json, and the node lock. Internal to
// nicd-sim. Counter keys are "<dev>|<port>|<group>|<name>", group being counters, hw_counters
// or ethtool:<netdev>.
//
// state.json:
//   {"version": 1, "seed": 1,
//    "devices": {"mlx5_0": {"role": "pf", "pci_address": "0000:1a:00.0",
//                           "ib_dir":
//                           "sys/devices/pci0000:19/0000:19:01.0/0000:1a:00.0/infiniband/mlx5_0",
//                           "netdevs": ["ens1f0np0"], "ethtool_netdevs": ["ens1f0np0"],
//                           "load": 0.83, "removed": false, "stalled": false}, ...},
//    (a device of another vendor than mlx5 also has "vendor": "bnxt"; a compute NIC "rail": 1..)
//    "rates": {key: per_second}, "carry": {key: fraction}, "wrap32": {key: true},
//    "stalled_values": {"mlx5_0": {"<file relative to DIR>": value}}}
#pragma once

#include "files.hpp"

#include <map>
#include <string>
#include <vector>

namespace nicd::sim {

struct SimDevice {
    std::string name;
    std::string role;                         // pf, vf, lag, ib
    std::string pci_address;                  // the function the RDMA device sits on
    std::string ib_dir;                       // relative to DIR: sys/devices/.../infiniband/<name>
    std::vector<std::string> netdevs;         // port 1's netdevs (the bond for a LAG)
    std::vector<std::string> ethtool_netdevs; // mlx5 netdevs with ethtool statistics
    double load = 1;                          // share of the default traffic rates
    bool removed = false;
    bool stalled = false;
    std::string vendor = "mlx5"; // its vendor_catalog.hpp entry: mlx5, bnxt
    // Its compute rail: 1.. in the order of the node's compute NICs (those create put beside a
    // GPU, or every NIC of a --devices node), 0 for another NIC. The simulated switches cable
    // rail r to leaf-r (neighbors/neighbor_twin.hpp).
    int rail = 0;
};

struct NodeState {
    uint64_t seed = 1;
    std::map<std::string, SimDevice> devices;
    std::map<std::string, double> rates; // counter key -> per second (overrides the default)
    std::map<std::string, double> carry; // counter key -> fraction not yet added
    std::map<std::string, bool> wrap32;  // counter key -> wraps at 2^32 (a wrap injection)
    std::map<std::string, std::map<std::string, uint64_t>> stalled_values; // dev -> file -> value

    static NodeState load(const fs::path& root); // throws SimError when DIR holds no node
    void save(const fs::path& root) const;
    std::string text() const;                   // what save writes (run/nicd-sim/state.json)
    SimDevice& device(const std::string& name); // throws SimError listing the known devices
    // The device, which a fault can act on only while present: SimError when it was removed.
    SimDevice& liveDevice(const std::string& name);
};

std::string counterKey(const std::string& dev, uint32_t port, const std::string& group,
                       const std::string& name);

// Holds flock(DIR/run/nicd-sim/lock) for its lifetime. Without `creating`, a DIR that holds no
// node is an error (nothing is created there).
class NodeLock {
public:
    explicit NodeLock(const fs::path& root, bool creating = false);
    ~NodeLock();
    NodeLock(const NodeLock&) = delete;
    NodeLock& operator=(const NodeLock&) = delete;

private:
    int fd_ = -1;
};

// The node's state as read under its lock, which it holds for its lifetime: a fault reads and
// changes the state through -> and *, and save() writes it back while the lock is still held.
class LockedNode {
public:
    explicit LockedNode(const fs::path& root)
        : root_(root), lock_(root), state_(NodeState::load(root))
    {
    }
    NodeState* operator->() { return &state_; }
    NodeState& operator*() { return state_; }
    void save() const { state_.save(root_); }

private:
    fs::path root_;
    NodeLock lock_;
    NodeState state_;
};

} // namespace nicd::sim
