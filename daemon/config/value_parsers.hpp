// Pure parsers for configuration values. Each returns the value, or an Error saying what is
// allowed (used verbatim in the error message that names the file, line and key).
#pragma once

#include "config/config.hpp"
#include "text/result.hpp"
#include "text/trim.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nicd::config {

using text::trim; // text/trim.hpp

// yes/no, true/false, on/off, 1/0 in any case, as systemd accepts them.
Result<bool> parseBool(std::string_view v);
// A decimal integer in [min, max].
Result<uint64_t> parseUint(std::string_view v, uint64_t min, uint64_t max);
Result<std::string> parseAbsolutePath(std::string_view v);
// "3", "3 4", "3,4", "" or "none"; each 0..7, no duplicates; returned sorted.
Result<std::vector<uint8_t>> parsePriorities(std::string_view v);
// A decimal number (fractions and exponents allowed: 0.1, 2.4e-4, -9.5) in [min, max].
Result<double> parseDecimal(std::string_view v, double min, double max);
// "10/s", "5/min", "120/h" (also sec, second, minute, hour); returns events per second.
Result<RateLimit> parseRate(std::string_view v);
// Whitespace-separated words; never fails.
std::vector<std::string> splitWords(std::string_view v);
// A shell glob as fnmatch(3) reads it, refused where fnmatch would take a bracket literally or a
// class could match nothing: a '[' without its ']' ("mlx5_[0-1" matches no device), a ']'
// without its '[', an empty range ("[9-0]").
Result<void> checkGlob(std::string_view glob);
// Whitespace-separated globs, each checked (checkGlob).
Result<std::vector<std::string>> parseGlobs(std::string_view v);
// IgnoreDevices=: whitespace-separated RDMA device names, shell globs over them (mlx5_1*,
// mlx5_[23]) and PCI addresses, full (0000:3b:00.0) or short (3b:00.0: domain 0000). PCI
// addresses come back in the full, lower-case form; a word that is neither is an error.
Result<std::vector<std::string>> parseDeviceSelectors(std::string_view v);
// [textfile] Counters=: "default", "all" or "none", then (not after all) statistic-name globs to
// add, e.g. "default rx_prio*_bytes np_cnp_sent". Empty: default.
Result<TextfileCounters> parseTextfileCounters(std::string_view v);
// [health] ExpectPorts=: "auto" (or empty), "none", or ROLE:COUNT[@GBPS] items, one per role,
// e.g. "compute:8@400 storage:2@200" (COUNT 1..4096, GBPS a number above 0 up to 10000).
Result<ExpectPorts> parseExpectPorts(std::string_view v);

Result<ProvisionMode> parseProvisionMode(std::string_view v);
Result<TrustMode> parseTrustMode(std::string_view v);
Result<BondPolicy> parseBondPolicy(std::string_view v);
Result<FlapMode> parseFlapMode(std::string_view v);
Result<RuleSeverity> parseRuleSeverity(std::string_view v);
// A machine-readable action code (model/action.hpp): "reset_nic", "check_cable", ...
Result<Action> parseActionValue(std::string_view v);

} // namespace nicd::config
