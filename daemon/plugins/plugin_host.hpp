// What the daemon gives one plugin: logging as that plugin, the host root, its config section,
// and the daemon's settings a plugin follows too (DropCounterAfter: nicd/plugin/sdk/backoff.h), and
// (ABI 1.4) host knobs changed through nicd's knob writer (privilege/knob_writer.hpp).
#pragma once

#include "config/host_paths.hpp"
#include "privilege/knob_shapes.hpp"

#include <nicd/plugin/plugin.h>

#include <map>
#include <mutex>
#include <string>

namespace nicd::plugins {

// IHost::writeKnob and makeKnobDirectory: `path` (under the root) changed through the process's
// knob writer, or in this process when it has none (privilege::changeKnob).
plugin::v1::Status changeHostKnob(const HostPaths& paths, privilege::KnobOp op,
                                  std::string_view path, std::string_view text) noexcept;

class PluginHost final : public plugin::v1::IHost {
public:
    PluginHost(std::string name, HostPaths paths, std::map<std::string, std::string> config)
        : name_(std::move(name)), paths_(std::move(paths)), config_(std::move(config))
    {
    }
    virtual ~PluginHost() = default;

    uint32_t abiMinor() const noexcept override { return NICD_PLUGIN_ABI_MINOR; }
    void log(plugin::v1::Level level, std::string_view msg,
             const plugin::v1::DeviceRef* dev) noexcept override;
    std::string root() const noexcept override { return paths_.root().string(); }
    bool simulated() const noexcept override { return paths_.simulated(); }
    // The plugin's section first, then the daemon's settings.
    std::optional<std::string> config(std::string_view key) const noexcept override;
    plugin::v1::Status writeKnob(std::string_view path, std::string_view text) noexcept override;
    plugin::v1::Status makeKnobDirectory(std::string_view path) noexcept override;
    // The daemon's settings config() also answers (at start and on reload; any thread).
    void setDaemonSettings(std::map<std::string, std::string> settings);

private:
    std::string name_;
    HostPaths paths_;
    std::map<std::string, std::string> config_;
    mutable std::mutex mutex_; // daemon_: set on reload while a plugin call may be out
    std::map<std::string, std::string> daemon_;
};

} // namespace nicd::plugins
