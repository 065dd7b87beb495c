// driver_unresponsive (fatal): a read through the driver missed its deadline this cycle, or every
// read of a device failed for DriverFailCycles cycles in a row. Recovers once the device answers.
#pragma once

#include "health/json_integers.hpp"
#include "health/rule_family.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace nicd::health {

class DriverRules : public RuleFamily {
public:
    const char* name() const override { return "drivers"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;

    void appendJson(std::string& out) const override { appendJsonText(out, failing_cycles_); }
    void restore(const nlohmann::json& j) override
    {
        failing_cycles_ = getIntegers<std::map<std::string, uint32_t>>(j);
    }
    void forget() override { failing_cycles_.clear(); }
    void rename(const std::string& from, const std::string& to) override
    {
        moveDeviceKeys(failing_cycles_, from, to);
    }

private:
    std::map<std::string, uint32_t> failing_cycles_; // ibdev -> cycles with every read failing
};

} // namespace nicd::health
