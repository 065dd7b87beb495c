// Multi-line kernel reports as the daemon reads them (KernelWatch::classify): its window over the
// device-less lines (kernel_log/report_window.hpp) with the mlx5 plugin's classifier behind it,
// asked after every line that joins the report.
#pragma once

#include "kernel_log/report_window.hpp"
#include "kernel_reports.hpp"
#include "model/kernel_finding.hpp"
#include "support/kernel_records.hpp"

#include <nicd/plugin/plugin.h>

#include <optional>
#include <string>

namespace nicd::test {

struct Mlx5Reports {
    kernel_log::KernelReportWindow window;
    // What the mlx5 plugin recognised once `rec` joined the report; nullopt while it has not.
    std::optional<plugin::v1::KernelLineMatch> feed(const plugin::v1::KernelRecord& rec)
    {
        plugin::v1::KernelLineMatch m;
        if (!window.feed(rec) ||
            !plugin::sdk::classifySoftLockup(window.report(), mlx5::kPollLoop, m))
            return std::nullopt;
        window.close();
        return m;
    }
    // A device-less line, as the kernel prints its reports.
    std::optional<plugin::v1::KernelLineMatch> feed(const std::string& line)
    {
        return feed(deviceLess(line).record());
    }
};

// The finding the daemon judges when the mlx5 plugin recognised a soft lockup in its polling
// after `header` ("BUG: soft lockup - CPU#3 stuck for 23s!").
inline KernelReportFinding mlx5SoftLockup(const std::string& header)
{
    Mlx5Reports r;
    r.feed("watchdog: " + header);
    auto m = r.feed(" mlx5e_napi_poll+0x1a2/0x6a0 [mlx5_core]");
    return {"mlx5", m.value_or(plugin::v1::KernelLineMatch{})};
}

} // namespace nicd::test
