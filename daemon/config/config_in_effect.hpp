// The configuration in effect, key by key, with where each value comes from: the file and line
// that set it, or "default" with the default as the shipped nicd.conf lists it (#Key=Value).
// What `nicctl config` prints (Manager.GetConfiguration). Pure.
#pragma once

#include "config/config.hpp"

#include <map>
#include <string>
#include <vector>

namespace nicd::config {

struct SettingInEffect {
    std::string section; // "daemon", "device:mlx5_0", ...
    std::string key;
    std::string value;  // as written; for a default, as the shipped nicd.conf shows it
    std::string source; // "/etc/nicd/nicd.conf:12", or "default"
};

// The shipped nicd.conf's defaults: per fixed section, "#Key=Value" lines.
std::map<std::string, std::map<std::string, std::string>> shippedDefaults(const std::string& text);

// Every key of the fixed sections (configKeys() order), then the keys the files set in
// [device:*], [counter:*] and [plugin:*] sections.
std::vector<SettingInEffect>
settingsInEffect(const Config& config,
                 const std::map<std::string, std::map<std::string, std::string>>& defaults);

// nicd.conf as nicd builds it (etc/nicd.conf.in, configured), compiled in.
const std::string& shippedNicdConf();

} // namespace nicd::config
