// One QosSettingReport out of the same setting on several netdevs of a port (a LAG's members):
// compliant and unchanged only when every part is.
#pragma once

#include <nicd/plugin/plugin.h>

#include <string>
#include <utility>
#include <vector>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;

// parts: (netdev, report). Observed is the common value, or "netdevA=x netdevB=y" when they
// differ; errors are joined with "; ".
pv1::QosSettingReport
mergeReports(const std::vector<std::pair<std::string, pv1::QosSettingReport>>& parts);

} // namespace nicd::mlx5
