#include "qos/dscp_apps.hpp"

#include <nicd/plugin/sdk/dscp_entries.h>

#include <algorithm>

namespace nicd::bnxt {

namespace {

using plugin::sdk::dscpEntries;

bool forWantedDscp(const dcb::App& a, std::span<const dcb::App> wanted)
{
    return std::any_of(wanted.begin(), wanted.end(),
                       [&](const dcb::App& w) { return w.protocol == a.protocol; });
}

std::string listEntries(std::span<const dcb::App> entries)
{
    std::string s;
    for (const auto& a : entries)
        s +=
            (s.empty() ? "" : ",") + std::to_string(a.protocol) + "->" + std::to_string(a.priority);
    return s;
}

} // namespace

std::vector<dcb::App> wantedDscpApps(const pv1::QosDesired& desired, bool cnp_fields)
{
    if (!desired.trust_dscp)
        return {};
    const auto roce_dscp = static_cast<uint16_t>(desired.roce_tos >> 2);
    uint8_t roce_prio = static_cast<uint8_t>(desired.roce_tos >> 5);
    if (!desired.pfc_priorities.empty())
        roce_prio = *std::min_element(desired.pfc_priorities.begin(), desired.pfc_priorities.end());
    std::vector<dcb::App> out{{dcb::kSelectorDscp, roce_prio, roce_dscp}};
    if (cnp_fields && desired.cnp_dscp && *desired.cnp_dscp != roce_dscp)
        out.push_back(
            {dcb::kSelectorDscp, desired.cnp_priority.value_or(roce_prio), *desired.cnp_dscp});
    std::sort(out.begin(), out.end());
    return out;
}

AppPlan planDscpApps(std::span<const dcb::App> table, std::span<const dcb::App> wanted)
{
    const auto have = dscpEntries(table);
    AppPlan plan;
    for (const auto& a : have)
        if (wanted.empty() || (forWantedDscp(a, wanted) &&
                               std::find(wanted.begin(), wanted.end(), a) == wanted.end()))
            plan.remove.push_back(a);
    for (const auto& w : wanted)
        if (!std::binary_search(have.begin(), have.end(), w))
            plan.add.push_back(w);
    return plan;
}

std::string describeWantedTrust(std::span<const dcb::App> wanted)
{
    return wanted.empty() ? "pcp" : "dscp " + listEntries(wanted);
}

std::string describeTrust(std::span<const dcb::App> table, std::span<const dcb::App> wanted)
{
    const auto have = dscpEntries(table);
    if (have.empty())
        return "pcp";
    std::vector<dcb::App> relevant;
    std::copy_if(have.begin(), have.end(), std::back_inserter(relevant),
                 [&](const dcb::App& a) { return forWantedDscp(a, wanted); });
    if (relevant.empty())
        return "dscp (" + std::to_string(have.size()) + " entries for other DSCP values)";
    return "dscp " + listEntries(relevant);
}

} // namespace nicd::bnxt
