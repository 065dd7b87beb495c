#include "signals/function_sources.hpp"

#include "signals/hwmon_reader.hpp"
#include "signals/pcie_link.hpp"

namespace nicd::signals {

std::map<std::string, std::string> physicalFunctions(const Inventory& inventory)
{
    std::map<std::string, std::string> out;
    for (const auto& d : inventory.devices)
        if (d.function != DeviceFunction::VirtualFunction && !d.pci_path.empty())
            out[d.ibdev] = d.pci_path;
    return out;
}

namespace {

std::vector<std::string> keysOfFunctions(const std::map<std::string, std::string>& functions)
{
    std::vector<std::string> keys;
    for (const auto& [ibdev, path] : functions)
        keys.push_back(ibdev);
    return keys;
}

} // namespace

std::vector<std::string> TemperatureSource::keysOf(const Inventory& inventory)
{
    // A fresh map each time: a read left behind keeps the one it captured.
    functions_ = std::make_shared<std::map<std::string, std::string>>(physicalFunctions(inventory));
    return keysOfFunctions(*functions_);
}

TemperatureSource::ReadOne TemperatureSource::reader()
{
    return [functions = functions_](const std::string& ibdev) {
        const auto& dir = functions->at(ibdev);
        auto r = readHwmon(dir);
        using Out = ReadOutcome<std::vector<TemperatureSensor>>;
        if (!r.present)
            return Out::missing("no hwmon under " + dir +
                                " (mlx5 registers one from Linux 6.6 on firmware with MTMP)");
        if (r.sensors.empty() && !r.errors.empty())
            return Out::failed(r.errors.front());
        return Out::ok(std::move(r.sensors));
    };
}

std::vector<std::string> PcieSource::keysOf(const Inventory& inventory)
{
    functions_ = std::make_shared<std::map<std::string, std::string>>(physicalFunctions(inventory));
    return keysOfFunctions(*functions_);
}

PcieSource::ReadOne PcieSource::reader()
{
    return [functions = functions_](const std::string& ibdev) {
        const auto& dir = functions->at(ibdev);
        auto link = readPcieLink(dir);
        if (!link)
            return ReadOutcome<PcieLink>::missing("no current_link_speed/width under " + dir);
        return ReadOutcome<PcieLink>::ok(*link);
    };
}

} // namespace nicd::signals
