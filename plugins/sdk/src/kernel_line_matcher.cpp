// The vendors' kernel-line patterns matched (kernel_line_matcher.h).
#include <nicd/plugin/sdk/kernel_line_matcher.h>

namespace nicd::plugin::sdk {

void fillMatch(const KernelLinePattern& p, v1::KernelLineMatch& out)
{
    out.code = p.code;
    out.severity = p.severity;
    out.message = p.message;
    out.action = p.action;
    out.action_code = p.action_code;
}

bool matchKernelLine(std::string_view text, std::span<const KernelLinePattern> patterns,
                     v1::KernelLineMatch& out)
{
    for (const auto& p : patterns) {
        bool all = true;
        for (const char* needle : p.needles)
            if (needle != nullptr && text.find(needle) == std::string_view::npos) {
                all = false;
                break;
            }
        if (all) {
            fillMatch(p, out);
            return true;
        }
    }
    return false;
}

} // namespace nicd::plugin::sdk
