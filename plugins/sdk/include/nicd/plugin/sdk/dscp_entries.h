// The DSCP entries (selector 5) of a netdev's APP table, the same question on every vendor: with
// no trust knob (mlx5, bnxt), they are the port's DSCP classification.
#pragma once

#include <nicd/plugin/sdk/dcb_codec.h>

#include <span>
#include <vector>

namespace nicd::plugin::sdk {

// The table's DSCP entries, sorted (dcb::App's order), each once.
std::vector<dcb::App> dscpEntries(std::span<const dcb::App> table);

} // namespace nicd::plugin::sdk
