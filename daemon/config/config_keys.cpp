#include "config/config_keys.hpp"

#include "config/firmware_values.hpp"
#include "config/key_table.hpp"
#include "config/prefailure_keys.hpp"
#include "config/value_parsers.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <utility>
#include <vector>

namespace nicd::config {

namespace {

// "…Sec=" keys stored in milliseconds.
Result<uint32_t> parseSecondsAsMs(std::string_view v, uint64_t min, uint64_t max)
{
    auto n = parseUint(v, min, max);
    if (!n)
        return n.error();
    return static_cast<uint32_t>(*n * 1000);
}

Result<std::string> parsePromPath(std::string_view v)
{
    auto p = parseAbsolutePath(v);
    if (p && p->ends_with(".prom") && p->size() > 6 && (*p)[p->size() - 6] != '/')
        return p;
    return Error{"expected an absolute path ending in .prom (node_exporter reads only *.prom)"};
}

// DriverReadyFile: a path, empty (never wait) or "auto" (each plugin's file where its directory
// exists).
Result<std::optional<std::string>> parseReadyFile(std::string_view v)
{
    auto t = trim(v);
    if (t == "auto")
        return std::optional<std::string>();
    if (t.empty())
        return std::optional<std::string>(std::string());
    auto p = parseAbsolutePath(t);
    if (!p)
        return Error{"expected an absolute path, empty (do not wait) or auto"};
    return std::optional<std::string>(*p);
}

// The settings [provision] holds and [device:<ibdev>] may override: the member names are the
// same in ProvisionSettings (plain values) and DeviceOverride (optional values).
template <typename T> Keys<T> settingKeys()
{
    return {
        {"Mode", [](T& t, auto v) { return assign(t.mode, parseProvisionMode(v)); }},
        {"Trust", [](T& t, auto v) { return assign(t.trust, parseTrustMode(v)); }},
        {"PfcPriorities",
         [](T& t, auto v) { return assign(t.pfc_priorities, parsePriorities(v)); }},
        {"RoceTos",
         [](T& t, auto v) { return assign(t.roce_tos, parseNumber<uint8_t>(v, 0, 255)); }},
        {"Ecn", [](T& t, auto v) { return assign(t.ecn, parseBool(v)); }},
        // Empty: left as it is (in [device:], inherited from [provision]).
        {"CnpDscp",
         [](T& t, auto v) {
             return v.empty() ? (t.cnp_dscp.reset(), Result<void>())
                              : assign(t.cnp_dscp, parseNumber<uint8_t>(v, 0, 63));
         }},
        {"CnpPriority",
         [](T& t, auto v) {
             return v.empty() ? (t.cnp_priority.reset(), Result<void>())
                              : assign(t.cnp_priority, parseNumber<uint8_t>(v, 0, 7));
         }},
    };
}

const Keys<DaemonConfig>& daemonKeys()
{
    static const Keys<DaemonConfig> keys{
        {"PluginDirectory",
         [](auto& c, auto v) { return assign(c.plugin_directory, parseAbsolutePath(v)); }},
        {"PollIntervalMs",
         [](auto& c, auto v) {
             return assign(c.poll_interval_ms, parseNumber<uint32_t>(v, 100, 3600000));
         }},
        {"PmaIntervalMs",
         [](auto& c, auto v) {
             return assign(c.pma_interval_ms, parseNumber<uint32_t>(v, 1000, 3600000));
         }},
        {"StateDirectory",
         [](auto& c, auto v) { return assign(c.state_directory, parseAbsolutePath(v)); }},
        {"IgnoreDevices",
         [](auto& c, auto v) { return assign(c.ignore_devices, parseDeviceSelectors(v)); }},
        {"DropCounterAfter",
         [](auto& c, auto v) {
             return assign(c.drop_counter_after, parseNumber<uint32_t>(v, 0, 1000));
         }},
    };
    return keys;
}

const Keys<TextfileConfig>& textfileKeys()
{
    static const Keys<TextfileConfig> keys{
        {"Enable", [](auto& c, auto v) { return assign(c.enable, parseBool(v)); }},
        {"Path", [](auto& c, auto v) { return assign(c.path, parsePromPath(v)); }},
        {"IntervalMs",
         [](auto& c, auto v) {
             return assign(c.interval_ms, parseNumber<uint32_t>(v, 0, 3600000));
         }},
        {"Counters", [](auto& c, auto v) { return assign(c.counters, parseTextfileCounters(v)); }},
    };
    return keys;
}

const Keys<ProvisionConfig>& provisionKeys()
{
    static const Keys<ProvisionConfig> keys = [] {
        Keys<ProvisionConfig> k;
        for (auto& [name, set] : settingKeys<ProvisionSettings>())
            k.emplace_back(name,
                           [set = set](ProvisionConfig& c, auto v) { return set(c.settings, v); });
        auto globs = [](std::vector<std::string> ProvisionConfig::*field) {
            return [field](ProvisionConfig& c, std::string_view v) {
                return assign(c.*field, parseGlobs(v));
            };
        };
        k.emplace_back("Bonds",
                       [](auto& c, auto v) { return assign(c.bonds, parseBondPolicy(v)); });
        k.emplace_back("DryRun", [](auto& c, auto v) { return assign(c.dry_run, parseBool(v)); });
        k.emplace_back("ExcludeDevices", globs(&ProvisionConfig::exclude_devices));
        k.emplace_back("ExcludeNetdevs", globs(&ProvisionConfig::exclude_netdevs));
        k.emplace_back("IncludeNetdevs", globs(&ProvisionConfig::include_netdevs));
        k.emplace_back("DriverReadyFile", [](auto& c, auto v) {
            return assign(c.driver_ready_file, parseReadyFile(v));
        });
        k.emplace_back("ReadyTimeoutSec", [](auto& c, auto v) {
            return assign(c.ready_timeout_ms, parseSecondsAsMs(v, 1, 86400));
        });
        k.emplace_back("VerifyIntervalSec", [](auto& c, auto v) {
            return assign(c.verify_interval_ms, parseSecondsAsMs(v, 5, 86400));
        });
        return k;
    }();
    return keys;
}

const Keys<JournalConfig>& journalKeys()
{
    static const Keys<JournalConfig> keys{
        {"Enable", [](auto& c, auto v) { return assign(c.enable, parseBool(v)); }},
    };
    return keys;
}

const Keys<HealthConfig>& healthKeys()
{
    auto count = [](uint32_t HealthConfig::*field, uint64_t min, uint64_t max) {
        return [=](HealthConfig& c, std::string_view v) {
            return assign(c.*field, parseNumber<uint32_t>(v, min, max));
        };
    };
    static const Keys<HealthConfig> keys{
        {"FlapCount", count(&HealthConfig::flap_count, 2, 1000)},
        {"FlapWindowSec", count(&HealthConfig::flap_window_sec, 1, 86400)},
        {"FlapMode",
         [](HealthConfig& c, std::string_view v) { return assign(c.flap_mode, parseFlapMode(v)); }},
        {"FlapDownSec", count(&HealthConfig::flap_down_sec, 1, 86400)},
        {"FlapClearSec", count(&HealthConfig::flap_clear_sec, 0, 31536000)},
        {"DropSec", count(&HealthConfig::drop_sec, 0, 86400)},
        {"DropHoldSec", count(&HealthConfig::drop_hold_sec, 0, 86400)},
        {"KernelRepeatCount", count(&HealthConfig::kernel_repeat_count, 2, 1000)},
        {"KernelRepeatWindowSec", count(&HealthConfig::kernel_repeat_window_sec, 1, 604800)},
        {"KernelHoldSec", count(&HealthConfig::kernel_hold_sec, 0, 31536000)},
        {"CongestionWindowSec", count(&HealthConfig::congestion_window_sec, 2, 86400)},
        {"CongestionPauseRatio",
         [](HealthConfig& c, std::string_view v) {
             return assign(c.congestion_pause_ratio, parseDecimal(v, 1e-6, 1));
         }},
        {"CongestionStormRatio",
         [](HealthConfig& c, std::string_view v) {
             return assign(c.congestion_storm_ratio, parseDecimal(v, 1e-6, 1));
         }},
        {"MinMtu", count(&HealthConfig::min_mtu, 0, 65535)},
        {"DriverTimeoutMs", count(&HealthConfig::driver_timeout_ms, 10, 600000)},
        {"DriverFailCycles", count(&HealthConfig::driver_fail_cycles, 1, 1000)},
        {"EventRingSize", count(&HealthConfig::event_ring_size, 16, 1000000)},
        {"ExpectPorts",
         [](HealthConfig& c, std::string_view v) {
             return assign(c.expect_ports, parseExpectPorts(v));
         }},
        {"FirmwareMin",
         [](HealthConfig& c, std::string_view v) {
             return assign(c.firmware_min, parseFirmwareMin(v));
         }},
        {"FirmwareAllowed",
         [](HealthConfig& c, std::string_view v) {
             return assign(c.firmware_allowed, parseFirmwareAllowed(v));
         }},
        {"WiringMap",
         [](HealthConfig& c, std::string_view v) -> Result<void> {
             // The file is read once every file of the configuration is (loadConfig).
             auto path = trim(v);
             if (!path.empty() && !path.starts_with('/'))
                 return Error{"expected an absolute path (or nothing: no wiring map)"};
             c.wiring = WiringMap{std::string(path), {}};
             return {};
         }},
    };
    return keys;
}

const Keys<DeviceOverride>& deviceKeys()
{
    static const Keys<DeviceOverride> keys = [] {
        auto k = settingKeys<DeviceOverride>();
        k.emplace_back("ExpectUp",
                       [](auto& d, auto v) { return assign(d.expect_up, parseBool(v)); });
        k.emplace_back("Role", [](auto& d, auto v) -> Result<void> {
            auto role = parseRole(trim(v));
            if (!role)
                return Error{"expected compute, storage or management"};
            d.role = *role;
            return {};
        });
        return k;
    }();
    return keys;
}

const Keys<CounterRuleConfig>& counterKeys()
{
    static const Keys<CounterRuleConfig> keys{
        {"Enable", [](auto& c, auto v) { return assign(c.enable, parseBool(v)); }},
        {"Delta", [](auto& c, auto v) { return assign(c.delta, parseUint(v, 0, UINT64_MAX)); }},
        {"Rate", [](auto& c, auto v) { return assign(c.rate, parseRate(v)); }},
        {"Action", [](auto& c, auto v) { return assign(c.action, parseActionValue(v)); }},
        {"Severity", [](auto& c, auto v) { return assign(c.severity, parseRuleSeverity(v)); }},
    };
    return keys;
}

bool nameMadeOf(std::string_view s, std::string_view extra)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               extra.find(c) != std::string_view::npos;
    });
}

