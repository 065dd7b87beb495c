// Human-readable views of a snapshot, the sinks for people: the one-line STATUS= text (sd_notify)
// and the `nicd --once` report.
#pragma once

#include "model/snapshot.hpp"

#include <string>

namespace nicd {

// "7 devices, 8 ports (1 down), 1 plugin running" — fits systemctl status.
std::string statusLine(const Snapshot& snap);

// Per port: provisioned or why not, and each setting wanted against what the NIC has.
std::string qosReport(const QosSummary& qos);

// A table of devices and ports, plugins and read errors, for `nicd --once`.
std::string onceReport(const Snapshot& snap);

} // namespace nicd
