#include "config/plugin_sections.hpp"

#include "config/key_table.hpp"
#include "config/value_parsers.hpp"

#include <set>

namespace nicd::config {

namespace {

const std::string kPrefix = "plugin:";

// Where `key` of `section` was set ("" for the section's header), as a ConfigError's position.
ConfigError at(const Config& config, const std::string& section, const std::string& key,
               std::string message, std::string value = {})
{
    ConfigError e{"", 0, section, key, std::move(message), std::move(value)};
    if (auto it = config.origins.find({section, key}); it != config.origins.end()) {
        e.file = it->second.file;
        e.line = it->second.line;
    } else if (auto header = config.origins.find({section, ""}); header != config.origins.end()) {
        e.file = header->second.file;
        e.line = header->second.line;
    }
    return e;
}

// The plugin sections the files have, by name, headers alone included.
std::set<std::string> pluginSections(const Config& config)
{
    std::set<std::string> names;
    for (const auto& [name, keys] : config.plugins)
        names.insert(name);
    for (const auto& [where, origin] : config.origins)
        if (where.first.starts_with(kPrefix))
            names.insert(where.first.substr(kPrefix.size()));
    return names;
}

} // namespace

Result<void> checkSettingValue(const std::string& type, const std::string& value)
{
    if (type == "bool") {
        if (auto b = parseBool(value); !b)
            return b.error();
        return {};
    }
    if (type == "uint") {
        if (auto n = parseUint(value, 0, UINT64_MAX); !n)
            return n.error();
        return {};
    }
    if (type == "path") {
        if (auto p = parseAbsolutePath(value); !p)
            return p.error();
        return {};
    }
    return {}; // string: any text
}

void checkPluginSection(const Config& config, const std::string& name,
                        const std::optional<std::vector<PluginSetting>>& settings,
                        std::vector<ConfigError>& errors, std::vector<ConfigError>& warnings)
{
    auto section = config.plugins.find(name);
    if (section == config.plugins.end())
        return;
    const std::string label = "[" + kPrefix + name + "]";
    if (!settings) {
        std::vector<std::string> keys;
        for (const auto& [key, value] : section->second)
            if (key != "Enabled")
                keys.push_back(key);
        if (!keys.empty())
            warnings.push_back(at(config, kPrefix + name, keys.front(),
                                  "not checked: plugin " + name +
                                      " is built for an ABI before 1.7 and declares no keys; it "
                                      "gets them as written",
                                  section->second.at(keys.front())));
        return;
    }
    std::vector<std::string> names{"Enabled"};
    for (const auto& s : *settings)
        names.push_back(s.key);
    for (const auto& [key, value] : section->second) {
        if (key == "Enabled")
            continue; // the daemon's own, checked as the file was read
        const PluginSetting* declared = nullptr;
        for (const auto& s : *settings)
            if (s.key == key)
                declared = &s;
        if (declared == nullptr) {
            errors.push_back(
                at(config, kPrefix + name, key, unknownKey(names, "plugin " + name, key), value));
            continue;
        }
        if (auto good = checkSettingValue(declared->type, value); !good)
            errors.push_back(at(config, kPrefix + name, key, good.error().message, value));
    }
}

void checkPluginSections(const Config& config, const std::vector<PluginSchema>& plugins,
                         const std::string& directory, std::vector<ConfigError>& errors,
                         std::vector<ConfigError>& warnings)
{
    std::string there;
    for (const auto& p : plugins)
        there += (there.empty() ? "" : ", ") + p.name;
    for (const auto& name : pluginSections(config)) {
        const PluginSchema* schema = nullptr;
        for (const auto& p : plugins)
            if (p.name == name)
                schema = &p;
        if (schema == nullptr) {
            errors.push_back(at(config, kPrefix + name, "",
                                "no plugin named " + name + " in " + directory +
                                    " (there: " + (there.empty() ? "none" : there) + ")"));
            continue;
        }
        if (schema->opened) {
            checkPluginSection(config, name, schema->settings, errors, warnings);
            continue;
        }
        auto section = config.plugins.find(name);
        if (section != config.plugins.end() && section->second.size() > 1)
            warnings.push_back(at(config, kPrefix + name, "",
                                  "the keys besides Enabled= are not checked: plugin " + name +
                                      " is disabled or refused, and not opened"));
    }
}

} // namespace nicd::config
