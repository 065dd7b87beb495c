#include "app/check_config.hpp"

#include "plugins/plugin_schemas.hpp"
#include "text/printable.hpp"

#include <cstdio>

namespace nicd::app {

namespace {

nlohmann::json problemsJson(const std::vector<ConfigError>& problems)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : problems)
        out.push_back({{"file", printable(e.file)},
                       {"line", e.line},
                       {"section", printable(e.section)},
                       {"key", printable(e.key)},
                       {"value", printable(e.value)},
                       {"message", printable(e.message)}});
    return out;
}

} // namespace

nlohmann::json checkConfigJson(const ConfigResult& result)
{
    nlohmann::json files = nlohmann::json::array();
    if (result.config)
        for (const auto& f : result.config->sources)
            files.push_back(printable(f.string()));
    return {{"valid", result.config.has_value()},
            {"files", files},
            {"errors", problemsJson(result.errors)},
            {"warnings", problemsJson(result.warnings)}};
}

int checkConfig(const config::ConfigFiles& files, const HostPaths& paths,
                const std::optional<std::filesystem::path>& plugin_directory, bool json)
{
    auto result = loadConfig(files.main, files.dropin_dir, paths, files.main_required);
    if (result.config) {
        const auto dir = plugin_directory.value_or(result.config->daemon.plugin_directory);
        std::vector<config::PluginSchema> plugins;
        if (std::error_code ec; std::filesystem::is_directory(dir, ec))
            plugins = plugins::readPluginSchemas(dir, *result.config, result.errors);
        else
            result.warnings.push_back({dir.string(), 0, "", "",
                                       "no plugin directory: plugin sections cannot be checked"});
        config::checkPluginSections(*result.config, plugins, dir.string(), result.errors,
                                    result.warnings);
        if (!result.errors.empty())
            result.config.reset();
    }
    if (json) {
        std::printf("%s\n", checkConfigJson(result).dump(2).c_str());
        return result.config ? 0 : 1;
    }
    for (const auto& w : result.warnings)
        (void)std::fprintf(stderr, "warning: %s\n", w.format().c_str());
    for (const auto& line : formatErrors(result.errors))
        (void)std::fprintf(stderr, "%s\n", line.c_str());
    if (!result.config) {
        (void)std::fprintf(stderr, "configuration is invalid (%zu error%s)\n", result.errors.size(),
                           result.errors.size() == 1 ? "" : "s");
        return 1;
    }
    std::printf("configuration is valid:");
    if (result.config->sources.empty())
        std::printf(" no files (all defaults)");
    for (const auto& f : result.config->sources)
        std::printf(" %s", printable(f.string()).c_str());
    std::printf("\n");
    return 0;
}

} // namespace nicd::app
