// Expected inventory ([health] ExpectPorts=, expected_ports.hpp), node-level conditions (device
// "", port 0), judged every evaluation from the snapshot:
//   inventory_short.<role>  fewer ports of the role up than expected: fatal for compute (the
//                           training fabric is short), degraded otherwise; the action of its
//                           cause: check_cable when every port is there and some are down,
//                           reseat_nic when a NIC is not there (reboot_node when each one gone
//                           left the bus this boot, as its device_missing says), the advice
//                           naming both causes when both hold; check_host_config when
//                           IgnoreDevices= hides the missing ones
//   inventory_slow.<role>   fewer at the expected rate than expected, some up below it:
//                           degraded, action check_cable
// Each recovers when the count is back, and when its expectation goes (a reload, ExpectPorts=
// none). Nothing to keep across restarts: the counts are the snapshot's.
#pragma once

#include "health/rule_family.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nicd::health {

class InventoryRules : public StatelessRuleFamily {
public:
    const char* name() const override { return "inventory"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    // The expectations and what was found, for nicd --once and the textfile.
    void annotate(HealthReport& report) const override { report.inventory = checks_; }

protected:
    void configured(const Config& /*config*/) override { expected_gpus_.reset(); }

private:
    // What ExpectPorts= expects, worked out again only when the configuration or the GPUs change.
    std::vector<InventoryCheck> expected_;
    std::optional<std::vector<GpuFunction>> expected_gpus_; // what expected_ was worked out for
    std::vector<InventoryCheck> checks_;                    // of the last evaluation
    std::string unplaced_; // the GPUs auto expects nothing of, as last said
};

// Whether `code` is one of this family's.
bool isInventoryCode(const std::string& code);

} // namespace nicd::health
