// The one-line STATUS= text (sd_notify) of a snapshot; it opens the `nicd --once` report too
// (report/once_report.hpp).
#pragma once

#include "model/snapshot.hpp"

#include <string>

namespace nicd::report {

// "7 devices, 8 ports (1 down), 1 plugin running" — fits systemctl status.
std::string statusLine(const Snapshot& snap);

} // namespace nicd::report
