// A kernel line a plugin recognised, and the device the kernel said it was about; a multi-line
// report a plugin recognised, and which plugin: what the kernel log source
// (kernel_log/kernel_watch.hpp) finds in a batch of journal lines and the rule families judge
// (health: HealthEngine::kernelFindings, RuleFamily::kernelLine, kernelReport).
#pragma once

#include "model/kernel_origin.hpp"

#include <nicd/plugin/plugin.h>

#include <optional>
#include <string>
#include <vector>

namespace nicd {

struct KernelFinding {
    plugin::v1::KernelLineMatch match;
    KernelOrigin origin;
};

// A report names no device: it is about every device its plugin manages.
struct KernelReportFinding {
    std::string plugin; // the plugin that recognised it ("Device::plugin" of its devices)
    plugin::v1::KernelLineMatch match;
};

// What one batch of journal lines held, in order.
struct KernelFindings {
    std::vector<KernelFinding> matches;       // lines a plugin recognised
    std::vector<KernelReportFinding> reports; // multi-line reports a plugin recognised
    std::optional<std::string> cursor;        // the journal's, after these lines
    bool empty() const { return matches.empty() && reports.empty(); }
};

} // namespace nicd
