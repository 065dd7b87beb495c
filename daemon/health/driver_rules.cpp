#include "health/driver_rules.hpp"

#include "health/verdicts.hpp"

#include <fmt/format.h>

namespace nicd::health {

void DriverRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                           ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& full_config = this->config();
    const HealthConfig& config = full_config.health;
    for (const auto& ds : snap.samples) {
        auto& failing = failing_cycles_[ds.ibdev];
        failing = ds.empty() && !ds.errors.empty() ? failing + 1 : 0;
        std::string why = ds.unresponsive;
        if (why.empty() && config.driver_fail_cycles > 0 && failing >= config.driver_fail_cycles)
            why = fmt::format("every read failed for {} cycles (last: {})", failing,
                              ds.errors.front().message);
        if (why.empty()) {
            conditions.recover({ds.ibdev, 0, "driver_unresponsive"}, "the driver answers again",
                               now_real, out);
            continue;
        }
        conditions.raise(
            makeCondition(ConditionSource::Driver, "driver_unresponsive", ConditionSeverity::Fatal,
                          ds.ibdev, 0, "the driver does not answer: " + why,
                          "drain the node; reset the NIC (or reboot); replace it if it recurs",
                          Action::ResetNic),
            now_real, out);
    }
}

} // namespace nicd::health
