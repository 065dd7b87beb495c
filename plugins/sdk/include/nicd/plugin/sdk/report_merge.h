// One QosSettingReport out of the same setting on several netdevs of a port (a LAG's members):
// compliant and unchanged only when every part is.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>
#include <utility>
#include <vector>

namespace nicd::plugin::sdk {

// parts: (netdev, report). Observed is the common value, or "netdevA=x netdevB=y" when they
// differ; errors are joined with "; ".
v1::QosSettingReport
mergeReports(const std::vector<std::pair<std::string, v1::QosSettingReport>>& parts);

} // namespace nicd::plugin::sdk
