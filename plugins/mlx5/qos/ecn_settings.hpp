// ECN for RoCE (DCQCN) on a port's netdevs, in MOFED's sysfs tree <root>/sys/class/net/<netdev>/
// ecn/ (reference congestion.md §2): roce_np/enable/<prio> — the notification point, CNPs for
// CE-marked RoCE packets received on that priority — and roce_rp/enable/<prio> — the reaction
// point, the sender's rate cut on CNPs — read as "0\n"/"1\n" (an empty read is a firmware error),
// each read or write a firmware command; roce_np/cnp_dscp and cnp_802p_prio mark the CNPs sent.
// Only the wanted priorities are read and enabled; the others are left as they are. Upstream
// kernels have no such tree (debugfs parameters without a per-priority enable): there the settings
// are "unsupported", which is neither non-compliant nor an error.
#pragma once

#include <nicd/plugin/sdk/qos_call.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
using plugin::sdk::QosCall;

// ecn_np and ecn_rp, then cnp_dscp and cnp_priority when the configuration sets them; each
// merged over the netdevs (a LAG's members). Nothing when ECN is not managed (Ecn=no).
std::vector<pv1::QosSettingReport> ecnSettings(QosCall& call,
                                               const std::vector<std::string>& netdevs);

// "1\n" -> true, "0\n" -> false (only bit 0 counts, as the driver does); empty or not a number
// -> nullopt.
std::optional<bool> parseEcnEnable(std::string_view text);

} // namespace nicd::mlx5
