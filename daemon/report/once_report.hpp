// The `nicd --once` report: a summary first, then only what is not ok (every port and setting with
// -v): the ports that are not healthy, each condition once (one a check raises alike on many
// ports, such as ready.no_gpudirect, is one line naming them), what the node should carry, QoS
// that differs, failed or was repaired ("trust pcp -> dscp (repaired)"), plugins, read errors.
// Pure.
#pragma once

#include "model/snapshot.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace nicd::report {

std::string onceReport(const Snapshot& snap, bool verbose);

// The same as JSON (nicd --once --json), every port and setting: {"summary", "node_health",
// "devices", "ignored", "conditions", "inventory", "qos", "plugins", "cycle",
// "duration_seconds", "read_errors"}. Dump it with error_handler_t::replace (sysfs text need not
// be UTF-8).
nlohmann::json onceJson(const Snapshot& snap);

// nicd --once's exit status, as nicctl status's: 0 healthy, 1 degraded, 2 fatal (the node's
// verdict); 3 when it could not do what it was asked (`done` false: the textfile could not be
// written, a --forget was refused).
int onceExitCode(const Snapshot& snap, bool done);

// Per port: provisioned or why not, and each setting wanted against what the NIC has; with
// `verbose` false only the ports and settings that are not compliant, or were repaired.
std::string qosReport(const QosSummary& qos, bool verbose);

} // namespace nicd::report
