// Everything one collection cycle produced: what the publishers (textfile, D-Bus, summary) render.
#pragma once

#include "model/health.hpp"
#include "model/inventory.hpp"
#include "model/neighbor.hpp"
#include "model/plugin_status.hpp"
#include "model/prefailure_readings.hpp"
#include "model/qos.hpp"
#include "model/readiness.hpp"
#include "model/samples.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace nicd {

struct Snapshot {
    Inventory inventory;
    std::map<std::string, NetdevState> netdevs;  // by netdev name
    std::set<std::string> default_route_netdevs; // netdevs that carry a default route
    std::vector<DeviceSamples> samples;          // one entry per device read this cycle
    std::vector<PluginStatus> plugins;
    // Pre-failure signals (prefailure/*_source.hpp), as last read on their own interval:
    std::vector<Uplink> uplinks;                                        // where FEC/optics are read
    std::map<std::string, FecStats> fec;                                // by netdev
    std::map<std::string, ModuleDom> modules;                           // by netdev
    std::map<std::string, std::vector<TemperatureSensor>> temperatures; // by ibdev
    std::map<std::string, PcieLink> pcie;                               // by ibdev
    std::vector<HealthReporter> reporters; // devlink health reporters of every device
    std::shared_ptr<const ReporterMeanings> reporter_meanings; // what plugins say they mean
    ReadinessInputs readiness;      // what the readiness checks read (readiness/)
    NeighborReading neighbors;      // what lldpd hears on each netdev (neighbor/)
    HealthReport health;            // filled on the loop by the health engine
    QosSummary qos;                 // filled on the loop from the last provisioning round
    uint64_t cycle = 0;             // 1 for the first cycle since start
    double timestamp_seconds = 0;   // CLOCK_REALTIME at the end of the cycle
    double duration_seconds = 0;    // wall time the cycle took
    uint64_t read_errors_total = 0; // failed reads since start
};

} // namespace nicd
