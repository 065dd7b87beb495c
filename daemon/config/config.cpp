#include "config/config.hpp"

#include "config/value_parsers.hpp"

#include <ini.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <regex>
#include <set>

namespace nicd {

using namespace nicd::config;

namespace {

// A key's parser: stores the value and returns true, or sets `why` and returns false.
template <typename Target>
using KeyParser = std::function<bool(Target&, std::string_view, std::string&)>;
template <typename Target> using KeyTable = std::map<std::string, KeyParser<Target>, std::less<>>;

template <typename T, typename Field>
KeyParser<T> uintKey(Field field, uint64_t min, uint64_t max, uint64_t scale = 1)
{
    return [=](T& t, std::string_view v, std::string& why) {
        auto n = parseUint(v, min, max, why);
        if (n)
            t.*field = static_cast<std::remove_reference_t<decltype(t.*field)>>(*n * scale);
        return n.has_value();
    };
}

template <typename T, typename Field> KeyParser<T> boolKey(Field field)
{
    return [=](T& t, std::string_view v, std::string& why) {
        auto b = parseBool(v, why);
        if (b)
            t.*field = *b;
        return b.has_value();
    };
}

template <typename E>
std::optional<E> parseEnum(std::string_view v, const std::vector<std::pair<const char*, E>>& names,
                           std::string& why)
{
    auto t = trim(v);
    for (const auto& [n, e] : names)
        if (t == n)
            return e;
    why = "expected one of:";
    for (const auto& [n, e] : names)
        why += std::string(" ") + n;
    return std::nullopt;
}

const std::vector<std::pair<const char*, ProvisionMode>> kModes{{"enforce", ProvisionMode::Enforce},
                                                                {"verify", ProvisionMode::Verify},
                                                                {"off", ProvisionMode::Off}};
const std::vector<std::pair<const char*, TrustMode>> kTrust{{"dscp", TrustMode::Dscp},
                                                            {"pcp", TrustMode::Pcp}};
const std::vector<std::pair<const char*, BondPolicy>> kBonds{{"skip", BondPolicy::Skip},
                                                             {"configure", BondPolicy::Configure}};
const std::vector<std::pair<const char*, RuleSeverity>> kSeverity{
    {"fatal", RuleSeverity::Fatal}, {"non-fatal", RuleSeverity::NonFatal}};

const KeyTable<DaemonConfig>& daemonKeys()
{
    static const KeyTable<DaemonConfig> t{
        {"PluginDirectory",
         [](DaemonConfig& c, std::string_view v, std::string& why) {
             auto p = parseAbsolutePath(v, why);
             if (p)
                 c.plugin_directory = *p;
             return p.has_value();
         }},
        {"PollIntervalMs", uintKey<DaemonConfig>(&DaemonConfig::poll_interval_ms, 100, 3600000)},
        {"PmaIntervalMs", uintKey<DaemonConfig>(&DaemonConfig::pma_interval_ms, 1000, 3600000)},
        {"StateDirectory",
         [](DaemonConfig& c, std::string_view v, std::string& why) {
             auto p = parseAbsolutePath(v, why);
             if (p)
                 c.state_directory = *p;
             return p.has_value();
         }},
    };
    return t;
}

const KeyTable<TextfileConfig>& textfileKeys()
{
    static const KeyTable<TextfileConfig> t{
        {"Enable", boolKey<TextfileConfig>(&TextfileConfig::enable)},
        {"Path",
         [](TextfileConfig& c, std::string_view v, std::string& why) {
             auto p = parseAbsolutePath(v, why);
             if (p && !p->ends_with(".prom")) {
                 why =
                     "expected an absolute path ending in .prom (node_exporter reads only *.prom)";
                 return false;
             }
             if (p)
                 c.path = *p;
             return p.has_value();
         }},
    };
    return t;
}

// Keys shared by [provision] and [device:X]; they write into a DeviceOverride.
const KeyTable<DeviceOverride>& settingKeys()
{
    static const KeyTable<DeviceOverride> t{
        {"Mode",
         [](DeviceOverride& d, std::string_view v, std::string& why) {
             auto e = parseEnum(v, kModes, why);
             if (e)
                 d.mode = *e;
             return e.has_value();
         }},
        {"Trust",
         [](DeviceOverride& d, std::string_view v, std::string& why) {
             auto e = parseEnum(v, kTrust, why);
             if (e)
                 d.trust = *e;
             return e.has_value();
         }},
        {"PfcPriorities",
         [](DeviceOverride& d, std::string_view v, std::string& why) {
             auto p = parsePriorities(v, why);
             if (p)
                 d.pfc_priorities = *p;
             return p.has_value();
         }},
        {"RoceTos",
         [](DeviceOverride& d, std::string_view v, std::string& why) {
             auto n = parseUint(v, 0, 255, why);
             if (n)
                 d.roce_tos = static_cast<uint8_t>(*n);
             return n.has_value();
         }},
    };
    return t;
}

const KeyTable<ProvisionConfig>& provisionKeys()
{
    static const KeyTable<ProvisionConfig> t{
        {"Bonds",
         [](ProvisionConfig& c, std::string_view v, std::string& why) {
             auto e = parseEnum(v, kBonds, why);
             if (e)
                 c.bonds = *e;
             return e.has_value();
         }},
        {"DryRun", boolKey<ProvisionConfig>(&ProvisionConfig::dry_run)},
        {"ExcludeDevices",
         [](ProvisionConfig& c, std::string_view v, std::string&) {
             c.exclude_devices = splitWords(v);
             return true;
         }},
        {"ExcludeNetdevs",
         [](ProvisionConfig& c, std::string_view v, std::string&) {
             c.exclude_netdevs = splitWords(v);
             return true;
         }},
        {"IncludeNetdevs",
         [](ProvisionConfig& c, std::string_view v, std::string&) {
             c.include_netdevs = splitWords(v);
             return true;
         }},
        {"DriverReadyFile",
         [](ProvisionConfig& c, std::string_view v, std::string& why) {
             if (trim(v).empty()) {
                 c.driver_ready_file = std::string(); // explicitly: do not wait
                 return true;
             }
             auto p = parseAbsolutePath(v, why);
             if (p)
                 c.driver_ready_file = *p;
             return p.has_value();
         }},
        {"ReadyTimeoutSec",
         uintKey<ProvisionConfig>(&ProvisionConfig::ready_timeout_ms, 1, 86400, 1000)},
        {"VerifyIntervalSec",
         uintKey<ProvisionConfig>(&ProvisionConfig::verify_interval_ms, 5, 86400, 1000)},
    };
    return t;
}

const KeyTable<JournalConfig>& journalKeys()
{
    static const KeyTable<JournalConfig> t{
        {"Enable", boolKey<JournalConfig>(&JournalConfig::enable)}};
    return t;
}

const KeyTable<HealthConfig>& healthKeys()
{
    static const KeyTable<HealthConfig> t{
        {"FlapCount", uintKey<HealthConfig>(&HealthConfig::flap_count, 2, 1000)},
        {"FlapWindowSec", uintKey<HealthConfig>(&HealthConfig::flap_window_sec, 1, 86400)},
        {"KernelRepeatCount", uintKey<HealthConfig>(&HealthConfig::kernel_repeat_count, 2, 1000)},
        {"KernelRepeatWindowSec",
         uintKey<HealthConfig>(&HealthConfig::kernel_repeat_window_sec, 1, 604800)},
        {"KernelHoldSec", uintKey<HealthConfig>(&HealthConfig::kernel_hold_sec, 0, 31536000)},
        {"DriverTimeoutMs", uintKey<HealthConfig>(&HealthConfig::driver_timeout_ms, 10, 600000)},
        {"DriverFailCycles", uintKey<HealthConfig>(&HealthConfig::driver_fail_cycles, 1, 1000)},
        {"EventRingSize", uintKey<HealthConfig>(&HealthConfig::event_ring_size, 16, 1000000)},
    };
    return t;
}

const KeyTable<DeviceOverride>& deviceOnlyKeys()
{
    static const KeyTable<DeviceOverride> t{
        {"ExpectUp", [](DeviceOverride& d, std::string_view v, std::string& why) {
             auto b = parseBool(v, why);
             if (b)
                 d.expect_up = *b;
             return b.has_value();
         }}};
    return t;
}

const KeyTable<CounterRuleConfig>& counterKeys()
{
    static const KeyTable<CounterRuleConfig> t{
        {"Enable",
         [](CounterRuleConfig& c, std::string_view v, std::string& why) {
             auto b = parseBool(v, why);
             if (b)
                 c.enable = *b;
             return b.has_value();
         }},
        {"Delta",
         [](CounterRuleConfig& c, std::string_view v, std::string& why) {
             auto n = parseUint(v, 0, UINT64_MAX, why);
             if (n)
                 c.delta = *n;
             return n.has_value();
         }},
        {"Rate",
         [](CounterRuleConfig& c, std::string_view v, std::string& why) {
             auto r = parseRate(v, why);
             if (r)
                 c.rate_per_second = *r;
             return r.has_value();
         }},
        {"Severity",
         [](CounterRuleConfig& c, std::string_view v, std::string& why) {
             auto e = parseEnum(v, kSeverity, why);
             if (e)
                 c.severity = *e;
             return e.has_value();
         }},
    };
    return t;
}

bool validName(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool validCounterName(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
    });
}

template <typename Target>
bool applyKey(const KeyTable<Target>& table, Target& target, const std::string& key,
              std::string_view value, std::string& why, bool& known)
{
    auto it = table.find(key);
    known = it != table.end();
    if (!known)
        return false;
    return it->second(target, value, why);
}

template <typename... Tables> std::string keyList(const Tables&... tables)
{
    std::string out;
    auto add = [&](const auto& t) {
        for (const auto& [k, v] : t)
            out += (out.empty() ? "" : ", ") + k;
    };
    (add(tables), ...);
    return out;
}

struct ParseState {
    Config* config = nullptr;
    std::vector<ConfigError>* errors = nullptr;
    std::string file;
    std::string_view text;
    size_t pos = 0;
    int line = 0;
    std::set<int> bad_lines; // syntax errors found by the reader; inih's handler calls skipped
    std::string section_seen;