const char* const kSectionsAllowed =
    "expected [daemon], [textfile], [provision], [journal], [health], [signals], [device:IBDEV], "
    "[counter:NAME], [counter:NAME/IBDEV] or [plugin:NAME]";

std::string afterPrefix(const std::string& section, std::string_view prefix)
{
    return section.substr(prefix.size());
}

} // namespace

Result<void> checkSection(const std::string& s)
{
    if (s == "daemon" || s == "textfile" || s == "provision" || s == "journal" || s == "health" ||
        s == "signals")
        return {};
    if (s.starts_with("device:")) {
        if (nameMadeOf(afterPrefix(s, "device:"), ""))
            return {};
        return Error{"unknown section; an RDMA device name is made of letters, digits and '_'"};
    }
    if (s.starts_with("counter:")) {
        auto rest = afterPrefix(s, "counter:");
        auto slash = rest.find('/');
        auto counter = rest.substr(0, slash);
        bool good = nameMadeOf(counter, ".-") &&
                    (slash == std::string::npos || nameMadeOf(rest.substr(slash + 1), ""));
        if (good)
            return {};
        return Error{
            "unknown section; expected [counter:NAME] or [counter:NAME/IBDEV] (NAME made of "
            "letters, digits and _ . -, IBDEV of letters, digits and _)"};
    }
    if (s.starts_with("plugin:")) {
        if (nameMadeOf(afterPrefix(s, "plugin:"), "-"))
            return {};
        return Error{"unknown section; a plugin name is made of letters, digits, '_' and '-'"};
    }
    for (const char* known : {"daemon", "textfile", "provision", "journal", "health", "signals"})
        if (strcasecmp(known, s.c_str()) == 0)
            return Error{std::string("unknown section; did you mean [") + known +
                         "]? (section names are case-sensitive)"};
    return Error{std::string("unknown section; ") + kSectionsAllowed};
}

