// A soft lockup in a driver's polling, as a plugin reports it (IPlugin::classifyKernelReport):
// the report's running frame is one of the driver's poll-loop functions. The code, severity and
// action are the same for every vendor (docs/conditions.md, kernel.driver_soft_lockup).
#pragma once

#include <nicd/plugin/plugin.h>

#include <span>
#include <string_view>

namespace nicd::plugin::sdk {

// True and `out` filled when `report` is a soft lockup whose trace runs in one of `frames`;
// `driver` names the driver in the message ("mlx5"). Never throws.
bool classifySoftLockup(const v1::KernelReport& report, std::span<const std::string_view> frames,
                        std::string_view driver, v1::KernelLineMatch& out) noexcept;

// A driver's poll loop as a vendor's tables give it: the driver's name in messages and the
// functions a CPU stuck there runs in.
struct PollLoop {
    std::string_view driver;                  // "mlx5"
    std::span<const std::string_view> frames; // "mlx5e_napi_poll", ...
};
inline bool classifySoftLockup(const v1::KernelReport& report, const PollLoop& loop,
                               v1::KernelLineMatch& out) noexcept
{
    return classifySoftLockup(report, loop.frames, loop.driver, out);
}

} // namespace nicd::plugin::sdk
