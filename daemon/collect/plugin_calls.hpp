// What a cycle asks of the vendor plugins (plugins/plugin_manager.hpp answers): which plugin
// takes each device, each device's counters read through its plugin, what the plugins' devlink
// health reporters mean and how each plugin is doing. The collector makes these calls on its
// plugin lane, against the driver deadline, and knows nothing else of plugins.
#pragma once

#include "model/inventory.hpp"
#include "model/plugin_status.hpp"
#include "model/prefailure_readings.hpp"
#include "model/samples.hpp"

#include <memory>
#include <vector>

namespace nicd::collect {

class PluginCalls {
public:
    // Sets Device::plugin (and claimed_by, and DeviceFunction::Lag) of the devices plugins take.
    virtual void assign(Inventory& inventory) = 0;
    // Errors go to out.errors; an exception is the collector's to report for this device.
    virtual void poll(const Device& dev, DeviceSamples& out) = 0;
    virtual std::shared_ptr<const ReporterMeanings> reporterMeanings() const = 0;
    virtual std::vector<PluginStatus> statuses() const = 0;

protected:
    ~PluginCalls() = default;
};

} // namespace nicd::collect
