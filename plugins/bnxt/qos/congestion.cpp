#include "qos/congestion.hpp"

#include <nicd/plugin/sdk/pfc_plan.h>
#include <nicd/plugin/sdk/printed_record.h>
#include <nicd/plugin/sdk/small_file.h>

#include <filesystem>

namespace nicd::bnxt {

namespace fs = std::filesystem;
using plugin::sdk::describePriorities;

namespace {

// A PCI address as sysfs names it ("0000:3b:00.0"), and nothing more: nothing that could leave
// the directory.
bool pciName(std::string_view s)
{
    return s.size() == 12 && plugin::sdk::startsWithPciAddress(s);
}

pv1::QosSettingReport unsupported(const std::string& setting, const std::string& desired)
{
    return {setting, desired, "unsupported", true, false, ""};
}

// ecn_np and ecn_rp from cc_config/enable_cc.
std::vector<pv1::QosSettingReport> ecnSettings(QosCall& call)
{
    const std::string want = describePriorities(call.desired.pfc_priorities);
    const auto& pci = call.dev.pci_address;
    const fs::path file =
        fs::path(call.host.root()) / "sys/kernel/debug/bnxt_re" / pci / "cc_config/enable_cc";
    if (!pciName(pci))
        return {unsupported("ecn_np", want), unsupported("ecn_rp", want)};
    // One read, no existence check before it: a bnxt_re without cc_config has no such file.
    std::string text;
    const auto read = plugin::sdk::readSmallFileBeneath(call.host.root(), file, text);
    if (read.code == pv1::Errc::NoDevice)
        return {unsupported("ecn_np", want), unsupported("ecn_rp", want)};
    pv1::QosSettingReport r{"", want, "", false, false, ""};
    if (!read) {
        call.fail(read);
        r.error = read.message;
    } else if (auto on = parseCcEnable(text); !on) {
        r.error =
            file.string() + ": not a number: '" + std::string(plugin::sdk::trimSpace(text)) + "'";
        call.fail(pv1::Status::fail(pv1::Errc::Io, r.error));
    } else {
        r.observed = *on ? "all (congestion control on)" : "none (congestion control off)";
        r.compliant = *on || call.desired.pfc_priorities.empty();
        if (!r.compliant)
            r.error = "bnxt_re " + pci +
                      ": congestion control is off (debugfs cc_config/enable_cc 0); upstream "
                      "bnxt_re has no interface nicd may set it through (bnxt_re turns it on at "
                      "load: reload bnxt_re)";
    }
    auto rp = r;
    r.setting = "ecn_np";
    rp.setting = "ecn_rp";
    return {r, rp};
}

} // namespace

std::optional<bool> parseCcEnable(std::string_view text)
{
    auto v = plugin::sdk::parseLong(plugin::sdk::trimSpace(text));
    if (!v || *v < 0)
        return std::nullopt;
    return *v != 0;
}

std::vector<pv1::QosSettingReport> congestionSettings(QosCall& call)
{
    // The ECN fields came with ABI 1.2: an older daemon's QosDesired does not have them.
    if (call.host.abiMinor() < 2 || !call.desired.ecn)
        return {};
    auto out = ecnSettings(call);
    if (call.desired.cnp_dscp)
        out.push_back(unsupported("cnp_dscp", std::to_string(*call.desired.cnp_dscp)));
    if (call.desired.cnp_priority)
        out.push_back(unsupported("cnp_priority", std::to_string(*call.desired.cnp_priority)));
    return out;
}

} // namespace nicd::bnxt
