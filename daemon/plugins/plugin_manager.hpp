// Every plugin the daemon loaded, and the devices each one manages. Used from the worker thread
// only: plugin calls are serialized and never made on the event-loop thread.
#pragma once

#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "model/plugin_status.hpp"
#include "model/samples.hpp"
#include "plugins/plugin_host.hpp"
#include "plugins/plugin_loader.hpp"

#include <nicd/plugin/plugin.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace nicd {

class PluginManager {
public:
    PluginManager(HostPaths paths, const Config& config);
    ~PluginManager();
    PluginManager(const PluginManager&) = delete;
    PluginManager& operator=(const PluginManager&) = delete;

    // Loads every nicd-plugin-*.so in `dir` (sorted). Failures are logged and recorded.
    void loadDirectory(const std::filesystem::path& dir);
    // Sets Device::plugin for the devices a plugin claims; attaches new ones, detaches gone ones.
    void assign(Inventory& inventory);
    // Reads the device's vendor counters through its plugin; failures go to out.errors.
    void poll(const Device& dev, DeviceSamples& out);
    plugin::v1::Status verifyQos(const Device& dev, const Port& port,
                                 const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out)
    {
        return qos(dev, port, desired, out, false);
    }
    plugin::v1::Status applyQos(const Device& dev, const Port& port,
                                const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out)
    {
        return qos(dev, port, desired, out, true);
    }
    // The first running plugin that recognises the line.
    bool classifyKernelLine(std::string_view line, plugin::v1::KernelLineMatch& out) const;

    std::vector<PluginStatus> statuses() const;
    void shutdown();

    static plugin::v1::DeviceRef toDeviceRef(const Device& dev);
    static constexpr uint32_t kDegradedAfter = 3; // consecutive failed polls

private:
    struct Loaded {
        PluginStatus status;
        LoadedLibrary lib;
        std::unique_ptr<PluginHost> host;
        plugin::v1::IPlugin* plugin = nullptr; // null unless Running/Degraded
        std::set<std::string> attached;        // ibdevs
        std::map<std::string, uint32_t> skip;  // ibdev -> polls left to skip (backoff)
    };
    Loaded* pluginFor(const Device& dev);
    plugin::v1::Status qos(const Device& dev, const Port& port,
                           const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out,
                           bool apply);
    const Loaded* pluginFor(const Device& dev) const;
    void load(const std::filesystem::path& file);

    HostPaths paths_;
    std::map<std::string, std::map<std::string, std::string>> plugin_config_;
    std::vector<std::unique_ptr<Loaded>> plugins_;
    bool shut_down_ = false;
};

} // namespace nicd
