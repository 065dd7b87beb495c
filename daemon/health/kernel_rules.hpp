// Kernel-line conditions: what a plugin recognised in the kernel log, mapped to a device and held.
//   kernel.<code>              a recognised line's condition on its device (port 0), at the
//                              pattern's severity; the same non-fatal code on one device
//                              KernelRepeatCount times within KernelRepeatWindowSec is fatal
//   kernel.<code> of a report  a multi-line report a plugin recognised (mlx5: driver_soft_lockup,
//                              a soft lockup in its NAPI/CQ polling) on every device it manages
// Kernel lines have no natural recovery: a condition holds for KernelHoldSec after its last line
// (0 = the rest of the boot, persisted across restarts) or until an operator clears it; a clear
// also forgets the repeat history. Lines naming no known device are counted, nothing else.
#pragma once

#include "health/rule_family.hpp"
#include "model/kernel_finding.hpp"

#include <nicd/plugin/plugin.h>

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nicd::health {

// The device a line counts against. A line the kernel printed about a PCI function counts against
// the device of that function, or, printed by an upstream port (AER, DPC), against the function
// below the port that the report names, else the first PF below it; about an RDMA device, against
// that device; about anything else, none. A device-less line (a report the plugin matched where
// the kernel's report starts) counts against the device of the PCI address or netdev the report
// names. nullptr when unknown. What a line's text names never moves it to another device.
const Device* deviceForKernelLine(const KernelFinding& f, const Inventory& inv);

// The action of a recognised line's condition: the plugin's code when it is one of the set, else
// reset_nic for a fatal line and none for another; a non-fatal line that became fatal by repeating
// is reset_nic.
Action kernelAction(const plugin::v1::KernelLineMatch& m, bool fatal);

class KernelRules : public RuleFamily {
public:
    const char* name() const override { return "kernel"; }
    // Recovers conditions whose KernelHoldSec ran out.
    void evaluate(const Snapshot& snap, double now_mono, double now_real, ConditionSet& conditions,
                  std::vector<Event>& out) override;
    void kernelLine(const KernelFinding& f, const Inventory& inv, double now_mono, double now_real,
                    ConditionSet& conditions, std::vector<Event>& out) override;
    // The report names no device and one driver serves them all: raised on every PF/LAG device
    // the plugin that recognised it manages; counted as unmapped when there is none.
    void kernelReport(const KernelReportFinding& f, const Inventory& inv, double now_mono,
                      double now_real, ConditionSet& conditions, std::vector<Event>& out) override;
    // An operator cleared `code` ("kernel.<pattern>") on `device`: its history is forgotten.
    void cleared(const std::string& device, const std::string& code) override;
    // Recognised lines per (device, pattern code), and those naming no known device.
    void annotate(HealthReport& report) const override;

    void appendJson(std::string& out) const override;
    void restore(const nlohmann::json& j) override;
    void forget() override;
    // The device's hardware is now called `to`: its hits, hold times and counts move there.
    void rename(const std::string& from, const std::string& to) override;

private:
    void hold(const ConditionKey& key, const HealthConfig& config, double now_mono);

    std::map<ConditionKey, std::deque<double>> hits_; // monotonic times of recent lines
    std::map<ConditionKey, double> expiry_;           // monotonic; absent = holds until cleared
    std::map<std::pair<std::string, std::string>, uint64_t> counts_;
    uint64_t unmapped_ = 0;
};

} // namespace nicd::health
