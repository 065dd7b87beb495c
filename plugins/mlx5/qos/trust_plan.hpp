// Pure planning for DSCP trust on mlx5 (PFC's planning is the SDK's, nicd/plugin/sdk/pfc_plan.h).
// mlx5 has no trust op: a port trusts DSCP while its APP table holds DSCP (selector 5) entries, and
// PCP when it holds none (reference §2.1). nicd's DSCP trust is the firmware default map, DSCP d ->
// priority d >> 3, all 64 entries, as mlnx_qos writes.
#pragma once

#include <nicd/plugin/sdk/dcb_codec.h>
#include <nicd/plugin/sdk/dscp_entries.h>
#include <nicd/plugin/sdk/pfc_plan.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nicd::mlx5 {

namespace dcb = ::nicd::plugin::sdk::dcb;

using plugin::sdk::describePfc;
using plugin::sdk::dscpEntries;
using plugin::sdk::kPriorities;
using plugin::sdk::pfcMask;
using plugin::sdk::planPfc;

inline constexpr int kDscpValues = 64;

std::vector<dcb::App> defaultDscpMap(); // {5, d >> 3, d} for d = 0..63

// trust dscp: exactly the 64 default entries; trust pcp: no DSCP entry at all.
bool trustCompliant(std::span<const dcb::App> table, bool want_dscp);
// "pcp", "dscp", or "dscp (12 of 64 default entries, 1 other)" for a partial or foreign map.
std::string describeTrust(std::span<const dcb::App> table);
std::string describeTrustWanted(bool want_dscp);

struct TrustPlan {
    std::vector<dcb::App> add;    // IEEE_SET
    std::vector<dcb::App> remove; // IEEE_DEL
    bool empty() const { return add.empty() && remove.empty(); }
};
// What turns `table` into the wanted trust: missing default entries to add, DSCP entries that
// are not part of the wanted state to delete.
TrustPlan planTrust(std::span<const dcb::App> table, bool want_dscp);

} // namespace nicd::mlx5
