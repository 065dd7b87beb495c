// Pure planning for PFC, the same on every vendor's IEEE DCB: the enable bits of the wanted
// priorities, how they (and a list of priorities) read in a report, and the struct ieee_pfc to
// SET.
#pragma once

#include <nicd/plugin/sdk/dcb_codec.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace nicd::plugin::sdk {

inline constexpr int kPriorities = 8;

// Bit i set for each priority i; nullopt when a priority is above 7.
std::optional<uint8_t> pfcMask(std::span<const uint8_t> priorities);
// "3", "3,4" or "none".
std::string describePfc(uint8_t mask);
// The priorities as given, in their order ("4,3"), or "none": a report's desired and observed
// lists of a per-priority setting (ECN), where a priority above 7 must still read as asked.
std::string describePriorities(std::span<const uint8_t> priorities);
// The PFC struct to SET: the current one as read (cap, mbc, delay = cable length, counters)
// with only the enable bits changed.
dcb::Pfc planPfc(const dcb::Pfc& current, uint8_t mask);

} // namespace nicd::plugin::sdk
