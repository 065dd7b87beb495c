#include "qos/ecn_settings.hpp"

#include <nicd/plugin/sdk/pfc_plan.h>
#include <nicd/plugin/sdk/qos_port.h>
#include <nicd/plugin/sdk/report_merge.h>
#include <nicd/plugin/sdk/scalar_setting.h>
#include <nicd/plugin/sdk/small_file.h>

#include <algorithm>
#include <filesystem>
#include <functional>

namespace nicd::mlx5 {

namespace fs = std::filesystem;
using plugin::sdk::describePriorities;
using plugin::sdk::knobHost;
using plugin::sdk::kPriorities;
using plugin::sdk::mergeReports;
using plugin::sdk::portName;
using plugin::sdk::readSmallFile;
using plugin::sdk::scalarSetting;
using plugin::sdk::writeKnob;

namespace {

std::string where(const QosCall& call, const std::string& netdev)
{
    return portName(call.dev, call.port) + " (" + netdev + ")";
}

// A sysfs number as the driver prints it (%d and a newline); nullopt for anything else, a
// negative one included.
std::optional<long> parseNumber(std::string_view text)
{
    auto v = plugin::sdk::parseLong(plugin::sdk::trimSpace(text));
    if (!v || *v < 0)
        return std::nullopt;
    return v;
}

// Reads the enable bit of the wanted priorities only (each read is a firmware command; the
// others are not nicd's): those enabled, or a failure naming the file.
pv1::Status readEnabled(const fs::path& enable_dir, const std::vector<uint8_t>& wanted,
                        std::vector<uint8_t>& enabled)
{
    enabled.clear();
    for (auto p : wanted) {
        if (p >= kPriorities)
            return pv1::Status::fail(pv1::Errc::InvalidArgument,
                                     "ECN priority " + std::to_string(p) + " is not 0 to 7");
        auto file = enable_dir / std::to_string(p);
        std::string text;
        if (auto s = readSmallFile(file, text); !s)
            return s;
        auto bit = parseEcnEnable(text);
        if (!bit)
            return pv1::Status::fail(
                pv1::Errc::Io, file.string() + (text.empty() ? ": empty read (a firmware error)"
                                                             : ": unexpected '" + text + "'"));
        if (*bit)
            enabled.push_back(static_cast<uint8_t>(p));
    }
    return pv1::Status::ok();
}

bool covers(const std::vector<uint8_t>& enabled, const std::vector<uint8_t>& wanted)
{
    for (auto p : wanted)
        if (std::find(enabled.begin(), enabled.end(), p) == enabled.end())
            return false;
    return true;
}

// One point (roce_np or roce_rp) on one netdev: wanted priorities enabled, others as they are.
pv1::QosSettingReport enableSetting(QosCall& call, const fs::path& ecn, const std::string& netdev,
                                    const char* point, const std::string& setting)
{
    const auto& wanted = call.desired.pfc_priorities;
    pv1::QosSettingReport r;
    r.setting = setting;
    r.desired = describePriorities(wanted);
    const fs::path dir = ecn / point / "enable";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        r.observed = "unsupported";
        r.compliant = true;
        return r;
    }
    std::vector<uint8_t> enabled;
    auto fail = [&](const pv1::Status& s) {
        call.fail(s);
        r.error = r.error.empty() ? s.message : r.error;
        r.compliant = false;
        return r;
    };
    if (auto s = readEnabled(dir, wanted, enabled); !s)
        return fail(s);
    r.observed = describePriorities(enabled);
    r.compliant = covers(enabled, wanted);
    if (!call.apply || r.compliant)
        return r;
    call.logChange(where(call, netdev) + " " + setting + " " + r.observed + " -> enable " +
                   r.desired);
    r.changed = true;
    if (!call.writes())
        return r;
    for (auto p : wanted)
        if (std::find(enabled.begin(), enabled.end(), p) == enabled.end())
            if (auto s = writeKnob(knobHost(call.host), dir / std::to_string(p), "1\n"); !s)
                fail(s);
    if (auto s = readEnabled(dir, wanted, enabled); !s) {
        r.observed.clear();
        return fail(s);
    }
    r.observed = describePriorities(enabled);
    r.compliant = covers(enabled, wanted);
    return r;
}

// A CNP marking value (cnp_dscp, cnp_802p_prio): set only when configured.
pv1::QosSettingReport cnpSetting(QosCall& call, const fs::path& ecn, const char* file_name,
                                 const std::string& setting, uint8_t want)
{
    const fs::path file = ecn / "roce_np" / file_name;
    std::error_code ec;
    if (!fs::exists(file, ec))
        return {setting, std::to_string(want), "unsupported", true, false, ""};
    auto read = [&](std::optional<uint8_t>& out) {
        std::string text;
        auto s = readSmallFile(file, text);
        if (!s)
            return s;
        auto v = parseNumber(text);
        if (!v || *v > 255)
            return pv1::Status::fail(
                pv1::Errc::Io, file.string() + (text.empty() ? ": empty read (a firmware error)"
                                                             : ": unexpected '" + text + "'"));
        out = static_cast<uint8_t>(*v);
        return s;
    };
    auto write = [&](uint8_t v) {
        return writeKnob(knobHost(call.host), file, std::to_string(v) + "\n");
    };
    return scalarSetting(call, setting, want, read, write);
}

} // namespace

std::optional<bool> parseEcnEnable(std::string_view text)
{
    auto v = parseNumber(text);
    if (!v)
        return std::nullopt;
    return (*v & 1U) != 0;
}

std::vector<pv1::QosSettingReport> ecnSettings(QosCall& call,
                                               const std::vector<std::string>& netdevs)
{
    // The ECN fields came with ABI 1.2: an older daemon's QosDesired does not have them.
    if (call.host.abiMinor() < 2 || !call.desired.ecn || netdevs.empty())
        return {};
    using Part = std::vector<std::pair<std::string, pv1::QosSettingReport>>;
    Part np, rp, dscp, prio;
    for (const auto& nd : netdevs) {
        const fs::path ecn = fs::path(call.host.root()) / "sys/class/net" / nd / "ecn";
        np.emplace_back(nd, enableSetting(call, ecn, nd, "roce_np", "ecn_np"));
        rp.emplace_back(nd, enableSetting(call, ecn, nd, "roce_rp", "ecn_rp"));
        if (call.desired.cnp_dscp)
            dscp.emplace_back(
                nd, cnpSetting(call, ecn, "cnp_dscp", "cnp_dscp", *call.desired.cnp_dscp));
        if (call.desired.cnp_priority)
            prio.emplace_back(nd, cnpSetting(call, ecn, "cnp_802p_prio", "cnp_priority",
                                             *call.desired.cnp_priority));
    }
    std::vector<pv1::QosSettingReport> out{mergeReports(np), mergeReports(rp)};
    for (const auto* part : {&dscp, &prio})
        if (!part->empty())
            out.push_back(mergeReports(*part));
    return out;
}

} // namespace nicd::mlx5
