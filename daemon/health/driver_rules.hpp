// driver_unresponsive (fatal): a read through the driver missed its deadline this cycle, or every
// read of a device failed for DriverFailCycles cycles in a row. Recovers once the device answers.
#pragma once

#include "config/config.hpp"
#include "health/condition_set.hpp"
#include "model/snapshot.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicd::health {

class DriverRules {
public:
    void evaluate(const Snapshot& snap, const HealthConfig& config, double now_real,
                  ConditionSet& conditions, std::vector<Event>& out);

    nlohmann::json toJson() const { return failing_cycles_; }
    static DriverRules fromJson(const nlohmann::json& j);

private:
    std::map<std::string, uint32_t> failing_cycles_; // ibdev -> cycles with every read failing
};

} // namespace nicd::health
