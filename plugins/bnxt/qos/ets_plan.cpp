#include "qos/ets_plan.hpp"

#include <algorithm>
#include <cctype>

namespace nicd::bnxt {

namespace {

const char* tsaName(uint8_t tsa)
{
    return tsa == dcb::kTsaStrict ? "strict" : tsa == dcb::kTsaEts ? "ets" : "other";
}

} // namespace

EtsPlan planEts(const std::optional<dcb::Ets>& current, uint8_t pfc_mask)
{
    EtsPlan plan;
    if (pfc_mask == 0 || !current || !dcb::etsUnset(*current))
        return plan;
    if (current->cap < 2) {
        plan.error = "the port has " + std::to_string(current->cap) +
                     " traffic class(es); lossless RoCE needs a second one for its priorities "
                     "(the firmware's queue configuration, NVRAM)";
        return plan;
    }
    dcb::Ets ets;
    ets.cap = current->cap;
    for (int p = 0; p < 8; ++p)
        ets.prio_tc[p] = (pfc_mask & (1U << p)) ? kLosslessTc : 0;
    ets.tsa[0] = ets.tsa[kLosslessTc] = dcb::kTsaEts;
    ets.tx_bw[0] = ets.tx_bw[kLosslessTc] = kEtsShare;
    plan.set = ets;
    return plan;
}

std::string describeEts(const dcb::Ets& ets)
{
    std::string s = "prio_tc ";
    for (int p = 0; p < 8; ++p)
        s += (p ? "," : "") + std::to_string(ets.prio_tc[p]);
    uint8_t classes = *std::max_element(ets.prio_tc.begin(), ets.prio_tc.end()) + 1;
    for (uint8_t tc = 0; tc < classes; ++tc) {
        s += ", tc" + std::to_string(tc) + " " + tsaName(ets.tsa[tc]);
        if (ets.tsa[tc] == dcb::kTsaEts)
            s += " " + std::to_string(ets.tx_bw[tc]) + "%";
    }
    return s;
}

bool setEtsSetting(const std::optional<std::string>& value)
{
    if (!value)
        return true;
    std::string v = *value;
    std::transform(v.begin(), v.end(), v.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return !(v == "no" || v == "false" || v == "off" || v == "0");
}

plugin::v1::QosSettingReport etsReport(const dcb::DcbState& st, std::optional<uint8_t> pfc_mask,
                                       bool set_ets)
{
    plugin::v1::QosSettingReport r;
    r.setting = "ets";
    r.desired = set_ets ? "its own, or when none: PFC priorities on tc1, the others on tc0, ets " +
                              std::to_string(kEtsShare) + "% each"
                        : "left alone (SetEts=no)";
    const bool pfc_must_change =
        pfc_mask && *pfc_mask != 0 && st.pfc && st.pfc->enabled != *pfc_mask;
    const bool none = !st.ets || dcb::etsUnset(*st.ets);
    r.observed = !st.ets ? "unknown" : none ? "none" : describeEts(*st.ets);
    r.compliant = !set_ets || !none || !pfc_must_change;
    return r;
}

} // namespace nicd::bnxt
