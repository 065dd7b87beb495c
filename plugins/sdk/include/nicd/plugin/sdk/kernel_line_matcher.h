// One text matcher for every vendor's kernel lines: a vendor lists its driver's printk texts as
// patterns (the needles each must contain, the code, severity and actions it raises), first match
// winning, and its classifier feeds the text of a record it has checked is its driver's (its
// dev_printk() prefix: printed_record.h) to matchKernelLine. Which records are the driver's, and
// what a device-less record may be, stay each vendor's own. Cheap: no regex, nothing allocated
// until a pattern matches.
#pragma once

#include <nicd/plugin/plugin.h>

#include <array>
#include <span>
#include <string_view>

namespace nicd::plugin::sdk {

struct KernelLinePattern {
    const char* code; // "mlx5.cmd_timeout"
    v1::Severity severity;
    std::array<const char*, 3> needles; // all must appear in the text (nullptr = unused)
    const char* message;
    const char* action;
    const char* action_code; // the daemon's machine-readable action (docs/conditions.md)
};

// `out`'s code, severity, message, action and action code from `p` (the rest left as it is).
void fillMatch(const KernelLinePattern& p, v1::KernelLineMatch& out);

// True and `out` filled (fillMatch) by the first of `patterns` whose needles all appear in
// `text`; false, `out` untouched, when none does.
bool matchKernelLine(std::string_view text, std::span<const KernelLinePattern> patterns,
                     v1::KernelLineMatch& out);

} // namespace nicd::plugin::sdk
