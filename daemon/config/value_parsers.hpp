// Pure parsers for configuration values. Each returns the value, or nullopt with `why` set to
// what is allowed (used verbatim in the error message).
#pragma once

#include "config/config.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::config {

std::string_view trim(std::string_view v);

// yes/no, true/false, on/off, 1/0 in any case, as systemd accepts them.
std::optional<bool> parseBool(std::string_view v, std::string& why);
// A decimal integer in [min, max].
std::optional<uint64_t> parseUint(std::string_view v, uint64_t min, uint64_t max, std::string& why);
std::optional<std::string> parseAbsolutePath(std::string_view v, std::string& why);
// "3", "3 4", "3,4", "" or "none"; each 0..7, no duplicates; returned sorted.
std::optional<std::vector<uint8_t>> parsePriorities(std::string_view v, std::string& why);
// A decimal number (fractions and exponents allowed: 0.1, 2.4e-4, -9.5) in [min, max].
std::optional<double> parseDecimal(std::string_view v, double min, double max, std::string& why);
// "10/s", "5/min", "120/h" (also sec, second, minute, hour); returns events per second.
std::optional<RateLimit> parseRate(std::string_view v, std::string& why);
// Whitespace-separated words (globs); never fails.
std::vector<std::string> splitWords(std::string_view v);
// IgnoreDevices=: whitespace-separated RDMA device names, shell globs over them (mlx5_1*,
// mlx5_[23]) and PCI addresses, full (0000:3b:00.0) or short (3b:00.0: domain 0000). PCI
// addresses come back in the full, lower-case form; a word that is neither is an error.
std::optional<std::vector<std::string>> parseDeviceSelectors(std::string_view v, std::string& why);
// [textfile] Counters=: "default", "all" or "none", then (not after all) statistic-name globs to
// add, e.g. "default rx_prio*_bytes np_cnp_sent". Empty: default.
std::optional<TextfileCounters> parseTextfileCounters(std::string_view v, std::string& why);
// [health] ExpectPorts=: "auto" (or empty), "none", or ROLE:COUNT[@GBPS] items, one per role,
// e.g. "compute:8@400 storage:2@200" (COUNT 1..4096, GBPS a number above 0 up to 10000).
std::optional<ExpectPorts> parseExpectPorts(std::string_view v, std::string& why);

std::optional<ProvisionMode> parseProvisionMode(std::string_view v, std::string& why);
std::optional<TrustMode> parseTrustMode(std::string_view v, std::string& why);
std::optional<BondPolicy> parseBondPolicy(std::string_view v, std::string& why);
std::optional<RuleSeverity> parseRuleSeverity(std::string_view v, std::string& why);
// A machine-readable action code (model/action.hpp): "reset_nic", "check_cable", ...
std::optional<Action> parseActionValue(std::string_view v, std::string& why);

} // namespace nicd::config
