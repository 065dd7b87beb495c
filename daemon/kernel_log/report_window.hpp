// The window over a multi-line kernel report (IPlugin::classifyKernelReport, ABI 1.5): the kernel's
// "BUG: soft lockup - CPU#N stuck for Ss!" opens a report, the device-less lines after it (its
// stack trace) are collected in order, at most plugin::v1::kKernelReportLines of them, and the
// plugins are asked after each one which driver's failure it shows. Which frames mean what is the
// plugins'; the shape of the kernel's own report is the daemon's, the same for every vendor.
//
// Both halves are device-less kernel lines, so a header is recognised only where the kernel's
// report starts (kernel_origin.hpp): at the start of the message, after the watchdog's own
// "watchdog: " prefix. A segfault report of a program named "BUG: soft lockup..." opens nothing.
// Records about a device are not part of a report and are skipped. One report at a time: a trace
// line carries no CPU, so the next header closes the open report and opens its own.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>
#include <vector>

namespace nicd::kernel_log {

class KernelReportWindow {
public:
    // Feeds one kernel record, in journal order; true when a line joined the open report, which
    // is then to be classified (report()).
    bool feed(const plugin::v1::KernelRecord& rec);
    // The open report; valid until the next feed() or close().
    plugin::v1::KernelReport report() const { return {kind_, header_, lines_}; }
    // A plugin recognised the report: later lines are not part of it.
    void close();

private:
    std::string kind_;
    std::string header_;
    std::vector<std::string> lines_;
    bool open_ = false;
};

} // namespace nicd::kernel_log
