#include "plugins/plugin_host.hpp"

#include "log/log.hpp"

namespace nicd {

void PluginHost::log(plugin::v1::Level level, std::string_view msg,
                     const plugin::v1::DeviceRef* dev) noexcept
{
    try {
        using L = plugin::v1::Level;
        spdlog::level::level_enum l = spdlog::level::info;
        switch (level) {
        case L::Trace:
            l = spdlog::level::trace;
            break;
        case L::Debug:
            l = spdlog::level::debug;
            break;
        case L::Info:
            l = spdlog::level::info;
            break;
        case L::Warn:
            l = spdlog::level::warn;
            break;
        case L::Error:
            l = spdlog::level::err;
            break;
        case L::Critical:
            l = spdlog::level::critical;
            break;
        }
        log::Fields f{.device = dev ? std::string_view(dev->ibdev) : std::string_view(),
                      .plugin = name_};
        log::write(l, f, "plugin {}: {}", name_, msg);
    } catch (...) { // logging must never throw into a plugin
    }
}

std::optional<std::string> PluginHost::config(std::string_view key) const noexcept
{
    try {
        if (auto it = config_.find(std::string(key)); it != config_.end())
            return it->second;
        std::lock_guard lock(mutex_);
        if (auto it = daemon_.find(std::string(key)); it != daemon_.end())
            return it->second;
        return std::nullopt;
    } catch (...) {
        return std::nullopt;
    }
}

void PluginHost::setDaemonSettings(std::map<std::string, std::string> settings)
{
    std::lock_guard lock(mutex_);
    daemon_ = std::move(settings);
}

} // namespace nicd
