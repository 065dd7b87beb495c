#include "qos/trust_plan.hpp"

#include <algorithm>

namespace nicd::mlx5 {

std::vector<dcb::App> defaultDscpMap()
{
    std::vector<dcb::App> out;
    out.reserve(kDscpValues);
    for (int d = 0; d < kDscpValues; ++d)
        out.push_back({dcb::kSelectorDscp, static_cast<uint8_t>(d >> 3), static_cast<uint16_t>(d)});
    return out;
}

bool trustCompliant(std::span<const dcb::App> table, bool want_dscp)
{
    auto have = dscpEntries(table);
    return want_dscp ? have == defaultDscpMap() : have.empty();
}

std::string describeTrust(std::span<const dcb::App> table)
{
    auto have = dscpEntries(table);
    if (have.empty())
        return "pcp";
    auto want = defaultDscpMap();
    if (have == want)
        return "dscp";
    size_t matching = 0;
    for (const auto& a : have)
        if (std::binary_search(want.begin(), want.end(), a))
            ++matching;
    std::string s = "dscp (" + std::to_string(matching) + " of 64 default entries";
    if (size_t other = have.size() - matching; other > 0)
        s += ", " + std::to_string(other) + " other";
    return s + ")";
}

std::string describeTrustWanted(bool want_dscp)
{
    return want_dscp ? "dscp" : "pcp";
}

TrustPlan planTrust(std::span<const dcb::App> table, bool want_dscp)
{
    auto have = dscpEntries(table);
    std::vector<dcb::App> want = want_dscp ? defaultDscpMap() : std::vector<dcb::App>{};
    TrustPlan plan;
    std::set_difference(want.begin(), want.end(), have.begin(), have.end(),
                        std::back_inserter(plan.add));
    std::set_difference(have.begin(), have.end(), want.begin(), want.end(),
                        std::back_inserter(plan.remove));
    return plan;
}

} // namespace nicd::mlx5
