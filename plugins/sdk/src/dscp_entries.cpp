#include <nicd/plugin/sdk/dscp_entries.h>

#include <algorithm>

namespace nicd::plugin::sdk {

std::vector<dcb::App> dscpEntries(std::span<const dcb::App> table)
{
    std::vector<dcb::App> out;
    std::copy_if(table.begin(), table.end(), std::back_inserter(out),
                 [](const dcb::App& a) { return a.selector == dcb::kSelectorDscp; });
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace nicd::plugin::sdk
