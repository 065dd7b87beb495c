#include "provision/qos_tracker.hpp"

#include "log/log.hpp"
#include "model/device_keys.hpp"

#include <algorithm>

namespace nicd::provision {

namespace {

const char* modeName(ProvisionMode m)
{
    switch (m) {
    case ProvisionMode::Enforce:
        return "enforce";
    case ProvisionMode::Verify:
        return "verify";
    case ProvisionMode::Off:
        return "off";
    }
    return "unknown";
}

const QosSettingState* findSetting(const PortQosState& p, const std::string& setting)
{
    for (const auto& s : p.settings)
        if (s.setting == setting)
            return &s;
    return nullptr;
}

} // namespace

std::string portStatus(const PortOutcome& o)
{
    if (!o.error.empty())
        return "error: " + o.error;
    const auto& s = o.report.settings;
    if (s.empty())
        return "unknown";
    bool all = std::all_of(s.begin(), s.end(), [](const auto& r) { return r.compliant; });
    return all ? "compliant" : "noncompliant";
}

void QosTracker::setConfig(const Config& config)
{
    summary_.mode = modeName(config.provision.settings.mode);
    summary_.dry_run = config.provision.dry_run;
}

void QosTracker::forgetMissing(const Inventory& inventory)
{
    std::erase_if(summary_.ports,
                  [&](const auto& kv) { return inventory.find(kv.first.first) == nullptr; });
    // The counts since start stay for a device that went away, not for one now ignored: that one
    // is on no sink at all.
    if (inventory.ignored.empty())
        return;
    auto ignored = [&](const auto& kv) {
        return std::any_of(
            inventory.ignored.begin(), inventory.ignored.end(),
            [&](const IgnoredDevice& ig) { return ig.ibdev == std::get<0>(kv.first); });
    };
    std::erase_if(summary_.changes_total, ignored);
    std::erase_if(summary_.errors_total, ignored);
}

void QosTracker::rename(const std::string& from, const std::string& to)
{
    moveDeviceKeys(summary_.ports, from, to);
    moveDeviceKeys(summary_.changes_total, from, to);
    moveDeviceKeys(summary_.errors_total, from, to);
}

bool QosTracker::record(const Round& round, double now_real)
{
    ++summary_.rounds_total[toString(round.kind)];
    bool drifted = false;
    size_t failed = 0;
    std::map<std::pair<std::string, uint32_t>, PortQosState> ports;
    for (const auto& o : round.ports) {
        const auto key = std::make_pair(o.plan.device, o.plan.port);
        log::Fields where{.device = o.plan.device, .port = o.plan.port};
        PortQosState st;
        st.managed = o.plan.managed;
        const PortQosState* before = nullptr;
        if (auto it = summary_.ports.find(key); it != summary_.ports.end())
            before = &it->second;
        if (!o.attempted) {
            st.status = o.plan.reason.rfind("waiting:", 0) == 0 ? o.plan.reason
                                                                : "skipped: " + o.plan.reason;
            if (!before || before->status != st.status)
                log::info(where, "QoS {} port {}: {}", o.plan.device, o.plan.port, st.status);
            ports[key] = std::move(st);
            continue;
        }
        st.status = portStatus(o);
        st.verified_seconds = now_real;
        st.lldp_agent = o.report.lldp_agent;
        for (const auto& r : o.report.settings) {
            st.settings.push_back(
                {r.setting, r.desired, r.observed, r.compliant, r.error, false, ""});
            // What the round before found of it.
            const QosSettingState* was = before ? findSetting(*before, r.setting) : nullptr;
            bool rewritten = r.changed && o.applied && round.kind == RoundKind::Apply;
            if (rewritten && r.error.empty()) {
                st.settings.back().repaired = true;
                st.settings.back().was = was ? was->observed : "";
            }
            auto id = std::make_tuple(o.plan.device, o.plan.port, r.setting);
            if (rewritten)
                ++summary_.changes_total[id];
            if (!r.error.empty())
                ++summary_.errors_total[id];
            // Drift: compliant last time, and now either found different or re-written.
            if (was && was->compliant && (!r.compliant || rewritten)) {
                drifted = drifted || !rewritten;
                if (rewritten)
                    log::warn(where,
                              "QoS drift on {} port {}: {} was changed outside nicd; set back to "
                              "{}",
                              o.plan.device, o.plan.port, r.setting, r.desired);
                else
                    log::warn(where,
                              "QoS drift on {} port {}: {} is {}, want {} (changed outside nicd)",
                              o.plan.device, o.plan.port, r.setting,
                              r.observed.empty() ? "unknown" : r.observed, r.desired);
            }
        }
        if (!o.error.empty()) {
            ++failed;
            if (!before || before->status != st.status)
                log::error(where, "QoS {} on {} port {} failed: {}", toString(round.kind),
                           o.plan.device, o.plan.port, o.error);
            summary_
                .errors_total[std::make_tuple(o.plan.device, o.plan.port, std::string("port"))]++;
        } else if (st.status == "noncompliant" && (!before || before->status != st.status)) {
            std::string which;
            for (const auto& s : st.settings)
                if (!s.compliant)
                    which += (which.empty() ? "" : ", ") + s.setting + " is " +
                             (s.observed.empty() ? "unknown" : s.observed) + " (want " + s.desired +
                             ")";
            log::warn(where, "QoS on {} port {} is not compliant: {}", o.plan.device, o.plan.port,
                      which);
        } else if (st.status == "compliant" && before && before->status != "compliant") {
            log::info(where, "QoS on {} port {} is compliant", o.plan.device, o.plan.port);
        }
        ports[key] = std::move(st);
    }
    summary_.ports = std::move(ports);
    if (round.kind != RoundKind::Verify) {
        bool any_apply = std::any_of(round.ports.begin(), round.ports.end(),
                                     [](const PortOutcome& o) { return o.applied; });
        if (any_apply) {
            summary_.last_apply_seconds = now_real;
            summary_.last_apply_result = round.kind == RoundKind::DryRun ? "dry-run"
                                         : failed > 0
                                             ? "failed: " + std::to_string(failed) + " port(s)"
                                             : "ok";
        }
    }
    return drifted;
}

} // namespace nicd::provision