Result<void> checkCounterName(const std::string& section)
{
    if (!section.starts_with("counter:"))
        return {};
    auto rest = afterPrefix(section, "counter:");
    const std::string name = rest.substr(0, rest.find('/'));
    // The IB PMA PortCounters and PortCountersExtended files of counters/ (IBTA; every vendor's),
    // with the byte counts nicd publishes for the data counters.
    static constexpr std::string_view kPmaCounters[] = {"symbol_error",
                                                        "link_error_recovery",
                                                        "link_downed",
                                                        "port_rcv_errors",
                                                        "port_rcv_remote_physical_errors",
                                                        "port_rcv_switch_relay_errors",
                                                        "port_xmit_discards",
                                                        "port_xmit_constraint_errors",
                                                        "port_rcv_constraint_errors",
                                                        "local_link_integrity_errors",
                                                        "excessive_buffer_overrun_errors",
                                                        "VL15_dropped",
                                                        "port_xmit_wait",
                                                        "port_xmit_data",
                                                        "port_rcv_data",
                                                        "port_xmit_data_bytes",
                                                        "port_rcv_data_bytes",
                                                        "port_xmit_packets",
                                                        "port_rcv_packets",
                                                        "unicast_xmit_packets",
                                                        "unicast_rcv_packets",
                                                        "multicast_xmit_packets",
                                                        "multicast_rcv_packets"};
    for (auto known : kPmaCounters)
        if (name == known)
            return {};
    for (auto known : kPmaCounters) {
        const bool other_case = strcasecmp(name.c_str(), std::string(known).c_str()) == 0;
        if (other_case || editDistance(name, known) <= 2)
            return Error{"unknown counter; did you mean [counter:" + std::string(known) +
                         rest.substr(name.size()) + "]?" +
                         (other_case ? " (counter names are case-sensitive)" : "")};
    }
    return {};
}

