#include "plugins/plugin_schemas.hpp"

#include "log/log.hpp"
#include "plugins/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace nicd::plugins {

std::vector<config::PluginSchema> readPluginSchemas(const std::filesystem::path& dir,
                                                    const Config& config,
                                                    std::vector<ConfigError>& errors)
{
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (!pluginNameFromFile(e.path()).empty())
            files.push_back(e.path());
    if (ec)
        errors.push_back(
            {dir.string(), 0, "", "", "cannot list the plugin directory: " + ec.message()});
    std::sort(files.begin(), files.end());
    std::vector<config::PluginSchema> out;
    for (const auto& file : files) {
        config::PluginSchema schema{pluginNameFromFile(file), std::nullopt, false};
        if (pluginEnabled(config, schema.name)) {
            LoadedLibrary lib;
            PluginStatus status;
            if (loadPluginLibrary(file, lib, status)) {
                schema.settings = declaredSettings(lib.descriptor);
                schema.opened = true;
                dlclose(lib.handle);
            } else {
                errors.push_back(
                    {file.string(), 0, "", "", "plugin refused: " + status.last_error});
            }
        }
        out.push_back(std::move(schema));
    }
    return out;
}

std::optional<std::string> sectionRefusal(const Config& config, const std::string& name,
                                          const nicd_plugin_descriptor_v1* descriptor)
{
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings;
    config::checkPluginSection(config, name, declaredSettings(descriptor), errors, warnings);
    for (const auto& w : warnings)
        log::warn({.plugin = name}, "{}", w.format());
    if (errors.empty())
        return std::nullopt;
    for (const auto& line : formatErrors(errors))
        log::error({.plugin = name}, "{}", line);
    return errors.front().format() + (errors.size() > 1
                                          ? " (and " + std::to_string(errors.size() - 1) +
                                                " more: nicd --check-config lists them)"
                                          : "");
}

void logSectionsWithoutPlugin(const Config& config, const std::vector<std::filesystem::path>& files,
                              const std::filesystem::path& dir)
{
    std::vector<config::PluginSchema> present;
    for (const auto& f : files)
        present.push_back({pluginNameFromFile(f), std::nullopt, false});
    std::vector<ConfigError> errors;
    std::vector<ConfigError> unused;
    config::checkPluginSections(config, present, dir.string(), errors, unused);
    for (const auto& e : errors)
        log::error({}, "{}", e.format());
}

} // namespace nicd::plugins
