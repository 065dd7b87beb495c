// The configuration schema: which sections and keys exist, what each accepts, and where each
// value is stored in Config. (configKeys(), the list of keys, is declared in config.hpp.)
#pragma once

#include "config/config.hpp"

#include <string>
#include <string_view>

namespace nicd::config {

// Whether nicd knows `section`: daemon, textfile, provision, journal, health, device:<ibdev>,
// counter:<name>, counter:<name>/<ibdev>, plugin:<name>. If not, `why` says what is allowed.
bool checkSection(const std::string& section, std::string& why);

// Stores `key`=`value` of a section that passed checkSection (or "" for a key before any
// section) in `config`. False, with `why` saying what is allowed, for an unknown key or a bad
// value; `config` is then unchanged.
bool applyKey(Config& config, const std::string& section, const std::string& key,
              std::string_view value, std::string& why);

} // namespace nicd::config
