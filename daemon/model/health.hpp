// Health as published: per port and per device, the active conditions with their reasons, and
// the events that changed them.
#pragma once

#include "model/action.hpp"
#include "model/readiness.hpp"
#include "model/role.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicd {

enum class Health : uint8_t { Healthy = 0, Degraded = 1, Fatal = 2 };

// Info conditions are reported but do not change health (an uncabled port nobody expects up).
enum class ConditionSeverity : uint8_t { Info, Degraded, Fatal };

// Which rule family raised a condition.
enum class ConditionSource : uint8_t {
    Link,      // port state, netdev operstate, flaps
    Counter,   // counter thresholds
    Kernel,    // kernel log lines (single-line patterns, soft lockups)
    Driver,    // the driver does not answer
    Device,    // a known device disappeared
    Signal,    // a pre-failure signal: FEC, optics, temperature, firmware health, link training
    Readiness, // a compute port NCCL cannot use at full rate (ready.*)
    Inventory, // the node carries fewer or slower ports than expected ([health] ExpectPorts=)
    Neighbor,  // what the port hears in LLDP: the wiring, the switch port's DCB (wiring.*)
};

struct Condition {
    std::string code; // "port_down", "counter.symbol_error", "device_missing", ...
    ConditionSeverity severity = ConditionSeverity::Degraded;
    std::string device; // "" for a condition of the node as a whole (inventory_short.compute)
    uint32_t port = 0;  // 0 = the device as a whole
    std::string message;
    std::string advice;           // what the operator should do, in words
    Action action = Action::None; // the same for a machine (model/action.hpp)
    double first_seen = 0;        // realtime seconds
    double last_seen = 0;
    ConditionSource source = ConditionSource::Link;
};

// Renamed: a device's hardware (its PCI address) got a new name, and what was known of it
// follows the name (health/device_identity.hpp); Changed: a known device's hardware changed
// (firmware_changed, board_changed). Both are events only, never an active condition.
enum class EventKind : uint8_t { Raised, Recovered, Cleared, Baseline, Renamed, Changed };

struct Event {
    uint64_t seq = 0;
    double time = 0; // realtime seconds
    EventKind kind = EventKind::Raised;
    ConditionSeverity severity = ConditionSeverity::Degraded;
    std::string device;
    uint32_t port = 0;
    std::string code;
    std::string message;
    Action action = Action::None; // the condition's action when raised; none otherwise
};

// A RoCE port's congestion over the last window (health/congestion_rules.hpp).
struct CongestionReport {
    std::string state; // unknown, idle, ecn_working, pfc_only, pause_storm, lossy
    double window_seconds = 0;
    double rx_paused_ratio = 0; // share of the window the peer paused our sending
    double tx_paused_ratio = 0; // share of the window we paused the peer
    double ecn_marked_per_second = 0;
    double cnp_sent_per_second = 0;
    double cnp_handled_per_second = 0;
    bool operator==(const CongestionReport&) const = default;
};

// An expectation of [health] ExpectPorts= and what the node has (health/expected_ports.hpp).
struct InventoryCheck {
    Role role = Role::Compute;
    uint32_t expected = 0; // at least this many up ports of the role ...
    double min_gbps = 0;   // ... each at least this fast; 0: any rate
    std::string why;       // "auto: 8 × NVIDIA H100 SXM5 80GB", "ExpectPorts=compute:8@400"
    uint32_t up = 0;       // ports of the role that are up
    uint32_t at_rate = 0;  // of those, the ones at least min_gbps fast
    std::vector<std::string> not_up; // "mlx5_3/1 is down", for ports of the role not up
    std::vector<std::pair<std::string, uint32_t>> not_up_ports; // the same, (ibdev, port)
    std::vector<std::string> slow;    // "mlx5_2/1 at 200 Gb/s", for up ports below the rate
    std::vector<std::string> ignored; // devices IgnoreDevices= takes out of sight: not counted
    bool no_device = false;           // the node has no RDMA device at all
    // `auto`: the board designs its GPUs allow, fewest ports first; countPorts() judges the node
    // against the first with at least as many ports as it has, or the last.
    struct Design {
        uint32_t ports = 0;
        double gbps = 0;
        std::string name; // "a port per GPU"
        bool operator==(const Design&) const = default;
    };
    std::vector<Design> designs;
    std::string design;   // the name of the one judged against
    uint32_t present = 0; // ports of the role there, up or not
    bool operator==(const InventoryCheck&) const = default;
};

struct HealthReport {
    // The node's verdict: fatal when a compute device (or a port of one) is fatal, degraded when
    // anything is not healthy (a dead management or storage NIC does not stop training).
    Health node = Health::Healthy;
    std::map<std::string, Health> devices;                    // by ibdev
    std::map<std::pair<std::string, uint32_t>, Health> ports; // (ibdev, port)
    std::vector<Condition> conditions;                        // active, sorted
    std::map<std::string, uint64_t> events_total;             // by kind name
    uint64_t last_event_seq = 0;
    std::map<std::pair<std::string, std::string>, uint64_t> kernel_errors; // (ibdev, code) -> lines
    uint64_t kernel_errors_unmapped = 0; // recognised lines naming no known device
    // Derived by the rules: the pre-FEC bit error ratio between the last two FEC reads, and
    // the limit it was judged against, by netdev.
    std::map<std::string, std::pair<double, double>> pre_fec_ber;
    // The congestion verdict of every judged RoCE port, by (ibdev, port).
    std::map<std::pair<std::string, uint32_t>, CongestionReport> congestion;
    // The readiness checks of every judged compute port, by (ibdev, port), in a fixed order.
    std::map<std::pair<std::string, uint32_t>, std::vector<ReadyCheck>> readiness;
    // Each role's expected ports and what was found ([health] ExpectPorts=); empty: none.
    std::vector<InventoryCheck> inventory;
};

const char* toString(Health h);
// 0 healthy, 1 degraded, 2 fatal (the textfile's and D-Bus's number).
inline int toNumber(Health h)
{
    return static_cast<int>(h);
}
const char* toString(ConditionSource s);
const char* toString(ConditionSeverity s);
const char* toString(EventKind k);
Health healthOf(ConditionSeverity s);

// Whether a compute port is ready for NCCL: no ready.* condition active on it. nullopt for a port
// the readiness checks never judged (not compute, down, a VF) and that holds none.
std::optional<bool> portReady(const HealthReport& r, const std::string& device, uint32_t port);

} // namespace nicd
