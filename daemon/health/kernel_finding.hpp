// A kernel line a plugin recognised, and the device the kernel said it was about: what the kernel
// log source (kernel_log/kernel_watch.hpp) hands the rule families (RuleFamily::kernelLine).
#pragma once

#include "model/kernel_origin.hpp"

#include <nicd/plugin/plugin.h>

namespace nicd::health {

struct KernelFinding {
    plugin::v1::KernelLineMatch match;
    KernelOrigin origin;
};

} // namespace nicd::health
