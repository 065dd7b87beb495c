#include "health/temperature_rules.hpp"

#include "health/verdicts.hpp"

#include <fmt/format.h>

namespace nicd::health {

void TemperatureRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                                ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    Verdicts v;
    for (const auto& [ibdev, sensors] : snap.temperatures) {
        if (!config.signals.enable)
            continue;
        v.judged(ibdev, 0);
        const bool active = conditions.contains({ibdev, 0, "asic_temperature_high"});
        for (const auto& s : sensors) {
            if (s.label.starts_with("Module") || s.label.starts_with("module"))
                continue;
            auto crit = config.signals.asic_crit_celsius ? config.signals.asic_crit_celsius
                                                         : s.crit_celsius;
            if (!crit)
                continue;
            // Once raised, it holds until the sensor is kHysteresisCelsius below the limit.
            double limit = active ? *crit - kHysteresisCelsius : *crit;
            if (s.celsius < limit)
                continue;
            v.raise(signalCondition(
                "asic_temperature_high", ConditionSeverity::Degraded, ibdev, 0,
                fmt::format("sensor {} at {:.1f} °C, at or above its critical {:.1f} °C{}", s.label,
                            s.celsius, *crit,
                            s.highest_celsius
                                ? fmt::format(" (highest {:.1f} °C)", *s.highest_celsius)
                                : std::string()),
                "the NIC runs hot and will throttle or shut down: check the airflow over the card "
                "and the fans",
                Action::CheckCooling));
            break;
        }
    }
    v.apply(
        conditions, [](const std::string& code) { return code == "asic_temperature_high"; },
        [](const Condition&) {
            return fmt::format("the ASIC is {:g} °C or more below its critical temperature",
                               kHysteresisCelsius);
        },
        now_real, out);
}

} // namespace nicd::health
