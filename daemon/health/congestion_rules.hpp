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

#include <array>
#include <deque>
#include <map>
#include <utility>

namespace nicd::health {

class CongestionRules : public RuleFamily {
public:
    const char* name() const override { return "congestion"; }
    void evaluate(const Snapshot& snap, const Config& config, double now_mono, double now_real,
                  ConditionSet& conditions, std::vector<Event>& out) override;
    void annotate(HealthReport& report) const override;

    nlohmann::json toJson() const override;
    void restore(const nlohmann::json& j) override;
    void forget() override { windows_.clear(); }

    // One reading of a port's counters: the fields of CongestionDelta but seconds, in order;
    // < 0 where the counter was not there.
    static constexpr size_t kFields = 12;
    struct Reading {
        double at = 0; // CLOCK_MONOTONIC seconds
        std::array<double, kFields> values{};
    };

private:
    struct Window {
        std::deque<Reading> readings;
        CongestionVerdict verdict;
        CongestionDelta delta;
    };
    std::map<std::pair<std::string, uint32_t>, Window> windows_;
};

} // namespace nicd::health
