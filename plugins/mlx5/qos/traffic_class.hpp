// MOFED's global verbs traffic class of one IB device port, <root>/sys/class/infiniband/<ibdev>/
// tc/<port>/traffic_class: read "106" (MOFED <= 4.3-1) or "Global tclass=106" (later; empty when
// unset), written as a bare number. Absent on inbox drivers: then there is nothing to do.
#pragma once

#include <nicd/plugin/plugin.h>
#include <nicd/plugin/sdk/roce_tos.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace nicd::mlx5 {

namespace pv1 = ::nicd::plugin::v1;
using plugin::sdk::TosTarget;

// What a traffic_class file says: `valid` false for text in neither format; `tclass` empty
// when no global value is set ("-1", empty, or only per-address rules).
struct TrafficClass {
    bool valid = false;
    std::optional<uint8_t> tclass;
};
TrafficClass parseTrafficClass(std::string_view text);

std::filesystem::path trafficClassFile(const TosTarget& t);
bool hasTrafficClass(const TosTarget& t);
pv1::Status readTrafficClass(const TosTarget& t, std::optional<uint8_t>& out);
pv1::Status writeTrafficClass(const TosTarget& t, uint8_t tclass);

} // namespace nicd::mlx5
