#include <nicd/plugin/sdk/report_merge.h>

#include <algorithm>

namespace nicd::plugin::sdk {

v1::QosSettingReport
mergeReports(const std::vector<std::pair<std::string, v1::QosSettingReport>>& parts)
{
    if (parts.empty())
        return {};
    if (parts.size() == 1)
        return parts.front().second;
    v1::QosSettingReport out = parts.front().second;
    bool same = std::all_of(parts.begin(), parts.end(),
                            [&](const auto& p) { return p.second.observed == out.observed; });
    out.observed.clear();
    out.error.clear();
    out.compliant = true;
    out.changed = false;
    for (const auto& [netdev, r] : parts) {
        if (!same)
            out.observed += (out.observed.empty() ? "" : " ") + netdev + "=" + r.observed;
        out.compliant = out.compliant && r.compliant;
        out.changed = out.changed || r.changed;
        if (!r.error.empty())
            out.error += (out.error.empty() ? "" : "; ") + r.error;
    }
    if (same)
        out.observed = parts.front().second.observed;
    return out;
}

} // namespace nicd::plugin::sdk
