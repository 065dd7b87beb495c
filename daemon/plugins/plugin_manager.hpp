// Every plugin the daemon loaded, and the devices each one manages. Plugin calls are made from
// one worker thread at a time, never from the event-loop thread; statuses() may be called from
// another thread while a plugin call is still out (a poll past its deadline).
#pragma once

#include "collect/plugin_calls.hpp"
#include "config/config.hpp"
#include "config/host_paths.hpp"
#include "model/inventory.hpp"
#include "model/plugin_status.hpp"
#include "model/prefailure_readings.hpp"
#include "model/samples.hpp"
#include "plugins/layout_meanings.hpp"
#include "plugins/plugin_host.hpp"
#include "plugins/plugin_loader.hpp"
#include "plugins/poll_failures.hpp"

#include <nicd/plugin/plugin.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace nicd::plugins {

class PluginManager final : public collect::PluginCalls {
public:
    // `config.plugins[name]` is what IHost::config() answers; Enabled=no skips the plugin.
    PluginManager(HostPaths paths, const Config& config);
    ~PluginManager(); // shutdown() if not done
    PluginManager(const PluginManager&) = delete;
    PluginManager& operator=(const PluginManager&) = delete;

    // Loads every nicd-plugin-*.so in `dir` (sorted). Failures are logged and recorded, never
    // thrown; a second file declaring a name already loaded is refused.
    void loadDirectory(const std::filesystem::path& dir);
    // Sets Device::plugin for the devices a plugin claims and attaches (Device::claimed_by even
    // when its attach fails); attaches new ones, detaches gone ones (an ignored device is gone
    // to plugins). A device its plugin says is a RoCE LAG (ABI >= 1.6,
    // asked at attach) becomes DeviceFunction::Lag.
    void assign(Inventory& inventory) override;
    // A reload: the daemon's settings plugins follow are `config.daemon`'s from now on, and the
    // next assign() detaches and attaches every device again, so that plugins start afresh with
    // them (counter files a plugin dropped are read again). Each plugin's own section stays the
    // one it was loaded with.
    void configure(const Config& config);
    // Reads the device's vendor counters through its plugin. A failed poll goes to out.errors;
    // a device whose polls keep failing is backed off (polls skipped 1, 2, 4 … times) and the
    // plugin shows Degraded after PollFailures::kDegradedAfter failures in a row, Running again
    // once every device reads. A poll that returned samples and an error is partial: the error
    // is reported, the device is not backed off (the plugin backs off what failed itself).
    // out.meanings: what the plugin says its series mean (ABI >= 1.5; asked once per layout).
    void poll(const Device& dev, DeviceSamples& out) override;
    plugin::v1::Status verifyQos(const Device& dev, const Port& port,
                                 const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out);
    plugin::v1::Status applyQos(const Device& dev, const Port& port,
                                const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out);
    // The first running plugin that recognises the kernel record. A plugin of ABI < 1.4 sees only
    // the messages of records about a device (IPlugin::classifyKernelRecord's default).
    bool classifyKernelRecord(const plugin::v1::KernelRecord& rec,
                              plugin::v1::KernelLineMatch& out) const;
    // The first running plugin that recognises the multi-line report, its name in `plugin`. A
    // plugin of ABI < 1.5 is not asked (its vtable ends before classifyKernelReport).
    bool classifyKernelReport(const plugin::v1::KernelReport& report, std::string& plugin,
                              plugin::v1::KernelLineMatch& out) const;

    // The driver ready files DriverReadyFile=auto waits for, by plugin: those of the running
    // plugins that manage a device (ABI >= 1.6, PluginTraits::driver_ready_file), absolute host
    // paths, not yet under the root. The devices of each wait for their own plugin's file.
    std::map<std::string, std::string> driverReadyFiles() const;
    // What each running plugin says its driver's devlink health reporters mean (ABI >= 1.6);
    // made as the plugins load, the same object after.
    std::shared_ptr<const ReporterMeanings> reporterMeanings() const override;

    std::vector<PluginStatus> statuses() const override;
    // shutdown() then destroy() on every running plugin. The libraries stay mapped.
    void shutdown();

    static plugin::v1::DeviceRef toDeviceRef(const Device& dev);
    static plugin::v1::PortRef toPortRef(const Port& port);

private:
    struct Loaded {
        PluginStatus status; // guarded by mutex_
        LoadedLibrary lib;
        std::unique_ptr<PluginHost> host;
        plugin::v1::IPlugin* plugin = nullptr;                 // null unless Running/Degraded
        std::map<std::string, plugin::v1::DeviceRef> attached; // by ibdev
        std::set<std::string> attach_failed;                   // logged once each
        PollFailures polls;
        bool reattach = false; // detach and attach every device at the next assign()
        // By ibdev: the layout the device's last poll gave (used on the plugin lane only).
        std::map<std::string, std::shared_ptr<const plugin::v1::SampleLayout>> layouts;
        LayoutMeaningCache meanings;     // what its layouts' series mean (ABI >= 1.5 only)
        plugin::v1::PluginTraits traits; // what it said of itself after init() (ABI >= 1.6)
        std::set<std::string> lags;      // by ibdev: devices it said are a RoCE LAG (ABI >= 1.6)
    };
    Loaded* pluginFor(const Device& dev) const;
    // verifyQos and applyQos: through the device's plugin, its denied knobs explained.
    using QosCall = plugin::v1::Status (plugin::v1::IPlugin::*)(const plugin::v1::DeviceRef&,
                                                                const plugin::v1::PortRef&,
                                                                const plugin::v1::QosDesired&,
                                                                plugin::v1::QosReport&) noexcept;
    plugin::v1::Status qos(QosCall call, const Device& dev, const Port& port,
                           const plugin::v1::QosDesired& desired, plugin::v1::QosReport& out);
    void load(const std::filesystem::path& file);
    void record(std::unique_ptr<Loaded> entry);
    void assignOne(Loaded& lp, Inventory& inventory);
    void describe(Loaded& lp);

    HostPaths paths_;
    Config sections_; // the configuration loaded with: its [plugin:NAME] sections and origins
    std::map<std::string, std::string> daemon_settings_; // what PluginHost::config() falls back to
    std::vector<std::unique_ptr<Loaded>> plugins_;
    std::shared_ptr<const ReporterMeanings> reporter_meanings_; // guarded by mutex_
    mutable std::mutex mutex_; // the status of every plugin, and plugins_ itself
    bool shut_down_ = false;
};

} // namespace nicd::plugins
