#include "plugins/plugin_loader.hpp"

#include "config/value_parsers.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <set>
#include <string>

namespace nicd::plugins {

namespace {

// A descriptor of ABI 1.7 or later whose struct reaches its settings field.
bool hasSettings(const nicd_plugin_descriptor_v1* d)
{
    return d->abi_minor >= 7 &&
           d->struct_size >= offsetof(nicd_plugin_descriptor_v1, settings) + sizeof(d->settings);
}

} // namespace

bool pluginEnabled(const Config& config, const std::string& name)
{
    auto section = config.plugins.find(name);
    if (section == config.plugins.end())
        return true;
    auto it = section->second.find("Enabled");
    if (it == section->second.end())
        return true;
    return config::parseBool(it->second).value_or(true); // the config loader rejects bad values
}

std::string pluginNameFromFile(const std::filesystem::path& file)
{
    auto stem = file.filename().string();
    const std::string prefix = "nicd-plugin-";
    const std::string suffix = ".so";
    if (!stem.starts_with(prefix) || !stem.ends_with(suffix) ||
        stem.size() <= prefix.size() + suffix.size())
        return {};
    return stem.substr(prefix.size(), stem.size() - prefix.size() - suffix.size());
}

std::string checkDescriptor(const nicd_plugin_descriptor_v1* d, const std::string& expected_name)
{
    // The smallest descriptor ABI 1.0 defines ends after `destroy`.
    constexpr size_t v1_0_size = offsetof(nicd_plugin_descriptor_v1, destroy) + sizeof(d->destroy);
    if (d == nullptr)
        return "the entry function returned no descriptor";
    if (d->struct_size < v1_0_size)
        return "descriptor is " + std::to_string(d->struct_size) +
               " bytes, smaller than ABI 1.0's " + std::to_string(v1_0_size);
    if (d->abi_major != NICD_PLUGIN_ABI_MAJOR)
        return "plugin ABI major " + std::to_string(d->abi_major) +
               " is not supported (nicd supports " + std::to_string(NICD_PLUGIN_ABI_MAJOR) + ")";
    if (d->abi_minor > NICD_PLUGIN_ABI_MINOR)
        return "plugin needs ABI " + std::to_string(d->abi_major) + "." +
               std::to_string(d->abi_minor) + ", newer than this nicd's " +
               std::to_string(NICD_PLUGIN_ABI_MAJOR) + "." + std::to_string(NICD_PLUGIN_ABI_MINOR) +
               "; upgrade nicd";
    if (d->name == nullptr || d->name[0] == '\0')
        return "descriptor has no name";
    if (expected_name != d->name)
        return std::string("descriptor names the plugin '") + d->name +
               "' but the file is named for '" + expected_name + "'";
    if (d->toolchain == nullptr || std::string(d->toolchain) != NICD_PLUGIN_TOOLCHAIN)
        return std::string("built with toolchain '") + (d->toolchain ? d->toolchain : "(none)") +
               "', nicd with '" + NICD_PLUGIN_TOOLCHAIN + "' (C++ ABI mismatch)";
    if (d->create == nullptr || d->destroy == nullptr)
        return "descriptor lacks create or destroy";
    if (!hasSettings(d) || d->settings == nullptr)
        return {};
    std::set<std::string> keys;
    for (size_t i = 0;; ++i) {
        if (i > kMaxPluginSettings)
            return "descriptor declares more than " + std::to_string(kMaxPluginSettings) +
                   " settings (is the list missing its {nullptr} end?)";
        const nicd_plugin_setting_v1& s = d->settings[i];
        if (s.key == nullptr)
            break;
        const std::string key = s.key;
        const bool name_ok =
            !key.empty() && key.size() <= 64 && std::all_of(key.begin(), key.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
            });
        if (!name_ok)
            return "setting " + std::to_string(i) +
                   " has a key that is not 1-64 letters, digits and '_'";
        if (key == "Enabled")
            return "setting Enabled is the daemon's, not the plugin's";
        if (!keys.insert(key).second)
            return "setting " + key + " is declared twice";
        const std::string type = s.type ? s.type : "";
        if (type != "bool" && type != "uint" && type != "path" && type != "string")
            return "setting " + key + " has type '" + type.substr(0, 32) +
                   "' (bool, uint, path or string)";
    }
    return {};
}

std::optional<std::vector<config::PluginSetting>>
declaredSettings(const nicd_plugin_descriptor_v1* d)
{
    if (d == nullptr || !hasSettings(d))
        return std::nullopt;
    std::vector<config::PluginSetting> out;
    for (size_t i = 0; d->settings != nullptr && d->settings[i].key != nullptr; ++i)
        out.push_back({d->settings[i].key, d->settings[i].type,
                       d->settings[i].help ? d->settings[i].help : ""});
    return out;
}

bool loadPluginLibrary(const std::filesystem::path& file, LoadedLibrary& lib, PluginStatus& status)
{
    status.file = file.string();
    auto expected = pluginNameFromFile(file);
    if (status.name.empty())
        status.name = expected;
    status.state = PluginState::Failed;
    if (expected.empty()) {
        status.last_error = file.string() + ": not named nicd-plugin-<name>.so";
        return false;
    }
    dlerror();
    void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
        const char* e = dlerror();
        status.last_error = file.string() + ": cannot load: " + (e ? e : "unknown error") +
                            " (missing dependencies? check with ldd)";
        return false;
    }
    auto entry = reinterpret_cast<nicd_plugin_entry_v1_fn>(dlsym(h, NICD_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
        status.last_error = file.string() + ": no " NICD_PLUGIN_ENTRY_SYMBOL
                                            " symbol: not a nicd plugin or an unsupported ABI";
        dlclose(h);
        return false;
    }
    const nicd_plugin_descriptor_v1* d = entry();
    if (auto why = checkDescriptor(d, expected); !why.empty()) {
        status.last_error = file.string() + ": " + why;
        if (d != nullptr &&
            d->struct_size >= offsetof(nicd_plugin_descriptor_v1, version) + sizeof(char*)) {
            status.abi_major = d->abi_major;
            status.abi_minor = d->abi_minor;
        }
        dlclose(h);
        return false;
    }
    lib.handle = h;
    lib.descriptor = d;
    status.name = d->name;
    status.version = d->version ? d->version : "";
    status.abi_major = d->abi_major;
    status.abi_minor = d->abi_minor;
    status.last_error.clear();
    return true;
}

} // namespace nicd::plugins
