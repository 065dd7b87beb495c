// Optical modules against their own limits (the thresholds in their EEPROM, or Optics*= of
// [signals]): optics_<quantity>_<high|low> for the module temperature, supply voltage and, per
// lane, TX bias, TX power and RX power — a warning threshold crossed is degraded, an alarm
// threshold crossed is fatal for RX power low and degraded otherwise — and optics_tx_fault
// (fatal) for a lane whose transmitter reports a fault. Temperature asks for check_cooling,
// everything else for replace_cable_or_transceiver. RX power is judged only while the port is
// up (a down link has no light: port_down says so), and only the lanes the port uses. Modules
// without diagnostics (copper) and absent modules raise nothing.
#pragma once

#include "health/rule_family.hpp"

namespace nicd::health {

class OpticsRules : public StatelessRuleFamily {
public:
    const char* name() const override { return "optics"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
};

} // namespace nicd::health
