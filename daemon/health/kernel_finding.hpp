// A kernel line a plugin recognised, and the device the kernel said it was about; a multi-line
// report a plugin recognised, and which plugin: what the kernel log source
// (kernel_log/kernel_watch.hpp) hands the rule families (RuleFamily::kernelLine, kernelReport).
#pragma once

#include "model/kernel_origin.hpp"

#include <nicd/plugin/plugin.h>

#include <string>

namespace nicd::health {

struct KernelFinding {
    plugin::v1::KernelLineMatch match;
    KernelOrigin origin;
};

// A report names no device: it is about every device its plugin manages.
struct KernelReportFinding {
    std::string plugin; // the plugin that recognised it ("Device::plugin" of its devices)
    plugin::v1::KernelLineMatch match;
};

} // namespace nicd::health
