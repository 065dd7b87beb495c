#include "kernel_log/report_window.hpp"

#include <optional>

namespace nicd::kernel_log {

namespace {

constexpr std::string_view kSoftLockup = "BUG: soft lockup - CPU#";

// The header at the start of the message, after the prefix the watchdog prints it with
// ("watchdog: " since 4.x, "NMI watchdog: " before).
std::optional<std::string_view> softLockupHeader(std::string_view m)
{
    for (std::string_view prefix : {"", "watchdog: ", "NMI watchdog: "})
        if (m.starts_with(prefix) && m.substr(prefix.size()).starts_with(kSoftLockup))
            return m.substr(prefix.size());
    return std::nullopt;
}

} // namespace

bool KernelReportWindow::feed(const plugin::v1::KernelRecord& rec)
{
    if (!rec.deviceLess())
        return false;
    if (auto h = softLockupHeader(rec.message)) {
        kind_ = "soft_lockup";
        header_ = std::string(*h);
        lines_.clear();
        open_ = true;
        return false;
    }
    if (!open_ || lines_.size() >= plugin::v1::kKernelReportLines)
        return false;
    lines_.emplace_back(rec.message);
    return true;
}

void KernelReportWindow::close()
{
    open_ = false;
    lines_.clear();
}

} // namespace nicd::kernel_log
