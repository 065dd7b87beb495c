// The daemon's side of the plugin boundary for plugin tests on a simulated node: the root, the
// ABI minor the "daemon" speaks (an older one leaves out what came later), the log lines, and
// the keys of its plugin section, the knobs changed through it (as the daemon does, in this
// process: privilege::changeKnob).
#pragma once

#include "plugins/plugin_host.hpp"

#include <nicd/plugin/abi.h>
#include <nicd/plugin/plugin.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nicd::test {

class SimHost final : public plugin::v1::IHost {
public:
    explicit SimHost(std::filesystem::path root, uint32_t abi_minor = NICD_PLUGIN_ABI_MINOR)
        : root_(std::move(root)), abi_minor_(abi_minor)
    {
    }
    uint32_t abiMinor() const noexcept override { return abi_minor_; }
    void log(plugin::v1::Level, std::string_view msg,
             const plugin::v1::DeviceRef*) noexcept override
    {
        lines.emplace_back(msg);
    }
    std::string root() const noexcept override { return root_.string(); }
    bool simulated() const noexcept override { return true; }
    std::optional<std::string> config(std::string_view key) const noexcept override
    {
        auto it = settings.find(std::string(key));
        return it == settings.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
    plugin::v1::Status writeKnob(std::string_view path, std::string_view text) noexcept override
    {
        knobs.emplace_back(path);
        return plugins::changeHostKnob(HostPaths(root_), privilege::KnobOp::Write, path, text);
    }
    plugin::v1::Status makeKnobDirectory(std::string_view path) noexcept override
    {
        knobs.emplace_back(path);
        return plugins::changeHostKnob(HostPaths(root_), privilege::KnobOp::MakeGroup, path, {});
    }

    std::map<std::string, std::string> settings; // the plugin's section, [plugin:NAME]
    std::vector<std::string> lines;
    std::vector<std::string> knobs; // paths written or made through writeKnob, makeKnobDirectory

private:
    std::filesystem::path root_;
    uint32_t abi_minor_;
};

} // namespace nicd::test
