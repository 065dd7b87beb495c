// asic_temperature_high (degraded, check_cooling): an ASIC sensor of the NIC's hwmon (every
// channel not labelled Module*: module temperatures are judged by the optics rules against the
// module's own limits) at or above its temp*_crit — the firmware's warning threshold, about
// 10 °C below the hardware shutdown — or AsicCritCelsius=. Recovers 2 °C below the limit, so a
// sensor hovering at the limit does not flap.
#pragma once

#include "health/rule_family.hpp"

namespace nicd::health {

class TemperatureRules : public StatelessRuleFamily {
public:
    static constexpr double kHysteresisCelsius = 2;

    const char* name() const override { return "temperatures"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
};

} // namespace nicd::health
