#include "config/config_files.hpp"

#include "log/log.hpp"

namespace nicd::config {

ConfigFiles configFiles(const std::optional<std::filesystem::path>& config_file,
                        const HostPaths& paths)
{
    if (config_file) {
        const auto& main = *config_file;
        return {main, main.string() + ".d", true};
    }
    return {paths.host("/etc/nicd/nicd.conf"), paths.host("/etc/nicd/nicd.conf.d")};
}

std::optional<Config> loadAndReport(const ConfigFiles& files, const HostPaths& paths, bool dry_run,
                                    std::string* problem)
{
    auto result = loadConfig(files.main, files.dropin_dir, paths, files.main_required);
    if (problem && !result.errors.empty()) {
        *problem = result.errors.front().format();
        if (const size_t more = result.errors.size() - 1; more > 0)
            *problem +=
                " (and " + std::to_string(more) + " more error" + (more == 1 ? "" : "s") + ")";
    }
    for (const auto& w : result.warnings)
        log::warn({}, "{}", w.format());
    for (const auto& line : formatErrors(result.errors))
        log::error({}, "{}", line);
    if (result.config)
        result.config->provision.dry_run = result.config->provision.dry_run || dry_run;
    return result.config;
}

} // namespace nicd::config
