// The congestion verdict of every RoCE port (congestion_verdict.hpp) over a sliding window of
// [health] CongestionWindowSec= (60 s) of counters the daemon already reads: the pause durations
// and drops of the lossless priorities ([provision] PfcPriorities=, per device), the driver's
// pause-storm events, ECN marks, CNPs sent and handled, out-of-sequence packets. The window's
// readings are kept in the state file, so successive `nicd --once` runs within a boot add up; a
// window not yet full is judged on the time it covers (kMinWindowSec at least). Conditions:
// congestion.pfc_only, congestion.pause_storm, congestion.lossy.
#pragma once

#include "health/congestion_verdict.hpp"
#include "health/rule_family.hpp"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace nicd::health {

class CongestionRules : public RuleFamily {
public:
    const char* name() const override { return "congestion"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    void annotate(HealthReport& report) const override;

    // Port by port: the windows of a 512-device node are ~14 MB as one JSON tree.
    void appendJson(std::string& out) const override;
    void restore(const nlohmann::json& j) override;
    void forget() override
    {
        windows_.clear();
        indices_.clear();
        keys_.clear();
        key_ids_.clear();
    }
    void rename(const std::string& from, const std::string& to) override
    {
        moveDeviceKeys(windows_, from, to);
        moveDeviceKeys(indices_, from, to);
    }

    // One reading of a port's counters, each on its own (by the id of its key,
    // "<kind>/<netdev>/<name>", see keys_), so a counter present at only one end of the window
    // (backed off, PFC moved to another priority) is left out rather than read as a jump from or
    // to zero. Sorted by key id.
    struct Reading {
        double at = 0; // CLOCK_MONOTONIC seconds
        std::vector<std::pair<uint32_t, double>> values;
    };
    // The window restarts when its previous reading is older than this many windows (a daemon
    // stopped for hours must not judge a verdict over them), or kMaxGapSec when that is longer
    // (a `nicd --once` timer a few minutes apart still gets a verdict).
    static constexpr double kMaxGapWindows = 2;
    static constexpr double kMaxGapSec = 600;

private:
    struct Window {
        std::deque<Reading> readings;
        CongestionVerdict verdict;
        CongestionDelta delta;
    };
    // Which of a device's series make a port's reading, worked out once per layout (and
    // lossless priorities): a cycle then reads those values and nothing else.
    struct PortIndex {
        std::shared_ptr<const SampleLayout> pma, plugin;
        std::shared_ptr<const LayoutMeanings> meanings;
        std::vector<std::string> plugin_netdevs;
        std::vector<uint8_t> lossless;
        struct Slot {
            bool pma = false;
            uint32_t index = 0;
            uint32_t key = 0;
        };
        std::vector<Slot> slots; // by key id
    };
    uint32_t keyId(const std::string& key); // interned
    const PortIndex& indexFor(const DeviceSamples& ds, uint32_t port,
                              const std::vector<uint8_t>& lossless);
    std::optional<Reading> readingOf(const DeviceSamples& ds, uint32_t port,
                                     const std::vector<uint8_t>& lossless);

    std::map<std::pair<std::string, uint32_t>, Window> windows_;
    std::map<std::pair<std::string, uint32_t>, PortIndex> indices_;
    std::vector<std::string> keys_;                     // by id
    std::unordered_map<std::string, uint32_t> key_ids_; // the reverse
};

} // namespace nicd::health
