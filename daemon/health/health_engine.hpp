// The health engine: turns each snapshot into conditions (link, counters, device presence),
// per-port and per-device health, and events for every change. Runs on the loop thread; pure
// apart from the clock values it is given.
#pragma once

#include "config/config.hpp"
#include "health/counter_rules.hpp"
#include "model/health.hpp"
#include "model/snapshot.hpp"

#include <nicd/plugin/plugin.h>

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace nicd::health {

class HealthEngine {
public:
    explicit HealthEngine(Config config) : config_(std::move(config)) {}

    void setConfig(Config config) { config_ = std::move(config); }

    // Evaluates `snap` at monotonic time `now_mono` (seconds; rates) and wall time `now_real`
    // (seconds; what events show), fills snap.health and returns the new events.
    std::vector<Event> evaluate(Snapshot& snap, double now_mono, double now_real);

    // A kernel line a plugin recognised: mapped to a device by PCI address (the device's or an
    // upstream port's) or netdev; an unknown device is only counted. The same non-fatal error
    // KernelRepeatCount times within KernelRepeatWindowSec becomes fatal. Kernel conditions hold
    // for KernelHoldSec (0: until reboot or an operator clears them).
    std::vector<Event> kernelLine(const plugin::v1::KernelLineMatch& m, const Inventory& inv,
                                  double now_mono, double now_real);
    // A confirmed soft lockup in the mlx5 poll loop: fatal for every mlx5 device.
    std::vector<Event> driverSoftLockup(const std::string& evidence, const Inventory& inv,
                                        double now_real);

    // Fills snap.health from the current conditions without evaluating anything.
    void report(Snapshot& snap) const { publish(snap); }
    uint64_t kernelLinesUnmapped() const { return kernel_unmapped_; }

    // Operator action: drops an active condition (it is raised again if its cause persists).
    bool clear(const std::string& device, const std::string& code, double now_real);

    std::vector<Event> eventsSince(uint64_t seq) const;

    // Memory across restarts: counter baselines and windows, port history, known devices,
    // conditions, kernel hits, the event sequence. Monotonic times stay valid within one boot.
    nlohmann::json toJson() const;
    // Throws on a malformed document (the caller sets the state file aside).
    void restore(const nlohmann::json& j);
    // A new boot (or a first start): everything forgotten, and a "baseline" event says so.
    void baseline(const std::string& why, double now_real);

private:
    using Key = std::tuple<std::string, uint32_t, std::string>; // device, port, code

    struct CounterHistory {
        std::deque<std::pair<double, uint64_t>> points; // (time, cumulative growth)
        uint64_t last_value = 0;
        uint64_t cumulative = 0;
        double last_time = -1;
    };
    struct PortMemory {
        bool ever_up = false;
        bool was_up = false;
        std::deque<double> downs; // times of up->down transitions
    };

    void raise(Condition c, double now_real, std::vector<Event>& out);
    void recover(const Key& key, const std::string& why, double now_real, std::vector<Event>& out);
    void evaluateLinks(const Snapshot& snap, double now_mono, double now_real, std::set<Key>& seen,
                       std::vector<Event>& out);
    void evaluateCounters(const Snapshot& snap, double now_mono, double now_real,
                          std::set<Key>& seen, std::vector<Event>& out);
    void evaluateDrivers(const Snapshot& snap, double now_real, std::vector<Event>& out);
    void evaluateDevices(const Snapshot& snap, double now_real, std::set<Key>& seen,
                         std::vector<Event>& out);
    void publish(Snapshot& snap) const;
    void record(Event e, std::vector<Event>& out);

    Config config_;
    std::map<Key, Condition> active_;
    std::map<std::string, CounterHistory> counters_;
    std::map<std::pair<std::string, uint32_t>, PortMemory> ports_;
    std::set<std::string> known_devices_;
    std::map<std::string, bool> netdev_up_;         // netdevs seen up
    std::map<Key, std::deque<double>> kernel_hits_; // monotonic times of recent hits
    std::map<Key, double> kernel_expiry_;           // monotonic; absent = holds until cleared
    uint64_t kernel_unmapped_ = 0;
    std::map<std::string, uint32_t>
        failing_cycles_; // ibdev -> cycles in a row with every read failing
    std::map<std::pair<std::string, std::string>, uint64_t> kernel_counts_;
    std::deque<Event> events_;
    std::map<std::string, uint64_t> events_total_;
    uint64_t seq_ = 0;
};

} // namespace nicd::health