    void error(const std::string& section, const std::string& key, const std::string& msg)
    {
        errors->push_back({file, line, section, key, msg});
    }
};

// inih reads through this, one line per call, which gives us the line number of each handler call.
char* readLine(char* str, int num, void* stream)
{
    auto* st = static_cast<ParseState*>(stream);
    if (st->pos >= st->text.size())
        return nullptr;
    size_t end = st->text.find('\n', st->pos);
    size_t stop = end == std::string_view::npos ? st->text.size() : end + 1;
    auto line = st->text.substr(st->pos, stop - st->pos);
    st->pos = stop;
    ++st->line;
    size_t n = std::min(line.size(), static_cast<size_t>(num - 1));
    std::copy_n(line.data(), n, str);
    str[n] = '\0';

    auto t = trim(line);
    bool ok = t.empty() || t.front() == '#' || t.front() == ';' ||
              (t.front() == '[' && t.back() == ']') || t.find('=') != std::string_view::npos;
    if (!ok) {
        st->bad_lines.insert(st->line);
        std::string what = t.front() == '[' ? "unterminated section header"
                                            : "expected Key=Value, [section], or a comment";
        st->errors->push_back(
            {st->file, st->line, st->section_seen, "", what + ": '" + std::string(t) + "'"});
        str[0] = '\0'; // hand inih an empty line instead
    } else if (t.front() == '[' && t.back() == ']') {
        st->section_seen = std::string(t.substr(1, t.size() - 2));
    }
    return str;
}

int onKey(void* user, const char* section_c, const char* name_c, const char* value_c)
{
    auto* st = static_cast<ParseState*>(user);
    if (st->bad_lines.contains(st->line))
        return 1;
    std::string section = section_c;
    std::string key = name_c;
    std::string_view value = value_c;
    Config& c = *st->config;
    std::string why;
    bool known = false;
    bool ok = false;

    if (section.empty()) {
        st->error(section, key,
                  "key outside of any section; put it under [daemon], [textfile], "
                  "[provision], [journal] or [health]");
        return 1;
    }
    if (section == "daemon") {
        ok = applyKey(daemonKeys(), c.daemon, key, value, why, known);
        if (!known)
            why = "unknown key; [daemon] takes " + keyList(daemonKeys());
    } else if (section == "textfile") {
        ok = applyKey(textfileKeys(), c.textfile, key, value, why, known);
        if (!known)
            why = "unknown key; [textfile] takes " + keyList(textfileKeys());
    } else if (section == "provision") {
        DeviceOverride d;
        ok = applyKey(settingKeys(), d, key, value, why, known);
        if (known && ok) {
            if (d.mode)
                c.provision.settings.mode = *d.mode;
            if (d.trust)
                c.provision.settings.trust = *d.trust;
            if (d.pfc_priorities)
                c.provision.settings.pfc_priorities = *d.pfc_priorities;
            if (d.roce_tos)
                c.provision.settings.roce_tos = *d.roce_tos;
        }
        if (!known)
            ok = applyKey(provisionKeys(), c.provision, key, value, why, known);
        if (!known)
            why = "unknown key; [provision] takes " + keyList(settingKeys(), provisionKeys());
    } else if (section == "journal") {
        ok = applyKey(journalKeys(), c.journal, key, value, why, known);
        if (!known)
            why = "unknown key; [journal] takes " + keyList(journalKeys());
    } else if (section == "health") {
        ok = applyKey(healthKeys(), c.health, key, value, why, known);
        if (!known)
            why = "unknown key; [health] takes " + keyList(healthKeys());
    } else if (section.starts_with("device:")) {
        auto dev = section.substr(7);
        if (!validName(dev)) {
            st->error(section, key,
                      "device name '" + dev + "' must be made of letters, digits and '_'");
            return 1;
        }
        auto& d = c.devices[dev];
        ok = applyKey(settingKeys(), d, key, value, why, known);
        if (!known)
            ok = applyKey(deviceOnlyKeys(), d, key, value, why, known);
        if (!known)
            why = "unknown key; [device:NAME] takes " + keyList(settingKeys(), deviceOnlyKeys());
    } else if (section.starts_with("counter:")) {
        auto name = section.substr(8);
        auto slash = name.find('/');
        bool good = validCounterName(name.substr(0, slash)) &&
                    (slash == std::string::npos || validName(name.substr(slash + 1)));
        if (!good) {
            st->error(section, key, "expected [counter:NAME] or [counter:NAME/DEVICE]");
            return 1;
        }
        ok = applyKey(counterKeys(), c.counter_rules[name], key, value, why, known);
        if (!known)
            why = "unknown key; [counter:NAME] takes " + keyList(counterKeys());
    } else if (section.starts_with("plugin:")) {
        auto name = section.substr(7);
        if (!validName(name)) {
            st->error(section, key,
                      "plugin name '" + name + "' must be made of letters, digits and '_'");
            return 1;
        }
        known = true;
        ok = true;
        if (key == "Enabled")
            ok = parseBool(value, why).has_value();
        if (ok)
            c.plugins[name][key] = std::string(trim(value));
    } else {
        return 1; // an unknown section is reported once, at its header (checkSectionNames)
    }
    if (!ok)
        st->error(section, key,
                  !known || value.empty() ? why : "'" + std::string(value) + "': " + why);
    return 1;
}

// inih reports a section header with no keys only through the stream; check names here.
void checkSectionNames(ParseState& st, std::string_view text)
{
    int line = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        auto l = trim(
            text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        ++line;
        if (!l.empty() && l.front() == '[' && l.back() == ']') {
            std::string s(l.substr(1, l.size() - 2));
            static const std::set<std::string> fixed{"daemon", "textfile", "provision", "journal",
                                                     "health"};
            bool known = fixed.contains(s) || s.starts_with("device:") ||
                         s.starts_with("counter:") || s.starts_with("plugin:");
            if (!known)
                st.errors->push_back(
                    {st.file, line, s, "",
                     "unknown section; expected [daemon], [textfile], [provision], "
                     "[journal], [health], [device:NAME], [counter:NAME] or [plugin:NAME]"});
        }
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
}

} // namespace

std::string ConfigError::format() const
{
    std::string out = file;
    if (line > 0)
        out += ":" + std::to_string(line);
    out += ": ";
    if (!section.empty())
        out += "[" + section + "] ";
    if (!key.empty())
        out += key + ": ";
    return out + message;
}

ProvisionSettings Config::provisionFor(const std::string& ibdev) const
{
    ProvisionSettings s = provision.settings;
    auto it = devices.find(ibdev);
    if (it == devices.end())
        return s;
    const auto& d = it->second;
    if (d.mode)
        s.mode = *d.mode;
    if (d.trust)
        s.trust = *d.trust;
    if (d.pfc_priorities)
        s.pfc_priorities = *d.pfc_priorities;
    if (d.roce_tos)
        s.roce_tos = *d.roce_tos;
    return s;
}

void parseConfigText(const std::string& text, const std::string& file_name, Config& config,
                     std::vector<ConfigError>& errors)
{
    ParseState st;
    st.config = &config;
    st.errors = &errors;
    st.file = file_name;
    st.text = text;
    checkSectionNames(st, text);
    ini_parse_stream(&readLine, &st, &onKey, &st);
}

ConfigResult loadConfig(const std::filesystem::path& main_file,
                        const std::filesystem::path& dropin_dir)
{
    ConfigResult result;
    Config config;
    config.daemon.plugin_directory = NICD_DEFAULT_PLUGIN_DIR;
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (std::filesystem::exists(main_file, ec))
        files.push_back(main_file);
    if (std::filesystem::is_directory(dropin_dir, ec)) {
        std::vector<std::filesystem::path> dropins;
        for (const auto& e : std::filesystem::directory_iterator(dropin_dir, ec))
            if (e.path().extension() == ".conf")
                dropins.push_back(e.path());
        std::sort(dropins.begin(), dropins.end());
        files.insert(files.end(), dropins.begin(), dropins.end());
    }
    for (const auto& f : files) {
        std::FILE* fp = std::fopen(f.c_str(), "re");
        if (fp == nullptr) {
            result.errors.push_back(ConfigError{
                f.string(), 0, "", "", std::string("cannot read: ") + std::strerror(errno)});
            continue;
        }
        std::string text;
        char buf[4096];
        size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, fp)) > 0)
            text.append(buf, n);
        std::fclose(fp);
        parseConfigText(text, f.string(), config, result.errors);
        config.sources.push_back(f);
    }
    if (result.errors.empty())
        result.config = std::move(config);
    return result;
}

} // namespace nicd
