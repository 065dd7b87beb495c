// Turns a vendor's driver events (driver_events.hpp, from its catalog) into the lines of one
// device.
#include "driver_lines.hpp"

#include "driver_events.hpp"
#include "sim.hpp"
#include "vendor_catalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace nicd::sim {

namespace {

const std::vector<DriverEvent>& eventsOf(const std::string& vendor)
{
    return vendorCatalog(vendor).driver_events(); // throws for an unknown vendor
}

} // namespace

std::vector<std::string> driverEvents(const std::string& vendor)
{
    std::vector<std::string> out;
    for (const auto& e : eventsOf(vendor))
        out.emplace_back(e.name);
    return out;
}

std::vector<DriverLine> driverLines(const std::string& vendor, const std::string& event,
                                    const std::string& bdf, const std::string& netdev,
                                    const std::string& ibdev)
{
    const auto& events = eventsOf(vendor);
    auto it = std::find_if(events.begin(), events.end(),
                           [&](const DriverEvent& e) { return event == e.name; });
    if (it == events.end())
        throw SimError(fmt::format("{} prints no '{}' lines (its events: {})", vendor, event,
                                   fmt::join(driverEvents(vendor), ", ")));
    const std::string driver = vendorCatalog(vendor).driver;
    std::vector<DriverLine> out;
    for (const auto& l : it->lines) {
        std::string who = driver + " " + bdf;
        if (l.prefix == DriverLinePrefix::Netdev)
            who += " " + netdev;
        else if (l.prefix == DriverLinePrefix::Ibdev)
            who += " " + ibdev;
        out.push_back({who + ": " + l.text, "+pci:" + bdf, "pci"});
    }
    return out;
}

} // namespace nicd::sim
