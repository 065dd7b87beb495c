// The pre-failure sources read from a device's PCI function in sysfs: its hwmon temperature
// sensors and how its PCIe link trained. One key per device (VFs are judged through their PF).
#pragma once

#include "model/signals.hpp"
#include "signals/keyed_source.hpp"

#include <vector>

namespace nicd::signals {

// The devices with a PCI function of their own, by ibdev, with the function's sysfs path.
std::map<std::string, std::string> physicalFunctions(const Inventory& inventory);

class TemperatureSource : public KeyedSource<std::vector<TemperatureSensor>> {
public:
    explicit TemperatureSource(SourceTiming timing) : KeyedSource("temperatures", timing) {}

protected:
    std::vector<std::string> keysOf(const Inventory& inventory) override;
    ReadOne reader() override;
    void place(const std::map<std::string, std::vector<TemperatureSensor>>& values,
               Snapshot& snap) override
    {
        snap.temperatures = values;
    }

private:
    std::shared_ptr<std::map<std::string, std::string>> functions_ =
        std::make_shared<std::map<std::string, std::string>>();
};

class PcieSource : public KeyedSource<PcieLink> {
public:
    explicit PcieSource(SourceTiming timing) : KeyedSource("pcie link", timing) {}

protected:
    std::vector<std::string> keysOf(const Inventory& inventory) override;
    ReadOne reader() override;
    void place(const std::map<std::string, PcieLink>& values, Snapshot& snap) override
    {
        snap.pcie = values;
    }

private:
    std::shared_ptr<std::map<std::string, std::string>> functions_ =
        std::make_shared<std::map<std::string, std::string>>();
};

} // namespace nicd::signals
