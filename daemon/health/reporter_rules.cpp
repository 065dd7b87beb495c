#include "health/reporter_rules.hpp"

#include "health/verdicts.hpp"
#include "prefailure/devlink_health.hpp"

#include <fmt/format.h>

#include <iterator>
#include <string_view>

namespace nicd::health {

namespace {

// What a reporter in error means (plugin ABI 1.6, ReporterMeaning): a fatal firmware error, a
// firmware problem the device runs on with, or a part the driver could not recover.
struct ReporterVerdict {
    std::string_view code; // empty: devlink_reporter.<name>
    ConditionSeverity severity;
    const char* advice;
    Action action;
};

constexpr ReporterVerdict kFirmwareFatal{
    "firmware_fatal", ConditionSeverity::Fatal,
    "the firmware hit a fatal error: drain the node and reset the NIC (devlink dev reload, or the "
    "vendor's firmware reset tool); replace it if it recurs",
    Action::ResetNic};
constexpr ReporterVerdict kFirmwareError{
    "firmware_error", ConditionSeverity::Degraded,
    "the firmware reports a problem (a health syndrome or a stalled health counter): update the "
    "firmware, or reset the NIC",
    Action::UpdateFirmware};
constexpr ReporterVerdict kRecoverable{"", ConditionSeverity::Degraded,
                                       "the driver could not recover a queue: reset the NIC",
                                       Action::ResetNic};

// The plugin's word for the reporter; without one, devlink's common names: fw_fatal a fatal
// firmware error, fw a firmware problem, any other a queue.
const ReporterVerdict& verdictOf(const ReporterMeanings* meanings, const std::string& plugin,
                                 const std::string& name)
{
    auto meaning = ReporterMeaning::Unknown;
    if (meanings != nullptr)
        if (auto p = meanings->find(plugin); p != meanings->end())
            if (auto r = p->second.find(name); r != p->second.end())
                meaning = r->second;
    switch (meaning) {
    case ReporterMeaning::FirmwareFatal:
        return kFirmwareFatal;
    case ReporterMeaning::FirmwareError:
        return kFirmwareError;
    case ReporterMeaning::Recoverable:
        return kRecoverable;
    case ReporterMeaning::Unknown:
        break;
    }
    return name == "fw_fatal" ? kFirmwareFatal : name == "fw" ? kFirmwareError : kRecoverable;
}

std::string codeOf(const ReporterVerdict& v, const std::string& name)
{
    return v.code.empty() ? "devlink_reporter." + name : std::string(v.code);
}

Condition reporterCondition(const HealthReporter& r, const ReporterVerdict& v,
                            const std::string& ibdev)
{
    return signalCondition(codeOf(v, r.name), v.severity, ibdev, 0,
                           fmt::format("devlink health reporter {} of {} is in {} ({} errors, {} "
                                       "recovered)",
                                       r.name, r.handle, r.state, r.errors, r.recovers),
                           v.advice, v.action);
}

} // namespace

void ReporterRules::evaluate(const Snapshot& snap, const Config& config, double /*now_mono*/,
                             double now_real, ConditionSet& conditions, std::vector<Event>& out)
{
    std::map<std::string_view, const Device*, std::less<>> by_pci;
    for (const auto& d : snap.inventory.devices)
        if (!d.pci_address.empty())
            by_pci.emplace(d.pci_address, &d);
    Verdicts v;
    std::map<std::string, std::pair<uint64_t, uint64_t>> counts;
    for (const auto& r : snap.reporters) {
        auto dev = by_pci.find(prefailure::pciAddressView(r.handle));
        if (dev == by_pci.end() || !config.signals.enable)
            continue;
        const auto& ibdev = dev->second->ibdev;
        const auto& verdict = verdictOf(snap.reporter_meanings.get(), dev->second->plugin, r.name);
        v.judged(ibdev, 0);
        auto key = r.handle + "|" + r.name;
        counts[key] = {r.errors, r.recovers};
        auto prev = counts_.find(key);
        // Conditions are built only when one is raised: most reporters are healthy every cycle.
        if (!r.healthy) {
            v.raise(reporterCondition(r, verdict, ibdev));
        } else if (prev != counts_.end() && r.errors > prev->second.first) {
            auto c = reporterCondition(r, verdict, ibdev);
            if (conditions.contains(keyOf(c)))
                continue;
            // Reported and recovered between two reads.
            c.message =
                fmt::format("devlink health reporter {} of {}: {} new error(s) ({} "
                            "errors, {} recovered)",
                            r.name, r.handle, r.errors - prev->second.first, r.errors, r.recovers);
            auto k = keyOf(c);
            conditions.raise(std::move(c), now_real, out);
            conditions.recover(k, "the driver recovered it before the next read", now_real, out);
        }
    }
    for (auto& [key, value] : counts) // a reporter not read this time keeps its counts
        counts_[key] = value;
    v.apply(
        conditions,
        [](const std::string& code) {
            return code == "firmware_fatal" || code == "firmware_error" ||
                   code.starts_with("devlink_reporter.");
        },
        [](const Condition&) { return std::string("the reporter is healthy again"); }, now_real,
        out);
}

} // namespace nicd::health
