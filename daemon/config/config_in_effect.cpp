#include "config/config_in_effect.hpp"

#include <algorithm>
#include <cctype>

namespace nicd::config {

std::map<std::string, std::map<std::string, std::string>> shippedDefaults(const std::string& text)
{
    std::map<std::string, std::map<std::string, std::string>> out;
    std::string section;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        // The examples at the end ("#   [device:mlx5_0]") are not defaults.
        if (line.starts_with("# The sections below are examples"))
            break;
        if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
            section = line.substr(1, line.size() - 2);
            continue;
        }
        const auto eq = line.find('=');
        if (section.empty() || line.size() < 3 || line[0] != '#' ||
            !std::isupper(static_cast<unsigned char>(line[1])) || eq == std::string::npos)
            continue;
        const std::string key = line.substr(1, eq - 1);
        if (std::all_of(key.begin(), key.end(),
                        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }))
            out[section].try_emplace(key, line.substr(eq + 1));
    }
    return out;
}

std::vector<SettingInEffect>
settingsInEffect(const Config& config,
                 const std::map<std::string, std::map<std::string, std::string>>& defaults)
{
    std::vector<SettingInEffect> out;
    auto source = [](const Config::Origin& o) { return o.file + ":" + std::to_string(o.line); };
    for (const char* section :
         {"daemon", "textfile", "provision", "journal", "health", "signals"}) {
        const auto keys = configKeys().at(section);
        const auto shipped = defaults.find(section);
        for (const auto& key : keys) {
            if (auto it = config.origins.find({section, key}); it != config.origins.end()) {
                out.push_back({section, key, it->second.value, source(it->second)});
                continue;
            }
            std::string value;
            if (shipped != defaults.end())
                if (auto d = shipped->second.find(key); d != shipped->second.end())
                    value = d->second;
            out.push_back({section, key, value, "default"});
        }
    }
    for (const auto& [where, origin] : config.origins) {
        const auto& [section, key] = where;
        if (!key.empty() && (section.starts_with("device:") || section.starts_with("counter:") ||
                             section.starts_with("plugin:")))
            out.push_back({section, key, origin.value, source(origin)});
    }
    return out;
}

} // namespace nicd::config
