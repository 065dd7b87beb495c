// How nicctl prints the rows nicd's methods answer with (events; QoS results of Apply and
// Verify: nicd_client's object_values.hpp) as text and as JSON. Pure.
#pragma once

#include <nicd/client/object_values.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nicctl {

using nicd::dbus::EventRow;
using nicd::dbus::QosResultRow;

// "2026-11-23T10:01:02Z #42 fatal raised mlx5_1/1 port_down: ..." (UTC, ISO 8601).
std::string formatEvent(const EventRow& e);
nlohmann::json eventJson(const EventRow& e);

// A table of the rows, and a last line saying how many settings are compliant/changed/failed.
std::string renderQosRows(const std::vector<QosResultRow>& rows, bool dry_run);
nlohmann::json qosRowsJson(const std::vector<QosResultRow>& rows);

// `nicctl verify` / `apply`: 0 every setting compliant (for a dry run: compliant or would be
// changed), 1 some setting is not (and is not being changed: Mode=verify, or verify), 2 some
// setting or port had an error.
int qosExitCode(const std::vector<QosResultRow>& rows, bool dry_run);

// A counters map as "name value" lines, sorted by name.
std::string renderCounters(const std::map<std::string, uint64_t>& counters);

} // namespace nicctl
