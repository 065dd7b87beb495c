#include "plugins/plugin_schemas.hpp"

#include "plugins/plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>

namespace nicd {

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

} // namespace nicd
