#include "replies.hpp"

#include <fmt/format.h>

#include <ctime>

namespace nicctl {

std::string isoTime(uint64_t usec)
{
    if (usec == 0)
        return "-";
    time_t t = static_cast<time_t>(usec / 1'000'000);
    tm utc{};
    gmtime_r(&t, &utc);
    char buf[32];
    if (strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
        return "-";
    return buf;
}

namespace {

std::string where(const std::string& device, uint32_t port)
{
    if (device.empty())
        return "node";
    return port == 0 ? device : fmt::format("{}/{}", device, port);
}

// What the switch advertises for the row's setting; "" when nothing.
std::string switchValueOf(const SwitchValues& values, const QosResultRow& r)
{
    auto port = values.find({r.device, r.port});
    if (port == values.end())
        return "";
    auto it = port->second.find(r.setting);
    return it == port->second.end() ? "" : it->second;
}

} // namespace

std::string formatEvent(const EventRow& e)
{
    auto line = fmt::format("{} #{} {} {} {} {}: {}", isoTime(e.time_usec), e.seq, e.severity,
                            e.kind, where(e.device, e.port), e.code, e.message);
    if (e.kind == "raised" && !e.action.empty() && e.action != "none")
        line += " -> " + e.action;
    return line;
}

nlohmann::json eventJson(const EventRow& e)
{
    return {{"seq", e.seq},           {"time_usec", e.time_usec}, {"kind", e.kind},
            {"severity", e.severity}, {"device", e.device},       {"port", e.port},
            {"code", e.code},         {"message", e.message},     {"action", e.action}};
}

std::string renderQosRows(const std::vector<QosResultRow>& rows, bool dry_run,
                          const SwitchValues& switch_values)
{
    std::string out;
    size_t w_where = 4, w_setting = 7, w_desired = 7, w_observed = 8, w_switch = 6;
    for (const auto& r : rows) {
        w_where = std::max(w_where, where(r.device, r.port).size());
        w_setting = std::max(w_setting, r.setting.size());
        w_desired = std::max(w_desired, r.desired.size());
        w_observed = std::max(w_observed, r.observed.size());
        w_switch = std::max(w_switch, switchValueOf(switch_values, r).size());
    }
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}} {}\n", "PORT", w_where, "SETTING",
                       w_setting, "DESIRED", w_desired, "OBSERVED", w_observed, "SWITCH", w_switch,
                       "RESULT");
    size_t compliant = 0, unsupported = 0, changed = 0, failed = 0;
    for (const auto& r : rows) {
        const auto word = qosResultOf(r);
        std::string result(word);
        if (r.changed)
            result += dry_run ? ", would change" : ", changed";
        if (!r.error.empty())
            result += ", error: " + r.error;
        compliant += word == "compliant";
        unsupported += word == kQosUnsupported;
        changed += r.changed;
        failed += !r.error.empty();
        const std::string sw = switchValueOf(switch_values, r);
        out += fmt::format("{:<{}} {:<{}} {:<{}} {:<{}} {:<{}} {}\n", where(r.device, r.port),
                           w_where, r.setting, w_setting, r.desired, w_desired,
                           r.observed.empty() ? "-" : r.observed, w_observed, sw.empty() ? "-" : sw,
                           w_switch, result);
    }
    // An unsupported setting is its own result: the NIC gives nicd no interface for it.
    out += fmt::format("\n{} settings: {} compliant, {}{} {}, {} with errors.\n", rows.size(),
                       compliant,
                       unsupported ? fmt::format("{} unsupported by the NIC, ", unsupported) : "",
                       changed, dry_run ? "would change" : "changed", failed);
    return out;
}

nlohmann::json qosRowsJson(const std::vector<QosResultRow>& rows, const SwitchValues& switch_values)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : rows) {
        const std::string sw = switchValueOf(switch_values, r);
        out.push_back({{"device", r.device},
                       {"port", r.port},
                       {"setting", r.setting},
                       {"desired", r.desired},
                       {"observed", r.observed},
                       {"compliant", r.compliant},
                       {"result", std::string(qosResultOf(r))},
                       {"changed", r.changed},
                       {"error", r.error},
                       {"switch", sw.empty() ? nlohmann::json(nullptr) : nlohmann::json(sw)}});
    }
    return out;
}

int qosExitCode(const std::vector<QosResultRow>& rows, bool dry_run)
{
    int code = 0;
    for (const auto& r : rows) {
        if (!r.error.empty())
            return 2;
        if (qosResultOf(r) == "noncompliant" && !(dry_run && r.changed))
            code = 1; // unsupported: nothing nicd or a rerun can change
    }
    return code;
}

std::string renderDeviceCounters(const std::string& name, const DeviceCounters& counters)
{
    std::string out;
    if (!counters.device.empty())
        out += name + ":\n" + renderCounters(counters.device);
    for (const auto& [port, values] : counters.ports) {
        out += (out.empty() ? "" : "\n") + fmt::format("{}/{}:\n", name, port);
        out += values.empty() ? "  (none read yet)\n" : renderCounters(values);
    }
    if (out.empty())
        out = name + ": no counters read yet\n";
    return out;
}

nlohmann::json deviceCountersJson(const DeviceCounters& counters)
{
    nlohmann::json ports = nlohmann::json::object();
    for (const auto& [port, values] : counters.ports)
        ports[std::to_string(port)] = values;
    return {{"device", counters.device}, {"ports", ports}};
}

std::string renderConfiguration(const std::vector<std::array<std::string, 4>>& rows)
{
    size_t w = 0;
    for (const auto& [section, key, value, source] : rows)
        w = std::max(w, key.size() + 1 + value.size());
    std::string out;
    std::string current;
    for (const auto& [section, key, value, source] : rows) {
        if (section != current) {
            out += (out.empty() ? "[" : "\n[") + section + "]\n";
            current = section;
        }
        out += fmt::format("{:<{}}  # {}\n", key + "=" + value, w, source);
    }
    return out;
}

nlohmann::json configurationJson(const std::vector<std::array<std::string, 4>>& rows)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [section, key, value, source] : rows)
        out.push_back({{"section", section}, {"key", key}, {"value", value}, {"source", source}});
    return out;
}

std::map<std::string, double> counterRates(const std::map<std::string, uint64_t>& before,
                                           const std::map<std::string, uint64_t>& after,
                                           double seconds)
{
    std::map<std::string, double> out;
    if (!(seconds > 0))
        return out;
    for (const auto& [name, value] : after)
        if (auto it = before.find(name); it != before.end() && value > it->second)
            out[name] = static_cast<double>(value - it->second) / seconds;
    return out;
}

std::string renderRates(const std::map<std::string, double>& rates, size_t unchanged)
{
    size_t w = 0;
    for (const auto& [name, _] : rates)
        w = std::max(w, name.size());
    std::string out;
    for (const auto& [name, rate] : rates)
        out += fmt::format("{:<{}} {:.6g}/s\n", name, w, rate);
    if (unchanged > 0)
        out += fmt::format("({} counter{} did not change)\n", unchanged, unchanged == 1 ? "" : "s");
    return out;
}

std::string renderCounters(const std::map<std::string, uint64_t>& counters)
{
    size_t w = 0;
    for (const auto& [name, _] : counters)
        w = std::max(w, name.size());
    std::string out;
    for (const auto& [name, value] : counters)
        out += fmt::format("{:<{}} {}\n", name, w, value);
    return out;
}

} // namespace nicctl
