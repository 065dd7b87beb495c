// mlx5 driver failures in multi-line kernel reports: pure classification
// (IPlugin::classifyKernelReport, ABI 1.5). A soft-lockup report whose trace runs in mlx5's NAPI
// or CQ polling (the running frame, not a speculative "? frame") means the mlx5 driver is wedged
// in its poll loop (NVSentinel #1334: a node stayed Ready for days so).
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::mlx5 {

bool classifyKernelReport(const ::nicd::plugin::v1::KernelReport& report,
                          ::nicd::plugin::v1::KernelLineMatch& out) noexcept;

} // namespace nicd::mlx5
