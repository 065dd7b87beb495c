#include "health/kernel_rules.hpp"

#include "health/json_integers.hpp"
#include "health/verdicts.hpp"
#include "log/log.hpp"

#include <fmt/format.h>

namespace nicd::health {

namespace {

nlohmann::json keyJson(const ConditionKey& k)
{
    return {std::get<0>(k), std::get<1>(k), std::get<2>(k)};
}
ConditionKey keyFrom(const nlohmann::json& j)
{
    return {j.at(0).get<std::string>(), getIntegers<uint32_t>(j.at(1)), j.at(2).get<std::string>()};
}
} // namespace

namespace {

const Device* byPci(std::string_view pci, const Inventory& inv)
{
    for (const auto& d : inv.devices)
        if (d.pci_address == pci)
            return &d;
    return nullptr;
}

bool beneath(const Device& d, std::string_view port)
{
    return d.pci_path.find("/" + std::string(port) + "/") != std::string::npos;
}

// The device below an upstream port (AER, DPC): the one the report names, else the first that is
// not a VF.
const Device* belowPort(std::string_view port, std::string_view named, const Inventory& inv)
{
    if (!named.empty())
        if (const Device* d = byPci(named, inv); d != nullptr && beneath(*d, port))
            return d;
    for (const auto& d : inv.devices)
        if (d.function != DeviceFunction::VirtualFunction && beneath(d, port))
            return &d;
    return nullptr;
}

const Device* byNetdev(const std::string& netdev, const Inventory& inv)
{
    const Device* member = nullptr;
    for (const auto& d : inv.devices) {
        if (d.bond_master == netdev) {
            if (d.function == DeviceFunction::Lag)
                return &d;
            member = member ? member : &d;
        }
        for (const auto& p : d.ports)
            for (const auto& nd : p.netdevs)
                if (nd == netdev)
                    return &d;
    }
    return member;
}

} // namespace

const Device* deviceForKernelLine(const KernelFinding& f, const Inventory& inv)
{
    const auto& m = f.match;
    const auto& o = f.origin;
    if (!o.deviceLess()) {
        if (o.subsystem == "pci") {
            if (const Device* d = byPci(o.device, inv))
                return d;
            return belowPort(o.device, m.pci_address, inv);
        }
        if (o.subsystem == "infiniband")
            return inv.find(o.device);
        return nullptr;
    }
    if (!m.pci_address.empty()) {
        if (const Device* d = byPci(m.pci_address, inv))
            return d;
        return belowPort(m.pci_address, {}, inv);
    }
    if (!m.netdev.empty())
        return byNetdev(m.netdev, inv);
    return nullptr;
}

void KernelRules::hold(const ConditionKey& key, const HealthConfig& config, double now_mono)
{
    if (config.kernel_hold_sec > 0)
        expiry_[key] = now_mono + config.kernel_hold_sec;
    else
        expiry_.erase(key);
}

// The plugin's action code where it gives a known one, else by severity. A line that became fatal
// by repeating (a queue that keeps timing out) calls for the NIC to be reset.
Action kernelAction(const plugin::v1::KernelLineMatch& m, bool fatal)
{
    auto a = parseAction(m.action_code);
    if (!a)
        a = m.severity == plugin::v1::Severity::Fatal ? Action::ResetNic : Action::None;
    if (fatal && *a == Action::None)
        a = Action::ResetNic;
    return *a;
}

void KernelRules::kernelLine(const KernelFinding& f, const Inventory& inv, double now_mono,
                             double now_real, ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& full_config = this->config();
    const HealthConfig& config = full_config.health;
    const auto& m = f.match;
    const Device* d = deviceForKernelLine(f, inv);
    if (d == nullptr) {
        ++unmapped_;
        log::debug({}, "kernel error {} for a device nicd does not know ({}{}), counted only",
                   m.code, f.origin.deviceLess() ? "" : f.origin.subsystem + ":" + f.origin.device,
                   f.origin.deviceLess() ? m.pci_address + m.netdev : "");
        return;
    }
    ConditionKey key{d->ibdev, 0, "kernel." + m.code};
    ++counts_[{d->ibdev, m.code}];
    auto& hits = hits_[key];
    hits.push_back(now_mono);
    while (!hits.empty() && hits.front() < now_mono - config.kernel_repeat_window_sec)
        hits.pop_front();
    bool fatal = m.severity == plugin::v1::Severity::Fatal;
    std::string message = m.message;
    if (!fatal && config.kernel_repeat_count > 0 && hits.size() >= config.kernel_repeat_count) {
        fatal = true;
        message +=
            fmt::format(" ({} times within {} s)", hits.size(), config.kernel_repeat_window_sec);
    }
    // An escalated condition stays fatal for as long as it holds.
    if (const auto* active = conditions.find(key);
        active && active->severity == ConditionSeverity::Fatal)
        fatal = true;
    hold(key, config, now_mono);
    conditions.raise(makeCondition(ConditionSource::Kernel, std::get<2>(key),
                                   fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded,
                                   d->ibdev, 0,
                                   message + (m.netdev.empty() ? "" : " on " + m.netdev), m.action,
                                   kernelAction(m, fatal)),
                     now_real, out);
}

void KernelRules::kernelReport(const KernelReportFinding& f, const Inventory& inv, double now_mono,
                               double now_real, ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& full_config = this->config();
    const HealthConfig& config = full_config.health;
    const auto& m = f.match;
    const bool fatal = m.severity == plugin::v1::Severity::Fatal;
    bool any = false;
    for (const auto& d : inv.devices) {
        if (f.plugin.empty() || d.plugin != f.plugin ||
            d.function == DeviceFunction::VirtualFunction)
            continue;
        any = true;
        ConditionKey key{d.ibdev, 0, "kernel." + m.code};
        ++counts_[{d.ibdev, m.code}];
        hold(key, config, now_mono);
        conditions.raise(
            makeCondition(ConditionSource::Kernel, std::get<2>(key),
                          fatal ? ConditionSeverity::Fatal : ConditionSeverity::Degraded, d.ibdev,
                          0, m.message, m.action, kernelAction(m, fatal)),
            now_real, out);
    }
    if (!any) {
        ++unmapped_;
        log::warn({}, "{} (recognised by plugin {}), but the plugin manages no device: {}", m.code,
                  f.plugin, m.message);
    }
}

void KernelRules::evaluate(const Snapshot& /*snap*/, double now_mono, double now_real,
                           ConditionSet& conditions, std::vector<Event>& out)
{
    const Config& config = this->config();
    for (auto it = expiry_.begin(); it != expiry_.end();) {
        if (it->second > now_mono) {
            ++it;
            continue;
        }
        auto key = it->first;
        it = expiry_.erase(it);
        conditions.recover(
            key, fmt::format("no repeat within KernelHoldSec={}", config.health.kernel_hold_sec),
            now_real, out);
    }
}

void KernelRules::rename(const std::string& from, const std::string& to)
{
    moveDeviceKeys(hits_, from, to);
    moveDeviceKeys(expiry_, from, to);
    moveDeviceKeys(counts_, from, to);
}

void KernelRules::cleared(const std::string& device, const std::string& code)
{
    auto same = [&](const auto& kv) {
        return std::get<0>(kv.first) == device && std::get<2>(kv.first) == code;
    };
    std::erase_if(hits_, same);
    std::erase_if(expiry_, same);
}

void KernelRules::forget()
{
    hits_.clear();
    expiry_.clear();
    counts_.clear();
    unmapped_ = 0;
}

void KernelRules::annotate(HealthReport& report) const
{
    report.kernel_errors = counts_;
    report.kernel_errors_unmapped = unmapped_;
}

void KernelRules::appendJson(std::string& out) const
{
    auto hits = nlohmann::json::array();
    for (const auto& [k, times] : hits_)
        hits.push_back({{"key", keyJson(k)}, {"times", times}});
    auto expiry = nlohmann::json::array();
    for (const auto& [k, t] : expiry_)
        expiry.push_back({{"key", keyJson(k)}, {"at", t}});
    auto counts = nlohmann::json::array();
    for (const auto& [k, n] : counts_)
        counts.push_back({k.first, k.second, n});
    appendJsonText(out, {{"hits", std::move(hits)},
                         {"expiry", std::move(expiry)},
                         {"counts", std::move(counts)},
                         {"unmapped", unmapped_}});
}

void KernelRules::restore(const nlohmann::json& j)
{
    // Parsed aside first: a document that throws leaves this object as it was.
    decltype(hits_) hits;
    for (const auto& h : j.at("hits"))
        hits[keyFrom(h.at("key"))] = h.at("times").get<std::deque<double>>();
    decltype(expiry_) expiry;
    for (const auto& e : j.at("expiry"))
        expiry[keyFrom(e.at("key"))] = e.at("at").get<double>();
    decltype(counts_) counts;
    for (const auto& c : j.at("counts"))
        counts[{c.at(0).get<std::string>(), c.at(1).get<std::string>()}] =
            getIntegers<uint64_t>(c.at(2));
    const auto unmapped = getIntegers<uint64_t>(j.at("unmapped"));
    hits_ = std::move(hits);
    expiry_ = std::move(expiry);
    counts_ = std::move(counts);
    unmapped_ = unmapped;
}

} // namespace nicd::health
