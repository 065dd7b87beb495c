#include "provision/driver_ready.hpp"

#include "log/log.hpp"

namespace nicd::provision {

namespace fs = std::filesystem;

std::optional<fs::path> namedReadyFile(const ProvisionConfig& config, const HostPaths& paths)
{
    const auto& f = config.driver_ready_file;
    if (!f || f->empty() || *f == "auto")
        return std::nullopt;
    return paths.host(*f);
}

std::map<std::string, fs::path>
pluginReadyFiles(const ProvisionConfig& config, const HostPaths& paths,
                 const std::map<std::string, std::string>& plugin_files)
{
    std::map<std::string, fs::path> out;
    const auto& f = config.driver_ready_file;
    if (f && *f != "auto")
        return out;
    for (const auto& [plugin, name] : plugin_files) {
        auto file = paths.host(name);
        std::error_code ec;
        if (fs::is_directory(file.parent_path(), ec))
            out.emplace(plugin, std::move(file));
    }
    return out;
}

bool PluginReadyWaits::refresh(const ProvisionConfig& config, const HostPaths& paths,
                               const std::map<std::string, std::string>& plugin_files,
                               uint64_t now_usec)
{
    std::map<std::string, std::string> waiting;
    for (const auto& [plugin, file] : pluginReadyFiles(config, paths, plugin_files)) {
        std::error_code ec;
        if (!fs::exists(file, ec))
            waiting.emplace(plugin, file.string());
    }
    for (const auto& [plugin, file] : waiting_)
        if (!waiting.contains(plugin)) {
            log::info({.plugin = plugin},
                      "driver ready ({}): provisioning the QoS of plugin {}'s "
                      "devices",
                      file, plugin);
            since_usec_.erase(plugin);
            timeout_logged_.erase(plugin);
        }
    for (const auto& [plugin, file] : waiting) {
        auto [since, started] = since_usec_.try_emplace(plugin, now_usec);
        if (started)
            log::info({.plugin = plugin},
                      "waiting for the driver: {} does not exist yet; the QoS of plugin {}'s "
                      "devices waits for it",
                      file, plugin);
        if (now_usec - since->second >= uint64_t{config.ready_timeout_ms} * 1000 &&
            timeout_logged_.insert(plugin).second)
            log::error({.plugin = plugin},
                       "driver not ready: {} still missing after {} s (ReadyTimeoutSec=); the QoS "
                       "of plugin {}'s devices is not provisioned until it appears; monitoring "
                       "goes on",
                       file, config.ready_timeout_ms / 1000, plugin);
    }
    const bool changed = waiting != waiting_;
    waiting_ = std::move(waiting);
    return changed;
}

void PluginReadyWaits::hold(std::vector<PortPlan>& plans, const Inventory& inventory) const
{
    if (waiting_.empty())
        return;
    for (auto& p : plans) {
        const Device* d = inventory.find(p.device);
        if (!p.managed || d == nullptr)
            continue;
        if (auto w = waiting_.find(d->plugin); w != waiting_.end()) {
            p.managed = false;
            p.reason = "waiting: " + w->second + " does not exist yet (the " + w->first +
                       " driver is not ready)";
        }
    }
}

} // namespace nicd::provision
