// bnxt driver failures in multi-line kernel reports: pure classification
// (IPlugin::classifyKernelReport, ABI 1.5). A soft-lockup report whose trace runs (the running
// frame, not a speculative "? frame") in bnxt_en's NAPI poll loop or bnxt_re's notification-queue
// and command-queue tasklets means the driver is wedged there.
#pragma once

#include <nicd/plugin/plugin.h>

namespace nicd::bnxt {

bool classifyKernelReport(const ::nicd::plugin::v1::KernelReport& report,
                          ::nicd::plugin::v1::KernelLineMatch& out) noexcept;

} // namespace nicd::bnxt
