// The firmware's and driver's own health verdicts, devlink health reporters, by what the plugin
// of the reporter's device says each means (plugin ABI 1.6, ReporterMeaning):
//   firmware_fatal (fatal, reset_nic): a fatal firmware error the driver has not recovered
//     (mlx5's fw_fatal); or a reporter in error while its driver resets the firmware (bnxt_en's
//     fw) that stays in error longer than a reset takes ([signals] FirmwareResetSec=).
//   firmware_error (degraded, update_firmware): a non-fatal firmware problem (mlx5's fw: a
//     health syndrome, never set healthy again while the driver is loaded).
//   devlink_reporter.<name> (degraded, reset_nic): another reporter (tx, rx) in error; and a
//     firmware reset that brought the firmware back between two reads (an event).
// A plugin older than 1.6 describes none of its reporters: as a device no plugin claims (below).
// Each recovers when its reporter is
// healthy again. Errors the driver recovered between two reads are raised and recovered at once:
// the event log keeps the reporter, error and recovery counts without the health flickering.
//   firmware_resetting (degraded, reset_nic): a reporter in error while its driver resets the
//     firmware, for the FirmwareResetSec= a reset takes; its message says when it turns fatal.
// A reporter no plugin describes (the device is claimed by none): fw_fatal is firmware_fatal,
// tx and rx a queue the driver could not recover, another fw* reporter the firmware, any other
// name a part of the driver's, each devlink_reporter.<name> and said to be undescribed.
// Reporters are matched to devices by PCI address; how long one has been in error is counted in
// wall-clock time from nicd's first read of it in error this boot, kept across restarts and by
// nicd --once (the state file), so that one cycle judges it as the daemon would.
#pragma once

#include "health/json_integers.hpp"
#include "health/rule_family.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace nicd::health {

class ReporterRules : public RuleFamily {
public:
    const char* name() const override { return "reporters"; }
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;

    // {"counts": {...}, "error_since": {...}}; the counts alone (as an older nicd wrote them)
    // while no reporter is in error.
    void appendJson(std::string& out) const override;
    void restore(const nlohmann::json& j) override;
    void forget() override
    {
        counts_.clear();
        error_since_.clear();
    }
    // Kept by devlink handle ("pci/<address>"): the hardware's own name already.
    void rename(const std::string& /*from*/, const std::string& /*to*/) override {}

private:
    // "<handle>|<reporter>" -> (errors, recovers) at the last read
    std::map<std::string, std::pair<uint64_t, uint64_t>> counts_;
    // "<handle>|<reporter>" -> wall-clock seconds of the first read in error
    std::map<std::string, double> error_since_;
};

} // namespace nicd::health
