#include "health/reporter_rules.hpp"

#include "health/verdicts.hpp"
#include "prefailure/devlink_health.hpp"
#include "text/clock_time.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
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
constexpr ReporterVerdict kFirmwareResetting{
    "firmware_resetting", ConditionSeverity::Degraded,
    "the driver is resetting the firmware: wait for it; if it is not back by then, drain the "
    "node and reset the NIC",
    Action::ResetNic};
constexpr ReporterVerdict kRecoverable{"", ConditionSeverity::Degraded,
                                       "the driver could not recover a queue: reset the NIC",
                                       Action::ResetNic};
// A reporter whose name says firmware ("fw", "fw_hang") on a device no plugin describes.
constexpr ReporterVerdict kUndescribedFirmware{
    "", ConditionSeverity::Degraded,
    "the driver reports its firmware in error and no plugin describes this driver's reporters: "
    "reset the NIC; update its firmware if it recurs",
    Action::ResetNic};
// Any other reporter of a device no plugin describes.
constexpr ReporterVerdict kUndescribed{
    "", ConditionSeverity::Degraded,
    "the driver reports this part in error and no plugin describes this driver's reporters: "
    "reset the NIC",
    Action::ResetNic};

// What the plugin of the reporter's device says the reporter means; nullopt when no plugin
// claims the device, Unknown when its plugin says nothing of the reporter.
std::optional<ReporterMeaning> meaningOf(const ReporterMeanings* meanings, const Device& dev,
                                         const std::string& name)
{
    const std::string& plugin = dev.plugin.empty() ? dev.claimed_by : dev.plugin;
    if (plugin.empty())
        return std::nullopt;
    if (meanings != nullptr)
        if (auto p = meanings->find(plugin); p != meanings->end())
            if (auto r = p->second.find(name); r != p->second.end())
                return r->second;
    return ReporterMeaning::Unknown;
}

// The verdict of a reporter in error. Described by the device's plugin: as it says. Not
// described: `fw_fatal` says what it is; the queues the kernel's drivers name `tx` and `rx` are
// parts the driver could not recover; a name that says firmware is the firmware; any other is
// said as what it is, a part of the driver's in error.
const ReporterVerdict& verdictOf(std::optional<ReporterMeaning> meaning, const std::string& name)
{
    switch (meaning.value_or(ReporterMeaning::Unknown)) {
    case ReporterMeaning::FirmwareFatal:
    case ReporterMeaning::FirmwareReset: // once it stays in error: see evaluate()
        return kFirmwareFatal;
    case ReporterMeaning::FirmwareError:
        return kFirmwareError;
    case ReporterMeaning::Recoverable:
        return kRecoverable;
    case ReporterMeaning::Unknown:
        break;
    }
    if (name == "fw_fatal")
        return kFirmwareFatal;
    if (name == "tx" || name == "rx")
        return kRecoverable;
    return name.starts_with("fw") ? kUndescribedFirmware : kUndescribed;
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

bool isReporterCode(const std::string& code)
{
    return code == "firmware_fatal" || code == "firmware_error" || code == "firmware_resetting" ||
           code.starts_with("devlink_reporter.");
}

} // namespace

void ReporterRules::evaluate(const Snapshot& snap, double /*now_mono*/, double now_real,
                             ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    std::map<std::string_view, const Device*, std::less<>> by_pci;
    for (const auto& d : snap.inventory.devices)
        if (!d.pci_address.empty())
            by_pci.emplace(d.pci_address, &d);
    const double reset_seconds = config.signals.firmware_reset_ms / 1000.0;
    Verdicts v;
    std::map<std::string, std::pair<uint64_t, uint64_t>> counts;
    for (const auto& r : snap.reporters) {
        auto dev = by_pci.find(prefailure::pciAddressView(r.handle));
        if (dev == by_pci.end() || !config.signals.enable)
            continue;
        const auto& ibdev = dev->second->ibdev;
        const auto meaning = meaningOf(snap.reporter_meanings.get(), *dev->second, r.name);
        v.judged(ibdev, 0);
        auto key = r.handle + "|" + r.name;
        counts[key] = {r.errors, r.recovers};
        auto prev = counts_.find(key);
        if (r.healthy)
            error_since_.erase(key);
        // Conditions are built only when one is raised: most reporters are healthy every cycle.
        if (!r.healthy) {
            const auto since = error_since_.try_emplace(key, now_real).first->second;
            // The driver is resetting the firmware: fatal only once the reset has not brought it
            // back in the time a reset takes; until then it is said, with when it turns fatal.
            if (meaning == ReporterMeaning::FirmwareReset && now_real - since < reset_seconds) {
                auto c = reporterCondition(r, kFirmwareResetting, ibdev);
                c.message += fmt::format(" since {}: its driver resets the firmware; "
                                         "firmware_fatal at {} if it is still in error",
                                         utcClock(since), utcClock(since + reset_seconds));
                v.raise(std::move(c));
                continue;
            }
            v.raise(reporterCondition(r, verdictOf(meaning, r.name), ibdev));
        } else if (prev != counts_.end() && r.errors > prev->second.first) {
            // Reported and recovered between two reads. A firmware reset that brought the
            // firmware back is an event to note, not a fatal one.
            const auto& verdict = meaning == ReporterMeaning::FirmwareReset
                                      ? kRecoverable
                                      : verdictOf(meaning, r.name);
            auto c = reporterCondition(r, verdict, ibdev);
            if (conditions.contains(keyOf(c)))
                continue;
            c.message =
                fmt::format("devlink health reporter {} of {}: {} new error(s) ({} "
                            "errors, {} recovered)",
                            r.name, r.handle, r.errors - prev->second.first, r.errors, r.recovers);
            if (meaning == ReporterMeaning::FirmwareReset)
                c.advice = "the driver reset the firmware and it came back: watch for repeats";
            auto k = keyOf(c);
            conditions.raise(std::move(c), now_real, out);
            conditions.recover(k, "the driver recovered it before the next read", now_real, out);
        }
    }
    for (auto& [key, value] : counts) // a reporter not read this time keeps its counts
        counts_[key] = value;
    v.apply(
        conditions, isReporterCode,
        [&](const Condition& c) {
            return c.code == "firmware_resetting" &&
                           conditions.contains({c.device, 0, std::string("firmware_fatal")})
                       ? std::string("the reset did not bring the firmware back in time "
                                     "(firmware_fatal)")
                       : std::string("the reporter is healthy again");
        },
        now_real, out);
}

void ReporterRules::appendJson(std::string& out) const
{
    if (error_since_.empty()) { // as an older nicd wrote it: it reads this back
        appendJsonText(out, counts_);
        return;
    }
    out += "{";
    appendJsonKey(out, "counts");
    appendJsonText(out, counts_);
    out += ",";
    appendJsonKey(out, "error_since");
    appendJsonText(out, error_since_);
    out += "}";
}

void ReporterRules::restore(const nlohmann::json& j)
{
    using Counts = std::map<std::string, std::pair<uint64_t, uint64_t>>;
    error_since_.clear();
    if (!j.contains("counts")) { // the counts alone, as written before
        counts_ = getIntegers<Counts>(j);
        return;
    }
    counts_ = getIntegers<Counts>(j.at("counts"));
    if (!j.at("error_since").is_object())
        throw std::runtime_error("error_since is not an object");
    for (const auto& [key, since] : j.at("error_since").items())
        if (since.is_number() && std::isfinite(since.get<double>()))
            error_since_[key] = since.get<double>();
}

} // namespace nicd::health
