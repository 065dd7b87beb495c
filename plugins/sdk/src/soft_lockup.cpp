#include <nicd/plugin/sdk/soft_lockup.h>
#include <nicd/plugin/sdk/stack_frame.h>

#include <string>

namespace nicd::plugin::sdk {

bool classifySoftLockup(const v1::KernelReport& report, std::span<const std::string_view> frames,
                        std::string_view driver, v1::KernelLineMatch& out) noexcept
{
    if (report.kind != "soft_lockup")
        return false;
    auto frame = firstRunningFrameOf(report.lines, frames);
    if (!frame)
        return false;
    try {
        const std::string name(driver);
        out.code = "driver_soft_lockup";
        out.severity = v1::Severity::Fatal;
        out.message = "kernel soft lockup: " + std::string(report.header) + " in " + name +
                      " polling (" + std::string(*frame) + ")";
        out.action = "drain and reboot the node; the " + name + " driver is wedged";
        out.action_code = "reboot_node";
    } catch (...) {
        out = {};
        return false;
    }
    return true;
}

} // namespace nicd::plugin::sdk