Result<void> applyKey(Config& config, const std::string& section, const std::string& key,
                      std::string_view value)
{
    if (section.empty())
        return Error{std::string("key outside of any section; ") + kSectionsAllowed};
    if (section == "daemon")
        return applyFrom(daemonKeys(), config.daemon, "[daemon]", key, value);
    if (section == "textfile")
        return applyFrom(textfileKeys(), config.textfile, "[textfile]", key, value);
    if (section == "provision")
        return applyFrom(provisionKeys(), config.provision, "[provision]", key, value);
    if (section == "journal")
        return applyFrom(journalKeys(), config.journal, "[journal]", key, value);
    if (section == "health")
        return applyFrom(healthKeys(), config.health, "[health]", key, value);
    if (section == "signals")
        return applyFrom(prefailureKeys(), config.signals, "[signals]", key, value);
    if (section.starts_with("device:")) {
        auto name = afterPrefix(section, "device:");
        DeviceOverride d =
            config.devices.contains(name) ? config.devices.at(name) : DeviceOverride{};
        if (auto applied = applyFrom(deviceKeys(), d, "[device:IBDEV]", key, value); !applied)
            return applied;
        config.devices[name] = std::move(d);
        return {};
    }
    if (section.starts_with("counter:")) {
        auto name = afterPrefix(section, "counter:");
        CounterRuleConfig r = config.counter_rules.contains(name) ? config.counter_rules.at(name)
                                                                  : CounterRuleConfig{};
        if (auto applied = applyFrom(counterKeys(), r, "[counter:NAME]", key, value); !applied)
            return applied;
        config.counter_rules[name] = r;
        return {};
    }
    if (section.starts_with("plugin:")) {
        // Plugins validate their own keys; only Enabled means something to the daemon.
        if (auto enabled = key == "Enabled" ? parseBool(value) : Result<bool>(true); !enabled)
            return enabled.error();
        if (strcasecmp(key.c_str(), "Enabled") == 0 && key != "Enabled")
            return Error{"unknown key; did you mean Enabled? (keys are case-sensitive)"};
        config.plugins[afterPrefix(section, "plugin:")][key] = std::string(trim(value));
        return {};
    }
    return Error{std::string("unknown section; ") + kSectionsAllowed};
}

} // namespace nicd::config

namespace nicd {

std::map<std::string, std::vector<std::string>> configKeys()
{
    using namespace config;
    return {
        {"daemon", namesOf(daemonKeys())},
        {"textfile", namesOf(textfileKeys())},
        {"provision", namesOf(provisionKeys())},
        {"journal", namesOf(journalKeys())},
        {"health", namesOf(healthKeys())},
        {"signals", namesOf(prefailureKeys())},
        {"device:", namesOf(deviceKeys())},
        {"counter:", namesOf(counterKeys())},
        {"plugin:", {"Enabled"}},
    };
}

} // namespace nicd
