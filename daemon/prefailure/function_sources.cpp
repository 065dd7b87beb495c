#include "prefailure/function_sources.hpp"

#include "prefailure/hwmon_reader.hpp"
#include "prefailure/pcie_link.hpp"

namespace nicd::prefailure {

namespace {

// Devices with a PCI function of their own, each with the function's sysfs directory.
template <typename T> std::vector<typename KeyedSource<T>::Key> functionsOf(const Inventory& inv)
{
    std::vector<typename KeyedSource<T>::Key> keys;
    for (const auto& d : inv.devices)
        if (d.function != DeviceFunction::VirtualFunction && !d.pci_path.empty())
            keys.push_back({d.ibdev, d.pci_path});
    return keys;
}

Reply<std::vector<TemperatureSensor>> readTemperatures(const std::string& dir)
{
    auto r = readHwmon(dir);
    using Out = Reply<std::vector<TemperatureSensor>>;
    if (!r.present)
        return Out::unsupported("no hwmon under " + dir +
                                " (the driver registers none for this function)");
    if (r.sensors.empty() && !r.errors.empty())
        return Out::failed(r.errors.front());
    return Out::success(std::move(r.sensors));
}

Reply<PcieLink> readPcie(const std::string& dir)
{
    auto link = readPcieLink(dir);
    if (!link)
        return Reply<PcieLink>::unsupported("no current_link_speed/width under " + dir);
    return Reply<PcieLink>::success(*link);
}

} // namespace

std::unique_ptr<collect::Source> makeTemperatureSource(SourceTiming timing)
{
    using Values = std::vector<TemperatureSensor>;
    return std::make_unique<KeyedSource<Values>>(
        "temperatures", timing, &functionsOf<Values>, &readTemperatures,
        [](const auto& values, Snapshot& snap) { snap.temperatures = values; }, true);
}

std::unique_ptr<collect::Source> makePcieSource(SourceTiming timing)
{
    return std::make_unique<KeyedSource<PcieLink>>(
        "pcie link", timing, &functionsOf<PcieLink>, &readPcie,
        [](const auto& values, Snapshot& snap) { snap.pcie = values; }, true);
}

} // namespace nicd::prefailure
