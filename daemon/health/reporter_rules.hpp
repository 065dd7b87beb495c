// The firmware's and driver's own health verdicts, devlink health reporters, by what the plugin
// of the reporter's device says each means (plugin ABI 1.6, ReporterMeaning):
//   firmware_fatal (fatal, reset_nic): a fatal firmware error the driver has not recovered
//     (mlx5's fw_fatal); or a reporter in error while its driver resets the firmware (bnxt_en's
//     fw) that stays in error longer than a reset takes ([signals] FirmwareResetSec=).
//   firmware_error (degraded, update_firmware): a non-fatal firmware problem (mlx5's fw: a
//     health syndrome, never set healthy again while the driver is loaded).
//   devlink_reporter.<name> (degraded, reset_nic): another reporter (tx, rx) in error; and a
//     firmware reset that brought the firmware back between two reads (an event).
// A reporter no plugin describes (an unmanaged NIC, a plugin older than 1.6): fw_fatal is
// firmware_fatal, any other name devlink_reporter.<name>. Each recovers when its reporter is
// healthy again. Errors the driver recovered between two reads are raised and recovered at once:
// the event log keeps the reporter, error and recovery counts without the health flickering.
// Reporters are matched to devices by PCI address; how long one has been in error is counted on
// the monotonic clock from this process's first read of it in error (a restart counts anew).
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
    void evaluate(const Snapshot& snap, const Config& config, double now_mono, double now_real,
                  ConditionSet& conditions, std::vector<Event>& out) override;

    void appendJson(std::string& out) const override { appendJsonText(out, counts_); }
    void restore(const nlohmann::json& j) override
    {
        counts_ = getIntegers<std::map<std::string, std::pair<uint64_t, uint64_t>>>(j);
    }
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
    std::map<std::string, double> error_since_; // "<handle>|<reporter>" -> first read in error
};

} // namespace nicd::health
