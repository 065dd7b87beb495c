#include "app/config_files.hpp"

#include "log/log.hpp"

namespace nicd {

ConfigFiles configFiles(const Options& options, const HostPaths& paths)
{
    if (options.config_file) {
        auto main = *options.config_file;
        return {main, main.string() + ".d"};
    }
    return {paths.host("/etc/nicd/nicd.conf"), paths.host("/etc/nicd/nicd.conf.d")};
}

std::optional<Config> loadAndReport(const ConfigFiles& files, const HostPaths& paths)
{
    auto result = loadConfig(files.main, files.dropin_dir, paths);
    for (const auto& w : result.warnings)
        log::warn({}, "{}", w.format());
    for (const auto& e : result.errors)
        log::error({}, "{}", e.format());
    return result.config;
}

} // namespace nicd
