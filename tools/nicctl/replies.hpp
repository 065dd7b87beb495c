// How nicctl prints the rows nicd's methods answer with (events; QoS results of Apply and
// Verify: nicd_client's object_values.hpp) as text and as JSON. Pure.
#pragma once

#include <nicd/client/object_values.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicctl {

using nicd::dbus::EventRow;
using nicd::dbus::kQosUnsupported;
using nicd::dbus::qosResultOf;
using nicd::dbus::QosResultRow;

// Microseconds since the epoch as "2026-11-23T10:01:02Z" (UTC); "-" for 0.
std::string isoTime(uint64_t usec);

// "2026-11-23T10:01:02Z #42 fatal raised mlx5_1/1 port_down: ..." (UTC, ISO 8601).
std::string formatEvent(const EventRow& e);
nlohmann::json eventJson(const EventRow& e);

// What each port's switch advertises for its settings (the Port objects' SwitchQos), by (device,
// port): "pfc" -> "3,4".
using SwitchValues = std::map<std::pair<std::string, uint32_t>, std::map<std::string, std::string>>;

// A table of the rows, each with what the switch port advertises for the setting (SWITCH: "-"
// where it says nothing, or the port hears no LLDP neighbour) and its result (compliant,
// noncompliant or unsupported: the NIC gives nicd no interface for it), and a last line saying
// how many settings are compliant, unsupported, changed and failed.
std::string renderQosRows(const std::vector<QosResultRow>& rows, bool dry_run,
                          const SwitchValues& switch_values = {});
nlohmann::json qosRowsJson(const std::vector<QosResultRow>& rows,
                           const SwitchValues& switch_values = {});

// `nicctl counters DEV`: a device's own counters, then each port's, as text (a heading a port)
// and as JSON {"device": {...}, "ports": {"1": {...}}}.
struct DeviceCounters {
    std::map<std::string, uint64_t> device;
    std::map<uint32_t, std::map<std::string, uint64_t>> ports;
};
std::string renderDeviceCounters(const std::string& name, const DeviceCounters& counters);
nlohmann::json deviceCountersJson(const DeviceCounters& counters);

// `nicctl counters --rate`: per second between two readings `seconds` apart, of the counters
// in both that grew (one that went back, a reset or a wrap, is left out); rendered as
// "name  12.3/s" lines, those that did not change counted on a last line.
std::map<std::string, double> counterRates(const std::map<std::string, uint64_t>& before,
                                           const std::map<std::string, uint64_t>& after,
                                           double seconds);
std::string renderRates(const std::map<std::string, double>& rates, size_t unchanged);

// `nicctl config`: the configuration in effect as nicd.conf text, a section at a time, each key
// with where its value comes from ("# default" or "# /etc/nicd/nicd.conf:12"); as JSON an array
// of {"section", "key", "value", "source"}.
std::string renderConfiguration(const std::vector<std::array<std::string, 4>>& rows);
nlohmann::json configurationJson(const std::vector<std::array<std::string, 4>>& rows);

// `nicctl verify` / `apply`: 0 every setting compliant or unsupported (for a dry run: or would be
// changed), 1 some setting is noncompliant (and is not being changed: Mode=verify, or verify), 2
// some setting or port had an error.
int qosExitCode(const std::vector<QosResultRow>& rows, bool dry_run);

// A counters map as "name value" lines, sorted by name.
std::string renderCounters(const std::map<std::string, uint64_t>& counters);

} // namespace nicctl
